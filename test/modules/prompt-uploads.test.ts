// An uploaded prompt is untrusted (DESIGN "Untrusted input"): FFmpeg reads it as the format the
// service recognised and nothing else, within a time, a rate and a size; a file that lies about
// itself is a 422; a burst of uploads meets a bound, not an exhausted process.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createFfmpegDecoder, type AudioDecoder } from '../../src/integrations/audio/index.js'
import { makeWav } from '../../src/lib/audio/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const haveFfmpeg = await createFfmpegDecoder().probe() !== undefined
const NO_FFMPEG = 'ffmpeg is not installed (apt-get install ffmpeg): the hostile files meant for it are not tried'

type Headers = Record<string, string>
interface Problem { loc: (string | number)[], msg: string, type: string, ctx?: Record<string, unknown> }

/** an ID3v2 tag with nothing in it: what makes a file "MP3" to a sniffer, and what FFmpeg skips */
const ID3 = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0])
const behindId3 = (text: string) => Buffer.concat([ID3, Buffer.from(text, 'utf8')])

/** a WAV header claiming what the caller says, with `data` behind it */
function lyingWav (format: { tag: number, channels: number, rate: number, bits: number }, data: Buffer): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVEfmt ', 8, 'latin1')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(format.tag, 20)
  header.writeUInt16LE(format.channels, 22)
  header.writeUInt32LE(format.rate, 24)
  header.writeUInt32LE(format.rate * format.channels * format.bits / 8 >>> 0, 28)
  header.writeUInt16LE(format.channels * format.bits / 8, 32)
  header.writeUInt16LE(format.bits, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}
const floats32 = (values: number[]) => Buffer.from(Float32Array.from(values).buffer)

/** a second of a 440 Hz tone at 16 kHz */
const tone = () => makeWav(16_000, Int16Array.from({ length: 16_000 }, (_, i) => Math.round(8000 * Math.sin(2 * Math.PI * 440 * i / 16_000))))

