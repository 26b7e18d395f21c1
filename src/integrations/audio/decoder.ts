// What a decoder of uploaded sound files is asked and gives back. An upload is untrusted: the
// decoder is told what the service recognised it as and reads that file and nothing else.

/**
 * The containers an upload may be, each with the one FFmpeg demuxer that reads it. No playlist,
 * manifest, concatenation, SDP or image demuxer is ever named: those read other files or the network.
 */
export const AUDIO_DEMUXERS = { wav: 'wav', mp3: 'mp3', ogg: 'ogg', mp4: 'mov', flac: 'flac', webm: 'matroska', aiff: 'aiff', amr: 'amr' } as const
export type AudioContainer = keyof typeof AUDIO_DEMUXERS

/** what a decoder read and what it gives back */
export interface DecodedFile {
  /** a WAV of 16-bit PCM, mono, at the rate asked for */
  wav: Buffer
  /** the source as the decoder names it: its codec, sample rate and channel count (when said) */
  source: { codec: string, sampleRate?: number, channels?: number }
}

export interface DecodeRequest {
  /** what the service recognised the file as: the decoder reads it as that and nothing else */
  format: AudioContainer
  /** at most this much of the sound is decoded */
  maxSeconds: number
  /** the rate the sound comes back at, whatever the source's (a source at 384 kHz costs no more than one at 16) */
  sampleRate: number
}

export class UndecodableError extends Error {}

export interface AudioDecoder {
  /** what decodes here, or undefined when nothing does (the service then takes plain PCM WAV only) */
  probe: () => Promise<string | undefined>
  /** the file's first audio stream; UndecodableError when it holds none the decoder reads as the format named, or takes too long */
  decode: (file: Buffer, request: DecodeRequest) => Promise<DecodedFile>
}
