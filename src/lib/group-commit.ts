/** what one item of a batch came to: its own answer or its own error */
export type Settled<O> = { value: O } | { error: unknown }

export interface GroupCommitOptions<I> {
  /** at most this many items in one batch */
  maxItems: number
  /** and at most this much of `weight` (bytes, say); a single heavier item still goes, alone */
  maxWeight?: number
  weight?: (item: I) => number
  /** a writer's error after which the items waiting behind its batch fail with it too (the database is gone, say) */
  failWaitingOn?: (error: unknown) => boolean
}

/**
 * Group commit: one batch is written at a time, and the items submitted meanwhile wait to go
 * together in the next one, in the order they came. Before each batch the writer lets the event
 * loop take in the input that has already arrived (one setImmediate, microseconds): a database that
 * never yields (PGlite works in microtasks) would otherwise write every batch with a single item.
 * A quiet service adds no noticeable delay; a busy one writes fewer, larger batches. Each submitter
 * gets its own item's answer or error.
 */
export function createGroupCommit<I, O> (write: (items: I[]) => Promise<Settled<O>[]>, options: GroupCommitOptions<I>) {
  const queue: { item: I, resolve: (value: O) => void, reject: (error: unknown) => void }[] = []
  let writing: Promise<void> | undefined

  function nextBatch () {
    let weight = 0
    let n = 0
    while (n < queue.length && n < options.maxItems) {
      weight += options.weight?.(queue[n]!.item) ?? 0
      if (n > 0 && options.maxWeight !== undefined && weight > options.maxWeight) break
      n++
    }
    return queue.splice(0, n)
  }

  async function drain () {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve))
      if (queue.length === 0) break
      const batch = nextBatch()
      let settled: Settled<O>[]
      try {
        settled = await write(batch.map((b) => b.item))
      } catch (error) {
        settled = batch.map(() => ({ error }))
        if (options.failWaitingOn?.(error)) for (const waiting of queue.splice(0)) waiting.reject(error)
      }
      batch.forEach((b, i) => {
        const outcome = settled[i] ?? { error: new Error('group commit: the writer gave no answer for an item') }
        if ('error' in outcome) b.reject(outcome.error)
        else b.resolve(outcome.value)
      })
    }
    writing = undefined
  }

  return {
    submit (item: I): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        writing ??= drain()
      })
    },
  }
}
