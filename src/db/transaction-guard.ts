import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * A query sent through the plain handle from inside a transaction's own work. On the embedded
 * database it would wait for the transaction that waits for it (PGlite has one connection): the
 * process hung for good. On PostgreSQL it takes a second connection and reads around the
 * transaction's own writes. Both are bugs of the caller, so the query is refused at once.
 */
export class QueryBesideTransactionError extends Error {
  constructor (what: string) {
    super(`${what} was sent through the plain database handle from inside an open transaction; ` +
      'use the transaction\'s handle, or read it before the transaction begins')
    this.name = 'QueryBesideTransactionError'
  }
}

interface OpenTransaction { open: boolean }

/**
 * Knows, per async flow, whether the flow is inside a transaction's work. `inside` marks the work
 * (and everything it starts while it runs); `refuseInside` is called by the plain handle's entry points.
 */
export function createTransactionGuard () {
  const scope = new AsyncLocalStorage<OpenTransaction>()
  return {
    inside<T> (work: () => Promise<T>): Promise<T> {
      const transaction: OpenTransaction = { open: true }
      return scope.run(transaction, async () => {
        try {
          return await work()
        } finally {
          // work it started and left running may query freely once the transaction is over
          transaction.open = false
        }
      })
    },
    refuseInside (what: string): void {
      if (scope.getStore()?.open) throw new QueryBesideTransactionError(what)
    },
  }
}

export type TransactionGuard = ReturnType<typeof createTransactionGuard>

/** the embedded database's answer to a caller that waited its whole bound for its turn */
export function databaseBusyError (waitedMs: number, query: string): Error {
  // ETIMEDOUT + query: the error handler's "database unavailable" (503 with Retry-After)
  return Object.assign(new Error(`the embedded database did not answer within ${waitedMs / 1000} s`), { code: 'ETIMEDOUT', query })
}

/**
 * One turn at a time at the embedded database, in arrival order, each caller waiting at most
 * `waitMs` for its turn. PGlite queues its callers too, but forever, and a caller that gave up would
 * still run later (a write answered 503 and then made). Here a caller that gives up leaves the queue.
 */
/** how a database's connections are used: now, and in total since the start (waits and timeouts) */
export interface PoolUse { max: number, inUse: number, waiting: number, acquired: number, waitSeconds: number, timeouts: number }

export function createTurns (waitMs: number) {
  let busy = false
  const waiting: Array<() => void> = []
  const use = { acquired: 0, waitSeconds: 0, timeouts: 0 }

  function releaser (): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = waiting.shift()
      if (next) next()
      else busy = false
    }
  }

  function take (query: string): Promise<() => void> {
    if (!busy) {
      busy = true
      use.acquired++
      return Promise.resolve(releaser())
    }
    const asked = performance.now()
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer)
        use.acquired++
        use.waitSeconds += (performance.now() - asked) / 1000
        resolve(releaser())
      }
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(grant), 1)
        use.timeouts++
        reject(databaseBusyError(waitMs, query))
      }, waitMs)
      waiting.push(grant)
    })
  }

  return {
    /** the one connection's use since the start (metrics) */
    use: (): PoolUse => ({ max: 1, inUse: busy ? 1 : 0, waiting: waiting.length, ...use }),
    async run<T> (query: string, work: () => Promise<T>): Promise<T> {
      const release = await take(query)
      try {
        return await work()
      } finally {
        release()
      }
    },
  }
}
