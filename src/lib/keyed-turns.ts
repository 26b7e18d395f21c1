/**
 * Work done one at a time per key, in the order it was asked for (a line's switches, a call's events);
 * different keys run side by side. `idle` waits for everything asked so far.
 */
export function createKeyedTurns () {
  const tails = new Map<string, Promise<void>>()
  return {
    async run<T> (key: string, work: () => Promise<T>): Promise<T> {
      const before = tails.get(key) ?? Promise.resolve()
      let done!: () => void
      const tail = before.then(() => new Promise<void>((resolve) => { done = resolve }))
      tails.set(key, tail)
      await before
      try {
        return await work()
      } finally {
        done()
        if (tails.get(key) === tail) tails.delete(key)
      }
    },
    idle: async (): Promise<void> => { await Promise.allSettled([...tails.values()]) },
  }
}

export type KeyedTurns = ReturnType<typeof createKeyedTurns>
