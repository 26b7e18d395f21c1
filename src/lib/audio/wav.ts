// What Asterisk plays as a prompt: a RIFF/WAVE file of 16-bit mono PCM at 8 kHz (Asterisk's `wav`)
// or 16 kHz (its `wav16`). Anything else is refused here, with what it is and what is accepted,
// rather than played as noise on the line. What is accepted is kept with a canonical 44-byte header
// (format tag 1, the data's true size, no other chunk): Asterisk's format_wav refuses any format
// tag but 1 (WAVE_FORMAT_EXTENSIBLE is 0xFFFE) and trusts the data size it reads.

export const ACCEPTED_WAV = 'a WAV file (RIFF/WAVE) of 16-bit PCM, mono, at 8000 or 16000 Hz'
export const SAMPLE_RATES = [8000, 16_000] as const

export interface WavInfo {
  sampleRate: typeof SAMPLE_RATES[number]
  durationMs: number
  /** the samples: the data chunk's bytes present in the file, to a whole sample */
  pcm: Buffer
}

/** why a file is refused, for a client to say in its own language (the 422's `type`) */
/** `wav_lies`: a rate no sound has, or samples that are not numbers */
export type WavProblem = 'wav_not_wav' | 'wav_no_format' | 'wav_format' | 'wav_no_sound' | 'wav_lies'
/** what the file's format chunk says (the 422's `ctx.found` for `wav_format`) */
export interface WavFound { pcm: boolean, audio_format: number, bits: number, channels: number, sample_rate: number }

export class WavError extends Error {
  constructor (readonly problem: WavProblem, message: string, readonly found?: WavFound) { super(message) }
}

const PCM = 1
const EXTENSIBLE = 0xfffe
// the KSDATAFORMAT_SUBTYPE_PCM GUID's first two bytes, as WAVE_FORMAT_EXTENSIBLE carries them
const PCM_SUBTYPE = 0x0001

const FLOAT = 3
const FLOAT_SUBTYPE = 0x0003

interface WavLayout { tag: number, channels: number, rate: number, bits: number, data?: Buffer }

/** the format chunk (an extensible one read as its subtype) and the data chunk's bytes present in the file */
function wavLayout (bytes: Uint8Array): WavLayout {
  // a database's bytea may come back as a plain Uint8Array
  const file = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (!isWav(file)) throw new WavError('wav_not_wav', `Not a WAV file: ${ACCEPTED_WAV} is accepted`)
  let format: Omit<WavLayout, 'data'> | undefined
  let data: Buffer | undefined
  for (let at = 12; at + 8 <= file.length;) {
    const id = file.toString('latin1', at, at + 4)
    const size = file.readUInt32LE(at + 4)
    const body = at + 8
    if (id === 'fmt ' && size >= 16 && body + 16 <= file.length) {
      const tag = file.readUInt16LE(body)
      const subtype = tag === EXTENSIBLE && size >= 40 && body + 26 <= file.length ? file.readUInt16LE(body + 24) : undefined
      format = { tag: subtype === PCM_SUBTYPE ? PCM : subtype === FLOAT_SUBTYPE ? FLOAT : tag, channels: file.readUInt16LE(body + 2), rate: file.readUInt32LE(body + 4), bits: file.readUInt16LE(body + 14) }
    } else if (id === 'data') {
      // a recorder (or a pipe) that did not know the length writes 0 or 0xFFFFFFFF: the rest of the file is the data
      const length = size === 0 || size === 0xffffffff ? file.length - body : Math.min(size, file.length - body)
      data = file.subarray(body, body + length)
      break
    }
    at = body + size + (size % 2)
  }
  if (!format) throw new WavError('wav_no_format', `The WAV file has no format chunk: ${ACCEPTED_WAV} is accepted`)
  return { ...format, data }
}

export const isWav = (file: Buffer): boolean => file.length >= 12 && file.toString('latin1', 0, 4) === 'RIFF' && file.toString('latin1', 8, 12) === 'WAVE'

