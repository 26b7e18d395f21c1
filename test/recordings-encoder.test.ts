import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { createLibopusEncoder, createOpusToolsEncoder, firstEncoder, readOggOpus } from '../src/integrations/recordings/index.js'
import { readWavHeader } from '../src/lib/audio/index.js'
import { asteriskWav, haveOpusTools } from './helpers/asterisk-wav.js'
import { moduleUrl, NODE_FLAGS } from './helpers/runnable.js'

/** speech-band tones, `seconds` long, at about a third of full scale */
const voice = (seconds: number) => Int16Array.from({ length: 8000 * seconds }, (_, i) => Math.round(5000 * Math.sin(2 * Math.PI * 440 * i / 8000) + 4000 * Math.sin(2 * Math.PI * 1250 * i / 8000)))
const rms = (samples: Int16Array) => Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length)
const pcmOf = (wav: Buffer) => new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)))

describe('recordings: the raw WAV and its compression to Ogg/Opus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recordings-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  const file = (name: string, bytes: Buffer) => { const path = join(dir, name); writeFileSync(path, bytes); return path }

  it('a WAV Asterisk still writes (sizes 0) is not finished; a closed one is, with its length; anything else is no WAV', async () => {
    const samples = voice(1)
    assert.equal((await readWavHeader(file('open.wav', asteriskWav(samples, { closed: false }))))?.closed, false)
    const closed = await readWavHeader(file('closed.wav', asteriskWav(samples)))
    assert.deepEqual(closed && [closed.closed, closed.sampleRate, closed.channels, closed.seconds], [true, 8000, 1, 1])
    assert.equal((await readWavHeader(file('odd.wav', asteriskWav(samples, { extraByte: true }))))?.closed, true, 'odd data and its pad byte')
    const grown = Buffer.concat([asteriskWav(samples), Buffer.alloc(320)]) // written on after a header was filled in
    assert.equal((await readWavHeader(file('grown.wav', grown)))?.closed, false)
    assert.equal(await readWavHeader(file('text.wav', Buffer.from('not a recording at all, but long enough to hold a header'))), undefined)
    assert.equal(await readWavHeader(file('short.wav', Buffer.from('RIFF'))), undefined)
  })

  it('compresses a finished call to Ogg/Opus under 2 kB a second, decoded back to the same length and loudness', { skip: !haveOpusTools && 'opus-tools is not installed (apt-get install opus-tools)' }, async () => {
    const encoder = createOpusToolsEncoder()
    assert.match(await encoder.probe() ?? '', /opusenc/)
    const samples = voice(20)
    const from = file('call-1.wav', asteriskWav(samples))
    const to = join(dir, 'call-1.ogg')
    assert.deepEqual(await encoder.compress(from, to), { seconds: 20 })
    const ogg = readFileSync(to)
    assert.equal(ogg.toString('latin1', 0, 4), 'OggS')
    assert.ok(ogg.length <= 2000 * 20, `${ogg.length} bytes for 20 s`)
    assert.ok(!existsSync(`${to}.partial`))
    const decoded = pcmOf(execFileSync('opusdec', ['--quiet', '--rate', '8000', '--force-wav', to, '-'], { maxBuffer: 1 << 24 }))
    assert.ok(Math.abs(decoded.length - samples.length) <= 480, `${decoded.length} samples decoded of ${samples.length}`)
    const loudness = rms(decoded) / rms(samples)
    assert.ok(loudness > 0.8 && loudness < 1.2, `loudness kept: ${loudness.toFixed(2)}`)
  })

  it('refuses a recording still being written, and an encoder that fails leaves nothing behind', { skip: !haveOpusTools && 'opus-tools is not installed' }, async () => {
    const open = file('call-2.wav', asteriskWav(voice(1), { closed: false }))
    await assert.rejects(createOpusToolsEncoder().compress(open, join(dir, 'call-2.ogg')), /not a finished PCM WAV/)
    const closed = file('call-3.wav', asteriskWav(voice(1)))
    await assert.rejects(createOpusToolsEncoder({ encoder: 'false' }).compress(closed, join(dir, 'call-3.ogg')), /false failed/)
    // an "encoder" whose output no decoder reads
    const fake = file('fake-opusenc', Buffer.from('#!/bin/sh\nfor last; do :; done\necho nonsense > "$last"\n'))
    execFileSync('chmod', ['+x', fake])
    await assert.rejects(createOpusToolsEncoder({ encoder: fake }).compress(closed, join(dir, 'call-3.ogg')), /could not read/)
    assert.ok(!existsSync(join(dir, 'call-3.ogg')) && !existsSync(join(dir, 'call-3.ogg.partial')))
    assert.equal(statSync(closed).size, 44 + 16000, 'the raw file is untouched')
    assert.equal(await createOpusToolsEncoder({ encoder: 'no-such-opusenc' }).probe(), undefined)
  })

  it('libopus in the process: an Ogg Opus stream the reference decoder (opusdec) plays at the source\'s length and loudness, under 2 kB a second', async () => {
    const encoder = createLibopusEncoder()
    assert.match(await encoder.probe() ?? '', /libopus/)
    // lengths that end inside a frame, and a frame and a half
    for (const samples of [voice(20), voice(1).subarray(0, 4321), voice(1).subarray(0, 720)]) {
      const from = file(`lib-${samples.length}.wav`, asteriskWav(samples))
      const to = join(dir, `lib-${samples.length}.opus`)
      const kept = await encoder.compress(from, to)
      assert.equal(kept.seconds, samples.length / 8000)
      const ogg = readFileSync(to)
      assert.ok(ogg.length <= 2000 * Math.max(1, samples.length / 8000), `${ogg.length} bytes for ${samples.length / 8000} s`)
      const stream = readOggOpus(ogg)
      assert.deepEqual([stream.preSkip, stream.inputRate, Number(stream.lastGranule) - stream.preSkip], [312, 8000, samples.length * 6], 'the end trimmed to the source\'s length')
      assert.ok(!existsSync(`${to}.partial`))
      if (!haveOpusTools) continue
      // the reference decoder applies the pre-skip and the end trimming: exactly the source's samples
      const decoded = pcmOf(execFileSync('opusdec', ['--quiet', '--rate', '8000', '--force-wav', to, '-'], { maxBuffer: 1 << 24 }))
      assert.equal(decoded.length, samples.length, `${decoded.length} samples decoded of ${samples.length}`)
      if (samples.length < 8000) continue
      const loudness = rms(decoded) / rms(samples)
      assert.ok(loudness > 0.8 && loudness < 1.2, `loudness kept: ${loudness.toFixed(2)}`)
    }
  })

  it('libopus reads a long call a few seconds at a time: the memory it takes does not grow with the call', async () => {
    // half an hour of speech (29 MB), encoded in a process of its own that says how much its resident memory grew
    const second = Buffer.from(voice(1).buffer)
    const from = join(dir, 'long.wav')
    writeFileSync(from, asteriskWav(new Int16Array(0)).subarray(0, 44))
    for (let s = 0; s < 1800; s++) appendFileSync(from, second)
    const header = Buffer.alloc(8)
    header.writeUInt32LE(36 + 1800 * second.length, 0)
    header.writeUInt32LE(1800 * second.length, 4)
    const fd = openSync(from, 'r+')
    writeSync(fd, header, 0, 4, 4)
    writeSync(fd, header, 4, 4, 40)
    closeSync(fd)
    const small = file('warm.wav', asteriskWav(voice(2)))
    // a short call first, so the binding and the code are loaded before the measure
    const script = `
      const { createLibopusEncoder } = await import(${JSON.stringify(moduleUrl('src/integrations/recordings/index.ts'))})
      const [warm, long] = process.argv.slice(-2)
      const encoder = createLibopusEncoder()
      await encoder.compress(warm, warm + '.opus')
      // garbage collected as it is made (the encoder yields to the loop): what grows is what the encoder holds
      const collecting = setInterval(() => gc(), 20)
      gc()
      const before = process.resourceUsage().maxRSS
      const { seconds } = await encoder.compress(long, long + '.opus')
      clearInterval(collecting)
      console.log(JSON.stringify({ seconds, grewKb: process.resourceUsage().maxRSS - before }))`
    const measured = JSON.parse(execFileSync(process.execPath, ['--expose-gc', ...NODE_FLAGS, '--input-type=module', '-e', script, small, from], { encoding: 'utf8', timeout: 120_000 }))
    assert.equal(measured.seconds, 1800)
    const sourceKb = statSync(from).size / 1024
    // reading the whole call would hold at least the source (27 MB) and its samples; the allocator's own slack
    // has measured 2-7 MB from one machine to the next, so the bound sits at half the source
    assert.ok(measured.grewKb < sourceKb / 2, `resident memory grew ${Math.round(measured.grewKb / 1024)} MB for a ${Math.round(sourceKb / 1024)} MB recording`)
  })

  it('an opusenc that hangs is stopped at its time limit and the compression fails, nothing left behind', async () => {
    const hanging = file('hanging-opusenc', Buffer.from('#!/bin/sh\nexec sleep 600\n'))
    execFileSync('chmod', ['+x', hanging])
    const closed = file('call-hang.wav', asteriskWav(voice(1)))
    const started = Date.now()
    await assert.rejects(createOpusToolsEncoder({ encoder: hanging, baseTimeoutMs: 500 }).compress(closed, join(dir, 'call-hang.ogg')), /ran past 1\.5 s and was stopped/)
    assert.ok(Date.now() - started < 60_000, 'stopped long before the sleep ends')
    assert.ok(!existsSync(join(dir, 'call-hang.ogg')) && !existsSync(join(dir, 'call-hang.ogg.partial')))
  })

  it('a page that fails its CRC, a stream cut short or not Opus is refused when read back; a WAV libopus cannot take is refused, nothing left behind', async () => {
    const to = join(dir, 'crc.opus')
    await createLibopusEncoder().compress(file('crc.wav', asteriskWav(voice(3))), to)
    const ogg = readFileSync(to)
    const flipped = Buffer.from(ogg)
    flipped[flipped.length - 10]! ^= 0xff
    assert.throws(() => readOggOpus(flipped), /fails its CRC/)
    assert.throws(() => readOggOpus(ogg.subarray(0, ogg.length - 7)), /runs past the end/)
    assert.throws(() => readOggOpus(Buffer.from('OggS is not enough')), /Ogg|past the end/)
    // 11025 Hz is no rate of Opus's: refused (the takeover keeps the raw file), no partial file left
    const odd = asteriskWav(voice(1))
    odd.writeUInt32LE(11_025, 24)
    const refused = join(dir, 'odd.opus')
    await assert.rejects(createLibopusEncoder().compress(file('odd.wav', odd), refused), /Opus rate expected/)
    await assert.rejects(createLibopusEncoder().compress(file('open-lib.wav', asteriskWav(voice(1), { closed: false })), refused), /not a finished PCM WAV/)
    assert.ok(!existsSync(refused) && !existsSync(`${refused}.partial`))
  })

  it('the first encoder that runs here is used: libopus, else opus-tools; none, and compressing fails', async () => {
    const none = { probe: async () => undefined, compress: async () => { throw new Error('unreachable') } }
    assert.match(await firstEncoder(none, createLibopusEncoder()).probe() ?? '', /libopus/)
    const chosen = firstEncoder(createOpusToolsEncoder({ encoder: 'no-such-opusenc' }), none)
    assert.equal(await chosen.probe(), undefined)
    await assert.rejects(chosen.compress(file('none.wav', asteriskWav(voice(1))), join(dir, 'none.opus')), /no encoder runs here/)
  })
})
