// Call recordings: the raw WAVs Asterisk's MixMonitor writes, and their compression to Ogg/Opus.

/** a recording compressed and checked */
export interface CompressedRecording {
  /** the length of the source, which its compressed form was decoded back to */
  seconds: number
}

/** Compresses a finished recording: libopus in the process (`./libopus.ts`), else Xiph's opus-tools (`./opus-tools.ts`). */
export interface AudioEncoder {
  /** what encodes, or undefined when it cannot run here (the raw WAVs are then kept as they are) */
  probe: () => Promise<string | undefined>
  /**
   * `from` (a finished PCM WAV) as Ogg/Opus at `to`, written under a temporary name, decoded again
   * and renamed only when it holds the source's length; nothing is left at `to` when it fails.
   */
  compress: (from: string, to: string) => Promise<CompressedRecording>
}

export { createLibopusEncoder } from './libopus.js'
export { createOpusToolsEncoder } from './opus-tools.js'
export { readOggOpus } from './ogg-opus.js'

/** the first of these that runs here, asked at each probe (one installed later is used) */
export function firstEncoder (...encoders: AudioEncoder[]): AudioEncoder {
  let chosen: AudioEncoder | undefined
  return {
    async probe () {
      for (const e of encoders) {
        const name = await e.probe()
        if (name !== undefined) { chosen = e; return name }
      }
      chosen = undefined
      return undefined
    },
    async compress (from, to) {
      if (!chosen && await this.probe() === undefined) throw new Error('no encoder runs here')
      return chosen!.compress(from, to)
    },
  }
}
export { readWavHeader, repairWavHeader, type WavHeader } from './wav.js'
