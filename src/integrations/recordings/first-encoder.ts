import type { AudioEncoder } from './types.js'

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
