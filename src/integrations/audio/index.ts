// Decoding sound files people have (MP3, Ogg/Opus or Vorbis, M4A/AAC, FLAC, WAV of any coding)
// through a decoder of the outside; the service reads plain PCM WAV itself.

/** what a decoder read and what it gives back */
export interface DecodedFile {
  /** a WAV of 32-bit float samples, mono, at the source's own rate */
  wav: Buffer
  /** the source as the decoder names it: its codec, sample rate and channel count (when said) */
  source: { codec: string, sampleRate?: number, channels?: number }
}

export class UndecodableError extends Error {}

export interface AudioDecoder {
  /** what decodes here, or undefined when nothing does (the service then takes plain PCM WAV only) */
  probe: () => Promise<string | undefined>
  /** the file's first audio stream, at most `maxSeconds` of it; UndecodableError when it holds none the decoder reads */
  decode: (file: Buffer, maxSeconds: number) => Promise<DecodedFile>
}

export { createFfmpegDecoder } from './ffmpeg.js'
