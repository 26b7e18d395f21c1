// A prompt from the file someone has (a WAV of any rate and channels, an MP3, Ogg/Opus, M4A...)
// made into what Asterisk plays well: mono 16-bit PCM at 16 kHz (8 kHz when the source has no
// more), resampled band-limited, its leading and trailing silence trimmed and its speech brought to
// one level, so that prompts recorded in different rooms sound alike on the line.

import { UndecodableError, type AudioContainer, type AudioDecoder } from '../../integrations/audio/index.js'
import { ServiceUnavailableError } from '../../lib/errors.js'
import { createSlots } from '../../lib/slots.js'
import { decodeWav, isWav, makeWav, MAX_SOURCE_RATE, MIN_SOURCE_RATE, resample, WavError } from '../../lib/audio/index.js'

/** an upload's size at most */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024
/** a prompt's length at most, once trimmed: a prompt is not music on hold */
export const MAX_PROMPT_SECONDS = 180
/** what is accepted, for the API's description and its refusals */
export const ACCEPTED_AUDIO = 'WAV (any rate, channels and PCM or float samples), MP3, Ogg (Opus or Vorbis), M4A/AAC, FLAC or WebM'

/** the active speech's level after conversion (dBFS): loud and clear on a handset without clipping */
const TARGET_LEVEL_DB = -20
/** the loudest sample's level at most after conversion (dBFS) */
const PEAK_CEILING_DB = -1
/** a quiet file is raised at most this much: more would bring up its hiss as much as its words */
const MAX_GAIN_DB = 30
/** windows quieter than this, or than the loudest window less SILENCE_BELOW_LOUDEST_DB, are silence */
const SILENCE_FLOOR_DB = -50
const SILENCE_BELOW_LOUDEST_DB = 40
/** a file whose loudest window is below this holds no sound to speak of */
const NO_SOUND_DB = -60
const WINDOW_SECONDS = 0.01
/** kept around what is heard: the line needs a breath before the first word and after the last */
const LEAD_SECONDS = 0.1
const TAIL_SECONDS = 0.2

export type AudioProblem = 'audio_unknown_format' | 'audio_no_decoder' | 'audio_unreadable' | 'audio_no_sound' | 'audio_too_long'

export class AudioError extends Error {
  /** `ctx` is the 422's: what a client needs to say it in its own words */
  constructor (readonly problem: AudioProblem, message: string, readonly ctx?: Record<string, unknown>) { super(message) }
}

export type Container = AudioContainer

/** what a file is, from its first bytes (a browser's or a phone's Content-Type is not to be trusted) */
export function containerOf (file: Buffer): Container | undefined {
  const ascii = (from: number, to: number) => file.toString('latin1', from, to)
  if (isWav(file)) return 'wav'
  if (ascii(0, 4) === 'OggS') return 'ogg'
  if (ascii(0, 4) === 'fLaC') return 'flac'
  if (ascii(4, 8) === 'ftyp') return 'mp4'
  if (ascii(0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(8, 12))) return 'aiff'
  if (ascii(0, 5) === '#!AMR') return 'amr'
  if (file.length >= 4 && file.readUInt32BE(0) === 0x1a45dfa3) return 'webm'
  if (ascii(0, 3) === 'ID3' || (file.length >= 2 && file[0] === 0xff && (file[1]! & 0xe0) === 0xe0)) return 'mp3'
  return undefined
}

export interface ConvertedPrompt {
  /** 16-bit mono PCM behind the canonical header, at `sampleRate` */
  wav: Buffer
  sampleRate: 8000 | 16_000
  durationMs: number
  /** what was uploaded */
  source: { format: Container, codec: string, sample_rate: number, channels: number, duration_ms: number }
  /** the level change applied (dB) */
  gainDb: number
}

const db = (amplitude: number) => 20 * Math.log10(Math.max(amplitude, 1e-10))

/** a decoder outside gives the sound at this rate: what the service keeps at most */
const DECODED_RATE = 16_000
/** decoded at most: the longest prompt and room for the silence around it */
const DECODED_SECONDS = MAX_PROMPT_SECONDS + 60

/** the file's sound, mono, and what it was */
async function decode (file: Buffer, decoder: AudioDecoder): Promise<{ mono: Float32Array, sampleRate: number, source: Omit<ConvertedPrompt['source'], 'duration_ms'> }> {
  const format = containerOf(file)
  if (!format) throw new AudioError('audio_unknown_format', `The file is not a sound file this service knows: ${ACCEPTED_AUDIO} is accepted`)
  const unreadable = (reason: string) => new AudioError('audio_unreadable', `The ${format.toUpperCase()} file could not be read: ${reason}`, { format })
  try {
    const own = format === 'wav' ? decodeWav(file, DECODED_SECONDS) : undefined
    if (own) {
      if (own.mono.length === 0) throw new AudioError('audio_no_sound', 'The file holds no sound')
      return { mono: own.mono, sampleRate: own.sampleRate, source: { format, codec: 'pcm', sample_rate: own.sampleRate, channels: own.channels } }
    }
    if (await decoder.probe() === undefined) {
      throw new AudioError('audio_no_decoder', `A ${format.toUpperCase()} file needs a decoder (ffmpeg) this server does not have: a PCM WAV is accepted`, { format })
    }
    const decoded = await decoder.decode(file, { format, maxSeconds: DECODED_SECONDS, sampleRate: DECODED_RATE })
    const sound = decodeWav(decoded.wav, DECODED_SECONDS)
    if (!sound || sound.mono.length === 0) throw new AudioError('audio_no_sound', 'The file holds no sound')
    const { codec, sampleRate = DECODED_RATE, channels = 1 } = decoded.source
    if (sampleRate < MIN_SOURCE_RATE || sampleRate > MAX_SOURCE_RATE) throw unreadable(`its sound has ${sampleRate} samples a second: a sound file has ${MIN_SOURCE_RATE} to ${MAX_SOURCE_RATE}`)
    // a source below 16 kHz is kept at 8: decoded at 16, it is brought down below
    return { mono: sound.mono, sampleRate: sound.sampleRate, source: { format, codec, sample_rate: sampleRate, channels } }
  } catch (err) {
    if (err instanceof UndecodableError || (err instanceof WavError && (err.problem === 'wav_lies' || format !== 'wav'))) throw unreadable(err.message)
    throw err
  }
}

