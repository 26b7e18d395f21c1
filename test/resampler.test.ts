import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { resample } from '../src/lib/audio/index.js'
import { level, levelAt, sine } from './helpers/audio.js'

/** the middle of a signal, away from the filter's edges */
const middle = (s: Float32Array) => s.subarray(Math.floor(s.length / 4), Math.floor(s.length * 3 / 4))

describe('resampler (band-limited, polyphase windowed sinc)', () => {
  it('keeps a tone in the pass band at its level and frequency, at the exact length, for the rates people have', () => {
    for (const [from, to] of [[44_100, 16_000], [48_000, 16_000], [22_050, 16_000], [11_025, 8000], [8000, 16_000], [32_000, 8000], [44_056, 16_000]] as const) {
      const input = sine(from, 1000, 1)
      const output = resample(input, from, to)
      assert.equal(output.length, Math.floor(input.length * to / from), `${from} -> ${to}`)
      const heard = levelAt(middle(output), to, 1000)
      assert.ok(Math.abs(heard - levelAt(middle(input), from, 1000)) < 0.1, `${from} -> ${to}: 1 kHz at ${heard.toFixed(2)} dB`)
      assert.ok(Math.abs(level(middle(output)) - heard) < 0.1, `${from} -> ${to}: nothing but the tone (${level(middle(output)).toFixed(2)} dB)`)
    }
  })

  it('a tone above the new Nyquist frequency is removed, not folded back (12 kHz in 44.1 kHz would alias at 4 kHz in 16 kHz)', () => {
    const input = sine(44_100, 12_000, 1)
    const output = middle(resample(input, 44_100, 16_000))
    assert.ok(level(output) < level(input) - 70, `what is left: ${level(output).toFixed(1)} dB against ${level(input).toFixed(1)} dB`)
    assert.ok(levelAt(output, 16_000, 4000) < -80)
    const down = middle(resample(sine(48_000, 5000, 1), 48_000, 8000))
    assert.ok(level(down) < -70, `5 kHz going to 8 kHz: ${level(down).toFixed(1)} dB`)
  })

  it('going up adds no image of the tone (1 kHz at 8 kHz would mirror at 7 kHz in 16 kHz)', () => {
    const output = middle(resample(sine(8000, 1000, 1), 8000, 16_000))
    assert.ok(levelAt(output, 16_000, 7000) < levelAt(output, 16_000, 1000) - 70)
  })

  it('the same rate is a copy; rates that are not whole positive numbers are refused', () => {
    const input = sine(16_000, 440, 0.1)
    assert.deepEqual(resample(input, 16_000, 16_000), input)
    assert.throws(() => resample(input, 0, 8000), RangeError)
    assert.throws(() => resample(input, 44_100.5, 8000), RangeError)
  })
})
