import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { writeChecked } from './checked-output.js'
import type { AudioEncoder, CompressedRecording } from './index.js'
import { oggOpus, readOggOpus } from './ogg-opus.js'
import { readWavHeader } from './wav.js'

/** libopus as @discordjs/opus binds it (N-API, built from its bundled libopus when the service is installed) */
interface OpusCodec {
  encode: (pcm: Buffer) => Buffer
  decode: (packet: Buffer) => Buffer
  setBitrate: (bitsPerSecond: number) => void
  applyEncoderCTL: (ctl: number, value: number) => void
}
type OpusBinding = { OpusEncoder: new (rate: number, channels: number) => OpusCodec }

// libopus's requests (opus_defines.h)
const OPUS_SET_APPLICATION = 4000
const OPUS_APPLICATION_VOIP = 2048
const OPUS_SET_VBR = 4006
const OPUS_SET_COMPLEXITY = 4010
const OPUS_SET_SIGNAL = 4024
const OPUS_SIGNAL_VOICE = 3001

/** the rates Opus encodes natively: no resampling */
const OPUS_RATES = new Set([8000, 12_000, 16_000, 24_000, 48_000])
const FRAME_MS = 60
/** libopus's look-ahead at 48 kHz (2.5 ms + 4 ms of delay compensation): the decoder's first samples to drop */
const PRE_SKIP_48K = 312
/** the frames encoded between two yields to the event loop (about 10 ms of a core) */
const FRAMES_PER_TURN = 100
/** a decoded recording may differ from its source by less than this (one frame) */
const LENGTH_TOLERANCE_SECONDS = FRAME_MS / 1000

let binding: OpusBinding | undefined | null
function opusBinding (): OpusBinding | undefined {
  if (binding === undefined) {
    try { binding = createRequire(import.meta.url)('@discordjs/opus') as OpusBinding } catch { binding = null }
  }
  return binding ?? undefined
}

/**
 * Ogg/Opus with libopus in the service's own process (its N-API binding, @discordjs/opus), at the
 * recording's own rate (8 kHz from MixMonitor: no resampling, which is where opusenc spends most of
 * its time): constant 12 kbit/s in 60 ms frames, complexity 0, tuned for voice. The frames are
 * encoded a hundred at a time between turns of the event loop, muxed into Ogg here (ogg-opus.ts),
 * written under a temporary name, read back (every page's CRC) and decoded to check its length.
 */
export function createLibopusEncoder ({ bitrateKbps = 12 }: { bitrateKbps?: number } = {}): AudioEncoder {
  return {
    async probe () { return opusBinding() ? 'libopus (@discordjs/opus)' : undefined },

    async compress (from: string, to: string): Promise<CompressedRecording> {
      const opus = opusBinding()
      if (!opus) throw new Error('libopus (@discordjs/opus) is not installed')
      const source = await readWavHeader(from)
      if (!source?.closed) throw new Error(`${from}: not a finished PCM WAV`)
      if (source.channels !== 1 || source.bitsPerSample !== 16 || !OPUS_RATES.has(source.sampleRate)) {
        throw new Error(`${from}: ${source.channels} channels of ${source.bitsPerSample}-bit samples at ${source.sampleRate} Hz; mono 16-bit at an Opus rate expected`)
      }
      const rate = source.sampleRate
      const pcm = (await readFile(from)).subarray(44, 44 + source.dataBytes - (source.dataBytes % 2))
      const samples = pcm.length / 2
      const perFrame = rate * FRAME_MS / 1000
      const toRate = 48_000 / rate
      const encoder = new opus.OpusEncoder(rate, 1)
      encoder.applyEncoderCTL(OPUS_SET_APPLICATION, OPUS_APPLICATION_VOIP)
      encoder.applyEncoderCTL(OPUS_SET_SIGNAL, OPUS_SIGNAL_VOICE)
      encoder.applyEncoderCTL(OPUS_SET_VBR, 0)
      encoder.applyEncoderCTL(OPUS_SET_COMPLEXITY, 0)
      encoder.setBitrate(bitrateKbps * 1000)
      // enough frames for the source and the encoder's look-ahead, the last padded with silence
      const frames = Math.ceil((samples + PRE_SKIP_48K / toRate) / perFrame)
      const padded = Buffer.alloc(frames * perFrame * 2)
      pcm.copy(padded)
      const packets: Buffer[] = []
      for (let f = 0; f < frames; f++) {
        packets.push(Buffer.from(encoder.encode(padded.subarray(f * perFrame * 2, (f + 1) * perFrame * 2))))
        if ((f + 1) % FRAMES_PER_TURN === 0) await yieldToLoop()
      }
      return writeChecked({
        from, to, sourceSeconds: source.seconds, tolerance: LENGTH_TOLERANCE_SECONDS,
        write: (partial) => writeFile(partial, oggOpus({ packets, frameSamples48k: perFrame * toRate, preSkip: PRE_SKIP_48K, samples48k: samples * toRate, inputRate: rate, vendor: 'libopus (appeals service)', serial: (Date.now() & 0x7fffffff) >>> 0 })),
        decodedSeconds: (partial) => decodedSeconds(opus, partial, rate),
      })
    },
  }
}

/** the file as written, read back and decoded: the seconds it plays (its pre-skip and end trimming applied) */
async function decodedSeconds (opus: OpusBinding, path: string, rate: number): Promise<number> {
  const stream = readOggOpus(await readFile(path))
  const decoder = new opus.OpusEncoder(rate, 1)
  let decoded = 0
  for (const [i, packet] of stream.packets.entries()) {
    decoded += decoder.decode(packet).length / 2
    if ((i + 1) % FRAMES_PER_TURN === 0) await yieldToLoop()
  }
  const toRate = 48_000 / rate
  const trimmed = Math.min(decoded - stream.preSkip / toRate, Number(stream.lastGranule - BigInt(stream.preSkip)) / toRate)
  return trimmed / rate
}
