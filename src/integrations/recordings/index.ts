// Call recordings: the raw WAVs Asterisk's MixMonitor writes, and their compression to Ogg/Opus.
export type { CompressedRecording, AudioEncoder } from './types.js'

export { createLibopusEncoder } from './libopus.js'
export { createOpusToolsEncoder } from './opus-tools.js'
export { readOggOpus } from './ogg-opus.js'

export { firstEncoder } from './first-encoder.js'
