// Sound as the service handles it: WAV read and written in memory (prompts), the header of a WAV file
// on disk (recordings), and resampling to the line's rate.
export * from './wav.js'
export { readWavHeader, repairWavHeader, WAV_HEADER_BYTES, type WavHeader } from './wav-file.js'
export { resample } from './resampler.js'
