/**
 * A bound on work at once in this process (CPU- or memory-heavy work a request starts: decoding
 * an upload). A request that finds every slot taken is refused at once by `busy()`, so a burst
 * costs refusals, not an exhausted process; background work waits its turn.
 */
export interface Slots {
  /** runs `work` in a slot: `wait` queues it when none is free, else `busy()` is thrown */
  run: <T>(work: () => Promise<T>, options?: { wait?: boolean }) => Promise<T>
  /** slots taken now */
  taken: () => number
}

export function createSlots (size: number, busy: () => Error): Slots {
  let taken = 0
  const waiting: Array<() => void> = []
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else taken--
  }
  return {
    async run (work, { wait = false } = {}) {
      if (taken < size) taken++
      else if (!wait) throw busy()
      else await new Promise<void>((resolve) => { waiting.push(resolve) })
      try {
        return await work()
      } finally {
        release()
      }
    },
    taken: () => taken,
  }
}
