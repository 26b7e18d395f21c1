import { and, eq, isNull, lt, lte, or } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Clock } from './clock.js'
import { backoffDelay } from './backoff.js'

/** what one outbox table offers its worker */
export interface OutboxSource<T> {
  /** due rows held for this worker until `holdUntil` (SKIP LOCKED: another instance takes others) */
  claim: (now: Date, holdUntil: Date, batch: number) => Promise<T[]>
  /** sends one row; throws when the far side did not take it */
  deliver: (item: T) => Promise<string | undefined | void>
  attemptsOf: (item: T) => number
  succeeded: (item: T, at: Date, receipt: string | undefined) => Promise<unknown>
  failed: (item: T, error: string, at: Date, next: { giveUp: boolean, retryAt: Date }) => Promise<unknown>
  /** what the log says about a row: never its body, which may hold personal data or tokens */
  describe: (item: T) => object
}

/** how an outbox is worked: what its module's configuration says */
export interface OutboxPolicy {
  clock: Clock
  log: { info: (o: object, m: string) => void, warn: (o: object, m: string) => void, error: (o: object, m: string) => void }
  /** how often the worker looks for due rows */
  intervalMs: number
  /** the first retry delay; it doubles with every failed attempt */
  backoffMs: number
  maxAttempts: number
  /** the longest one delivery may take */
  timeoutMs: number
  /** told of each failed delivery (the metrics' failures) */
  deliveryFailed?: () => void
}

/** the rows an outbox may claim now: waiting, due, and not held by a live claim */
export const claimable = (t: { status: PgColumn, next_attempt_at: PgColumn, locked_until: PgColumn }, now: Date) =>
  and(eq(t.status, 'pending'), lte(t.next_attempt_at, now), or(isNull(t.locked_until), lt(t.locked_until, now)))

export interface OutboxWorkerOptions<T> extends OutboxPolicy {
  name: string
  source: OutboxSource<T>
  maxBackoffMs?: number
  batch?: number
}

/**
 * Delivers an outbox at least once, in the background, safe with several instances: rows are claimed
 * with SKIP LOCKED and held for a while, a crashed worker's rows are taken over when the hold expires;
 * a failed row is retried with doubling delays and given up (`failed`) after `maxAttempts`.
 * `stop()` waits for the round in flight.
 */
export function createOutboxWorker<T> (o: OutboxWorkerOptions<T>) {
  const batch = o.batch ?? 20
  // a claimed row stays this worker's for longer than one delivery may take
  const holdMs = o.timeoutMs * 3
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let stopped = true
  let again = false

  async function deliverOne (item: T): Promise<void> {
    try {
      const receipt = await o.source.deliver(item)
      await o.source.succeeded(item, o.clock(), receipt ?? undefined)
    } catch (err) {
      const attempt = o.source.attemptsOf(item) + 1
      const now = o.clock()
      const giveUp = attempt >= o.maxAttempts
      const retryAt = new Date(now.getTime() + backoffDelay(attempt - 1, { baseMs: o.backoffMs, maxMs: o.maxBackoffMs ?? 3600_000 }))
      const error = (err as Error).message
      o.deliveryFailed?.()
      await o.source.failed(item, error, now, { giveUp, retryAt })
      o.log.warn({ ...o.source.describe(item), attempt, give_up: giveUp, error }, `${o.name} delivery failed`)
    }
  }

  /** one round: every due row of a batch, sent concurrently; answers how many were attempted */
  async function runOnce (): Promise<number> {
    const now = o.clock()
    const claimed = await o.source.claim(now, new Date(now.getTime() + holdMs), batch)
    await Promise.all(claimed.map(deliverOne))
    return claimed.length
  }

  function schedule (delayMs: number): void {
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (running) { again = true; return }
      running = runOnce().catch((err: unknown) => { o.log.error({ err }, `${o.name} round failed`); return 0 })
      void running.then((n) => {
        running = undefined
        // a full batch or a poke during the round: look again at once
        schedule(n === batch || again ? 0 : o.intervalMs)
        again = false
      })
    }, delayMs)
    timer.unref()
  }

  return {
    runOnce,
    start () {
      if (!stopped) return
      stopped = false
      schedule(o.intervalMs)
    },
    /** new rows are waiting: look now rather than at the next interval */
    poke () { if (running) again = true; else schedule(0) },
    async stop () {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>
