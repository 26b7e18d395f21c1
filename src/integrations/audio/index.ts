// Decoding sound files people upload (MP3, Ogg/Opus or Vorbis, M4A/AAC, FLAC, WAV of any coding)
// through a decoder of the outside; the service reads plain PCM WAV itself.
export { AUDIO_DEMUXERS, UndecodableError, type AudioContainer, type AudioDecoder, type DecodedFile, type DecodeRequest } from './decoder.js'
export { createFfmpegDecoder } from './ffmpeg.js'