/** each window's RMS level (dBFS) */
function windowLevels (samples: Float32Array, window: number): Float64Array {
  const levels = new Float64Array(Math.ceil(samples.length / window))
  for (let w = 0; w < levels.length; w++) {
    let sum = 0
    const end = Math.min(samples.length, (w + 1) * window)
    for (let i = w * window; i < end; i++) sum += samples[i]! * samples[i]!
    levels[w] = db(Math.sqrt(sum / (end - w * window)))
  }
  return levels
}

/** the samples from a little before the first window heard to a little after the last, and the level change that brings the heard windows to the target */
function trimAndLevel (samples: Float32Array, sampleRate: number): { kept: Float32Array, gainDb: number } {
  const window = Math.round(sampleRate * WINDOW_SECONDS)
  const levels = windowLevels(samples, window)
  const loudest = levels.reduce((a, b) => Math.max(a, b), -Infinity)
  if (loudest < NO_SOUND_DB) throw new AudioError('audio_no_sound', `The file holds no sound: its loudest moment is ${Math.round(loudest)} dBFS`)
  const threshold = Math.max(SILENCE_FLOOR_DB, loudest - SILENCE_BELOW_LOUDEST_DB)
  const heard = [...levels.keys()].filter((w) => levels[w]! >= threshold)
  const from = Math.max(0, heard[0]! * window - Math.round(LEAD_SECONDS * sampleRate))
  const to = Math.min(samples.length, (heard.at(-1)! + 1) * window + Math.round(TAIL_SECONDS * sampleRate))
  const kept = samples.subarray(from, to)

  let power = 0
  for (const w of heard) power += 10 ** (levels[w]! / 10)
  const activeLevel = 10 * Math.log10(power / heard.length)
  let peak = 0
  for (const s of kept) peak = Math.max(peak, Math.abs(s))
  const gainDb = Math.min(TARGET_LEVEL_DB - activeLevel, PEAK_CEILING_DB - db(peak), MAX_GAIN_DB)
  return { kept, gainDb }
}

function toPcm16 (samples: Float32Array, gainDb: number): Int16Array {
  const gain = 10 ** (gainDb / 20)
  const out = new Int16Array(samples.length)
  for (let i = 0; i < samples.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i]! * gain * 32768)))
  return out
}

/** the uploaded file as the prompt Asterisk plays, or an AudioError saying why not */
export async function convertPrompt (file: Buffer, decoder: AudioDecoder): Promise<ConvertedPrompt> {
  const { mono, sampleRate: from, source } = await decode(file, decoder)
  const sampleRate = source.sample_rate >= 16_000 ? 16_000 : 8000
  // a sound decoded at the rate kept is used as it is (a copy of 240 s would be 15 MB more)
  const { kept, gainDb } = trimAndLevel(from === sampleRate ? mono : resample(mono, from, sampleRate), sampleRate)
  const durationMs = Math.round(kept.length / sampleRate * 1000)
  if (durationMs > MAX_PROMPT_SECONDS * 1000) {
    throw new AudioError('audio_too_long', `The sound lasts more than ${MAX_PROMPT_SECONDS} s once its silence is trimmed: a prompt may last ${MAX_PROMPT_SECONDS} s at most`, { max_seconds: MAX_PROMPT_SECONDS })
  }
  if (!Number.isFinite(gainDb)) throw new AudioError('audio_unreadable', `The ${source.format.toUpperCase()} file could not be read: its level is not a number`, { format: source.format })
  return {
    wav: makeWav(sampleRate, toPcm16(kept, gainDb)),
    sampleRate,
    durationMs,
    source: { ...source, duration_ms: Math.round(mono.length / from * 1000) },
    gainDb: Math.round(gainDb * 10) / 10,
  }
}

/** converts prompts, a bounded number at once in this instance (each may run a decoder and hold a few MB) */
export interface PromptConverter {
  /** `wait`: queue for a free slot (a recording by phone); otherwise a 503 with Retry-After when all are taken (an upload) */
  convert: (file: Buffer, options?: { wait?: boolean }) => Promise<ConvertedPrompt>
}

export function createPromptConverter (decoder: AudioDecoder, atOnce: number): PromptConverter {
  const slots = createSlots(atOnce, () => new ServiceUnavailableError(`Other sound files are being converted (${atOnce} at once): send this one again in a few seconds`, { retryAfterSeconds: 5 }))
  return { convert: (file, options) => slots.run(() => convertPrompt(file, decoder), options) }
}
