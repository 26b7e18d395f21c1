import { open, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { writeChecked } from './checked-output.js'
import type { AudioEncoder, CompressedRecording } from './types.js'
import { lastGranuleOf, oggOpusWriter, openOggOpus } from './ogg-opus.js'
import { readWavHeader, WAV_HEADER_BYTES } from '../../lib/audio/index.js'

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
      const pcmBytes = source.dataBytes - (source.dataBytes % 2)
      const samples = pcmBytes / 2
      const perFrame = rate * FRAME_MS / 1000
      const toRate = 48_000 / rate
      const encoder = new opus.OpusEncoder(rate, 1)
      encoder.applyEncoderCTL(OPUS_SET_APPLICATION, OPUS_APPLICATION_VOIP)
      encoder.applyEncoderCTL(OPUS_SET_SIGNAL, OPUS_SIGNAL_VOICE)
      encoder.applyEncoderCTL(OPUS_SET_VBR, 0)
      encoder.applyEncoderCTL(OPUS_SET_COMPLEXITY, 0)
      encoder.setBitrate(bitrateKbps * 1000)
      // enough frames for the source and the encoder's look-ahead, the last padded with silence;
      // read a turn's frames at a time, so memory does not grow with the call's length
      const frames = Math.ceil((samples + PRE_SKIP_48K / toRate) / perFrame)
      const frameBytes = perFrame * 2
      const turn = Buffer.alloc(FRAMES_PER_TURN * frameBytes)
      return writeChecked({
        from, to, sourceSeconds: source.seconds, tolerance: LENGTH_TOLERANCE_SECONDS,
        async write (partial) {
          const ogg = oggOpusWriter({ frameSamples48k: perFrame * toRate, preSkip: PRE_SKIP_48K, samples48k: samples * toRate, inputRate: rate, vendor: 'libopus (appeals service)', serial: (Date.now() & 0x7fffffff) >>> 0 })
          const [input, output] = [await open(from, 'r'), await open(partial, 'w')]
          try {
            await output.write(ogg.head())
            for (let first = 0; first < frames; first += FRAMES_PER_TURN) {
              const offset = first * frameBytes
              const wanted = Math.max(0, Math.min(turn.length, pcmBytes - offset))
              const { bytesRead } = wanted > 0 ? await input.read(turn, 0, wanted, WAV_HEADER_BYTES + offset) : { bytesRead: 0 }
              turn.fill(0, bytesRead)
              const pages: Buffer[] = []
              for (let f = first; f < Math.min(frames, first + FRAMES_PER_TURN); f++) {
                const at = (f - first) * frameBytes
                const full = ogg.add(Buffer.from(encoder.encode(turn.subarray(at, at + frameBytes))))
                if (full) pages.push(full)
              }
              if (pages.length > 0) await output.write(Buffer.concat(pages))
            }
            await output.write(ogg.end())
          } finally {
            await Promise.all([input.close(), output.close()])
          }
        },
        decodedSeconds: (partial) => decodedSeconds(opus, partial, rate),
      })
    },
  }
}

/** the file as written, read back and decoded: the seconds it plays (its pre-skip and end trimming applied) */
async function decodedSeconds (opus: OpusBinding, path: string, rate: number): Promise<number> {
  const bytes = await readFile(path)
  const stream = openOggOpus(bytes)
  const decoder = new opus.OpusEncoder(rate, 1)
  let decoded = 0
  let count = 0
  for (const packet of stream.audio) {
    decoded += decoder.decode(packet).length / 2
    if (++count % FRAMES_PER_TURN === 0) await yieldToLoop()
  }
  const toRate = 48_000 / rate
  const trimmed = Math.min(decoded - stream.preSkip / toRate, Number(lastGranuleOf(bytes) - BigInt(stream.preSkip)) / toRate)
  return trimmed / rate
}