/** the format of a WAV file Asterisk plays as it is, or a WavError saying what the file is and what is accepted */
export function readWav (bytes: Uint8Array): WavInfo {
  const format = wavLayout(bytes)
  const found = `${format.tag === PCM ? `${format.bits}-bit PCM` : `audio format ${format.tag} (not PCM)`}, ${format.channels === 1 ? 'mono' : `${format.channels} channels`}, ${format.rate} Hz`
  if (format.tag !== PCM || format.bits !== 16 || format.channels !== 1 || !(SAMPLE_RATES as readonly number[]).includes(format.rate)) {
    throw new WavError('wav_format', `The file is ${found}: ${ACCEPTED_WAV} is accepted`,
      { pcm: format.tag === PCM, audio_format: format.tag, bits: format.bits, channels: format.channels, sample_rate: format.rate })
  }
  if (format.data === undefined || format.data.length < 2) throw new WavError('wav_no_sound', `The WAV file holds no sound: ${ACCEPTED_WAV} is accepted`)
  const samples = Math.floor(format.data.length / 2)
  return { sampleRate: format.rate as WavInfo['sampleRate'], durationMs: Math.round(samples / format.rate * 1000), pcm: format.data.subarray(0, samples * 2) }
}

/** sound as numbers from -1 to 1, its channels mixed into one */
export interface DecodedSound { sampleRate: number, channels: number, mono: Float32Array }

/** the sample rates a sound file may claim: below, it is no speech; above, no recorder makes it */
export const MIN_SOURCE_RATE = 4000
export const MAX_SOURCE_RATE = 384_000

const SAMPLE_READERS: Record<string, (data: Buffer, at: number) => number> = {
  [`${PCM}:8`]: (d, at) => (d[at]! - 128) / 128,
  [`${PCM}:16`]: (d, at) => d.readInt16LE(at) / 32768,
  [`${PCM}:24`]: (d, at) => d.readIntLE(at, 3) / 8388608,
  [`${PCM}:32`]: (d, at) => d.readInt32LE(at) / 2147483648,
  [`${FLOAT}:32`]: (d, at) => d.readFloatLE(at),
  [`${FLOAT}:64`]: (d, at) => d.readDoubleLE(at),
}

/**
 * The samples of a WAV file of linear PCM (8, 16, 24 or 32 bits) or IEEE float (32, 64), any rate
 * from 4 to 384 kHz and any channel count, mixed to mono as they are read and at most `maxSeconds`
 * of them; undefined for another coding inside a WAV (A-law, ADPCM, GSM...), which a decoder of the
 * outside reads. A rate out of range or a sample that is no number (a float WAV may hold NaN or
 * infinity) is a WavError: the file lies about what it is.
 */
export function decodeWav (bytes: Uint8Array, maxSeconds = Infinity): DecodedSound | undefined {
  const format = wavLayout(bytes)
  const read = SAMPLE_READERS[`${format.tag}:${format.bits}`]
  if (!read || format.channels < 1) return undefined
  if (format.rate < MIN_SOURCE_RATE || format.rate > MAX_SOURCE_RATE) {
    throw new WavError('wav_lies', `The file says its sound has ${format.rate} samples a second: a sound file has ${MIN_SOURCE_RATE} to ${MAX_SOURCE_RATE}`)
  }
  const data = format.data ?? Buffer.alloc(0)
  const width = format.bits / 8
  const frames = Math.min(Math.floor(data.length / (width * format.channels)), Math.ceil(maxSeconds * format.rate))
  const mono = new Float32Array(frames)
  for (let i = 0, at = 0; i < frames; i++) {
    let sum = 0
    for (let c = 0; c < format.channels; c++, at += width) sum += read(data, at)
    // as it is kept (32-bit float): a 64-bit sample past 3.4e38 is no number there
    const sample = Math.fround(sum / format.channels)
    if (!Number.isFinite(sample)) throw new WavError('wav_lies', `The file holds a sample that is not a number (${sample}) at ${(i / format.rate).toFixed(3)} s`)
    mono[i] = sample
  }
  return { sampleRate: format.rate, channels: format.channels, mono }
}

/** 16-bit mono PCM behind the canonical 44-byte header */
function pcmWav (sampleRate: number, data: Buffer, { channels = 1, bits = 16, tag = PCM } = {}): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8, 'latin1')
  header.write('fmt ', 12, 'latin1')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(tag, 20)
  header.writeUInt16LE(channels, 22)
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * channels * bits / 8, 28)
  header.writeUInt16LE(channels * bits / 8, 32)
  header.writeUInt16LE(bits, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/** an accepted file as it is kept and played: its samples behind the canonical header */
export const canonicalWav = (info: WavInfo): Buffer => pcmWav(info.sampleRate, info.pcm)

/** a WAV file holding `samples` with the canonical header, or another format's (tests and tools) */
export const makeWav = (sampleRate: number, samples: Int16Array, format: { channels?: number, bits?: number, tag?: number } = {}): Buffer =>
  pcmWav(sampleRate, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength), format)
