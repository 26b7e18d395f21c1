// Issue 48's figures for the recordings' compression: one hour of 8 kHz audio through the encoder
// the service runs (opus-tools), the time it takes (the encoder is one process on one core, so its
// wall time on an idle machine is a core's time), and the bytes kept per second of call.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createOpusToolsEncoder } from '../src/integrations/recordings/index.js'
import { asteriskWav, haveOpusTools } from '../test/helpers/asterisk-wav.js'

const SECONDS = Number(process.env.BENCH_RECORDING_SECONDS ?? 3600)

/** speech-like: a voiced sound whose pitch and loudness wander, in syllables with pauses, over a little noise */
function speechLike (seconds: number): Int16Array {
  let seed = 7
  const noise = () => { seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31; return seed / 2 ** 31 - 0.5 }
  return Int16Array.from({ length: 8000 * seconds }, (_, i) => {
    const t = i / 8000
    const pitch = 120 + 40 * Math.sin(2 * Math.PI * 0.7 * t)
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 3 * t)) * (Math.sin(2 * Math.PI * 0.2 * t) > -0.6 ? 1 : 0)
    let voiced = 0
    for (let h = 1; h <= 12; h++) voiced += Math.sin(2 * Math.PI * pitch * h * t) / h
    return Math.round(3000 * syllable * voiced + 300 * noise())
  })
}

export async function benchRecordings (): Promise<void> {
  if (!haveOpusTools) { process.stdout.write('\n## recordings\n\nopus-tools is not installed (apt-get install opus-tools): nothing measured\n'); return }
  const dir = mkdtempSync(join(tmpdir(), 'bench-recordings-'))
  try {
    const wav = join(dir, 'call.wav')
    writeFileSync(wav, asteriskWav(speechLike(SECONDS)))
    const encoder = createOpusToolsEncoder()
    const started = performance.now()
    await encoder.compress(wav, join(dir, 'call.ogg'))
    const took = (performance.now() - started) / 1000
    const bytes = statSync(join(dir, 'call.ogg')).size
    process.stdout.write([
      '', '## recordings: compression (opus-tools, 12 kbit/s CBR, 60 ms frames; encoded, then decoded again to check)', '',
      '| audio | compressed and checked in | per hour of audio | bytes kept | per second of call |', '|---|---|---|---|---|',
      `| ${SECONDS} s at 8 kHz | ${took.toFixed(1)} s | ${(took * 3600 / SECONDS).toFixed(1)} s | ${bytes} | ${(bytes / SECONDS).toFixed(0)} B |`,
      '', `50,000 three-minute calls a day keep ${(bytes / SECONDS * 180 * 50_000 / 1e9).toFixed(1)} GB a day.`, '',
    ].join('\n'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