describe('prompt uploads are untrusted: read as what they are, bounded in time, memory and number', () => {
  let t: TestApp
  let admin: Headers
  let manager: Headers
  let org: { id: number, prefix: string }
  const dir = mkdtempSync(join(tmpdir(), 'prompt-uploads-'))
  const recordingsDir = join(dir, 'recordings')
  /** another organization's kept recording, where the service keeps them */
  const secret = join(recordingsDir, 'kept', '2026-12-01', 'org202-1764567890.42.ogg')
  const secretWav = join(recordingsDir, 'kept', '2026-12-01', 'org202-1764567890.43.wav')

  before(async () => {
    mkdirSync(join(recordingsDir, 'kept', '2026-12-01'), { recursive: true })
    writeFileSync(secretWav, tone())
    if (haveFfmpeg) execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', secretWav, '-c:a', 'libopus', secret])
    t = await buildTestApp({ env: { RECORDINGS_DIR: recordingsDir } })
    const db = t.database.db
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    org = await makeOrganization(db, { prefix: '101' })
    await makeOrganization(db, { prefix: '202' })
    manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const newPrompt = async (app = t.app, headers = admin) => {
    const res = await app.inject({ method: 'POST', url: `/api/organizations/${org.id}/prompts`, headers, payload: { name: `Проба ${Math.random()}` } })
    assert.equal(res.statusCode, 201, res.body)
    return res.json().id as number
  }
  const upload = (id: number, file: Buffer, { app = t.app, headers = manager, type = 'audio/mpeg' } = {}) =>
    app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/prompts/${id}/recordings/ru`, headers: { ...headers, 'content-type': type }, payload: file })
  const kept = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/organizations/${org.id}/prompts/${id}/recordings/ru`, headers: manager })).statusCode

  it('a playlist, a manifest or a concatenation behind an ID3 tag naming another organization\'s recording is refused, and nothing of it is kept', { skip: !haveFfmpeg && NO_FFMPEG }, async () => {
    // before the fix, FFmpeg probed past the tag, found the playlist and played the recording back: 200, {codec: opus}
    const probes: [string, Buffer][] = [
      ['an HLS playlist', behindId3(`#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:1.0,\n${secret}\n#EXT-X-ENDLIST\n`)],
      ['an HLS playlist with a file: URL', behindId3(`#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1.0,\nfile:${secretWav}\n#EXT-X-ENDLIST\n`)],
      ['a DASH manifest', behindId3(`<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period><AdaptationSet mimeType="audio/ogg"><Representation id="a" bandwidth="16000"><BaseURL>${secret}</BaseURL></Representation></AdaptationSet></Period></MPD>\n`)],
      ['an ffconcat list', behindId3(`ffconcat version 1.0\nfile '${secretWav}'\n`)],
      ['an SDP description', behindId3('v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 5004 RTP/AVP 0\n')],
    ]
    for (const [name, file] of probes) {
      const id = await newPrompt()
      const res = await upload(id, file)
      assert.equal(res.statusCode, 422, `${name}: ${res.statusCode} ${res.body}`)
      const [problem] = res.json().detail as Problem[]
      assert.equal(problem!.type, 'audio_unreadable', name)
      assert.deepEqual(problem!.ctx, { format: 'mp3' }, name)
      assert.equal(await kept(id), 404, `${name}: nothing kept`)
    }
  })

  it('a decompression bomb (10 minutes of FLAC at 384 kHz in a few kB) is answered within seconds, holding less than 100 MB (decoded as sent, it would be 460 MB)', { skip: !haveFfmpeg && NO_FFMPEG }, async () => {
    const bombPath = join(dir, 'bomb.flac')
    // a constant level compresses to almost nothing at any rate
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'aevalsrc=0.25:s=384000:c=mono', '-t', '600', '-c:a', 'flac', '-sample_fmt', 's16', bombPath])
    const bomb = readFileSync(bombPath)
    assert.ok(bomb.length < 400_000, `the bomb is ${bomb.length} bytes`)
    const id = await newPrompt()
    // what the process holds (its heap and its buffers), not its RSS: pages the allocator keeps from
    // the tests before are no part of this answer's cost
    const held = () => { const m = process.memoryUsage(); return m.heapUsed + m.external }
    global.gc?.()
    const idle = held()
    let peak = idle
    const sampler = setInterval(() => { peak = Math.max(peak, held()) }, 5)
    const started = performance.now()
    const res = await upload(id, bomb, { type: 'audio/flac' })
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    peak = Math.max(peak, held())
    // it is decoded at 16 kHz for at most 240 s, and then is longer than a prompt may be
    assert.equal(res.statusCode, 422, res.body)
    assert.equal((res.json().detail as Problem[])[0]!.type, 'audio_too_long')
    const grewMb = (peak - idle) / 1024 / 1024
    // 240 s at 16 kHz is 8 MB of PCM and 15 MB of samples, and as much again of the pipe's chunks
    // until the collector runs; the bomb decoded at its own rate would be 460 MB of PCM alone
    assert.ok(grewMb < 100, `the process grew by ${grewMb.toFixed(1)} MB decoding the bomb`)
    console.log(`# the bomb: answered in ${seconds.toFixed(2)} s, the process grew by ${grewMb.toFixed(1)} MB`)
    // the decoder is killed at AUDIO_DECODE_TIMEOUT (15 s): this bounds the answer whatever the machine's load
    assert.ok(seconds < 30, `answered after ${seconds.toFixed(1)} s`)
    assert.equal(await kept(id), 404)
  })

  it('WAVs that lie about themselves are 422, never 500: a rate of 1 Hz or 0, samples that are no numbers, a rate past any recorder', async () => {
    const id = await newPrompt()
    const cases: [string, Buffer][] = [
      ['32-bit float at 1 Hz', lyingWav({ tag: 3, channels: 1, rate: 1, bits: 32 }, floats32([0.5, -0.5, 0.25, 0.1]))],
      ['32-bit float at 1 Hz, a second of it', lyingWav({ tag: 3, channels: 1, rate: 1, bits: 32 }, floats32(Array.from({ length: 16_000 }, (_, i) => Math.sin(i))))],
      ['16-bit PCM at 0 Hz', lyingWav({ tag: 1, channels: 1, rate: 0, bits: 16 }, Buffer.alloc(32_000, 7))],
      ['16-bit PCM at 4 GHz', lyingWav({ tag: 1, channels: 1, rate: 0xffffffff, bits: 16 }, Buffer.alloc(32_000, 7))],
      ['32-bit float holding NaN', lyingWav({ tag: 3, channels: 1, rate: 16_000, bits: 32 }, floats32(Array.from({ length: 16_000 }, (_, i) => i === 8000 ? Number.NaN : 0.3 * Math.sin(i / 5))))],
      ['64-bit float holding infinity', lyingWav({ tag: 3, channels: 2, rate: 8000, bits: 64 }, Buffer.from(Float64Array.from({ length: 16_000 }, (_, i) => i === 99 ? Infinity : 0.3 * Math.sin(i / 5)).buffer))],
    ]
    for (const [name, file] of cases) {
      const res = await upload(id, file, { type: 'audio/wav' })
      assert.equal(res.statusCode, 422, `${name}: ${res.statusCode} ${res.body}`)
      const [problem] = res.json().detail as Problem[]
      assert.equal(problem!.type, 'audio_unreadable', name)
      assert.deepEqual(problem!.loc, ['body'], name)
      assert.match(problem!.msg, /samples a second|not a number/, name)
    }
    assert.equal(await kept(id), 404)
    // samples far past full scale are numbers: brought down to the prompts' level, not refused
    const loud = await upload(id, lyingWav({ tag: 3, channels: 1, rate: 16_000, bits: 32 }, floats32(Array.from({ length: 16_000 }, (_, i) => 3e38 * Math.sin(i / 5)))), { type: 'audio/wav' })
    assert.equal(loud.statusCode, 200, loud.body)
  })

  it('a decoder that hangs is killed at AUDIO_DECODE_TIMEOUT and the file refused; the next upload is served', async () => {
    const hanging = join(dir, 'hanging-ffmpeg')
    writeFileSync(hanging, '#!/bin/sh\nfor a in "$@"; do [ "$a" = -version ] && { echo "ffmpeg version 0-hangs"; exit 0; }; done\nexec sleep 120\n')
    chmodSync(hanging, 0o755)
    // the service's own decoder, built from its configuration, finds this "ffmpeg" first on the PATH
    const path = process.env.PATH
    process.env.PATH = `${dir}:${path}`
    renameSync(hanging, join(dir, 'ffmpeg'))
    const slow = await buildTestApp({ database: t.database, env: { RECORDINGS_DIR: recordingsDir, AUDIO_DECODE_TIMEOUT: '1s' } })
    try {
      const headers = await login(slow.app, await makeUser(t.database.db, { role: 'admin' }))
      const id = await newPrompt(slow.app, headers)
      const res = await upload(id, behindId3('\xff\xfb\x90\x00'), { app: slow.app, headers })
      assert.equal(res.statusCode, 422, res.body)
      assert.match((res.json().detail as Problem[])[0]!.msg, /took longer than 1 s/)
      const wav = await upload(id, tone(), { app: slow.app, headers, type: 'audio/wav' })
      assert.equal(wav.statusCode, 200, wav.body)
    } finally {
      process.env.PATH = path
      await slow.app.close()
    }
  })

  it('AUDIO_CONVERSIONS bounds the conversions at once: one more is 503 with Retry-After and changes nothing', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    let entered!: () => void
    const busy = new Promise<void>((resolve) => { entered = resolve })
    // a decoder of the outside that holds the first file until told (the bound is the service's, whatever the decoder)
    const holding: AudioDecoder = {
      probe: async () => 'holding decoder',
      async decode () {
        entered()
        await held
        throw new (await import('../../src/integrations/audio/index.js')).UndecodableError('held and let go')
      },
    }
    const bounded = await buildTestApp({ database: t.database, env: { RECORDINGS_DIR: recordingsDir, AUDIO_CONVERSIONS: '1' }, deps: { audioDecoder: holding } })
    try {
      const headers = await login(bounded.app, await makeUser(t.database.db, { role: 'admin' }))
      const [first, second] = [await newPrompt(bounded.app, headers), await newPrompt(bounded.app, headers)]
      const firstUpload = upload(first, behindId3('\xff\xfb\x90\x00'), { app: bounded.app, headers })
      await busy
      const refused = await upload(second, tone(), { app: bounded.app, headers, type: 'audio/wav' })
      assert.equal(refused.statusCode, 503, refused.body)
      assert.equal(refused.headers['retry-after'], '5')
      assert.match(refused.json().detail, /converted \(1 at once\)/)
      release()
      assert.equal((await firstUpload).statusCode, 422)
      const again = await upload(second, tone(), { app: bounded.app, headers, type: 'audio/wav' })
      assert.equal(again.statusCode, 200, again.body)
    } finally {
      release()
      await bounded.app.close()
    }
  })
})
