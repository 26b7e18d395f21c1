// What an encoder of recordings is: the implementations beside this file, and index.ts re-exporting them.

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
