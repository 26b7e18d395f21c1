import type { Running } from './module.js'

/**
 * Work done once when the service is ready and then every `intervalMs`, never two runs at once (a
 * run still going when the next is due is not doubled); stop waits for the run under way.
 */
export function periodic (work: () => Promise<void>, intervalMs: number): Running & { soon: (delayMs: number) => void } {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  const tick = () => { running ??= work().finally(() => { running = undefined }) }
  let soon: NodeJS.Timeout | undefined
  return {
    /** a run `delayMs` from now, besides the interval's (several asked meanwhile make one) */
    soon (delayMs) {
      if (soon !== undefined || timer === undefined) return
      soon = setTimeout(() => { soon = undefined; tick() }, delayMs)
      soon.unref()
    },
    start () {
      tick()
      timer = setInterval(tick, intervalMs)
      timer.unref()
    },
    async stop () {
      clearInterval(timer)
      clearTimeout(soon)
      timer = undefined
      await running
    },
  }
}
