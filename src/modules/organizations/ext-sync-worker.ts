import type { ExtSyncClient } from '../../integrations/ext-sync/index.js'
import type { Clock } from '../../lib/clock.js'
import type { ClaimedSync, ExtSyncRepo } from './ext-sync-repo.js'
import { backoffDelay } from '../../lib/backoff.js'

export interface ExtSyncWorkerOptions {
  repo: ExtSyncRepo
  client: ExtSyncClient
  clock: Clock
  log: { info: (o: object, m: string) => void, warn: (o: object, m: string) => void, error: (o: object, m: string) => void }
  intervalMs: number
  backoffMs: number
  maxAttempts: number
  timeoutMs: number
  batch?: number
}

const MAX_BACKOFF_MS = 3600_000

/**
 * Sends the outbox to the external system: at least once, in the background, safe with several
 * instances (rows are claimed with SKIP LOCKED and held for a while; a crashed worker's rows are
 * taken over when the hold expires). `stop()` waits for the round in flight.
 */
export function createExtSyncWorker (o: ExtSyncWorkerOptions) {
  const batch = o.batch ?? 20
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let stopped = true

  async function deliver (c: ClaimedSync): Promise<void> {
    try {
      await o.client.send(c.payload, `organization-${c.organization_id}-v${c.version}`)
      await o.repo.markSynced(c, o.clock())
    } catch (err) {
      const attempt = c.attempts + 1
      const now = o.clock()
      const giveUp = attempt >= o.maxAttempts
      const retryAt = new Date(now.getTime() + backoffDelay(attempt - 1, { baseMs: o.backoffMs, maxMs: MAX_BACKOFF_MS }))
      const error = (err as Error).message
      await o.repo.markFailed(c, error, now, { status: giveUp ? 'failed' : 'pending', retryAt })
      o.log.warn({ organization_id: c.organization_id, attempt, give_up: giveUp, error }, 'ext sync failed')
    }
  }

  /** one round: every due row, sent concurrently; answers how many were attempted */
  async function runOnce (): Promise<number> {
    const now = o.clock()
    const claimed = await o.repo.claimDue(now, new Date(now.getTime() + o.timeoutMs * 3), batch)
    await Promise.all(claimed.map(deliver))
    return claimed.length
  }

  function schedule (): void {
    if (stopped) return
    timer = setTimeout(() => {
      running = runOnce().catch((err: unknown) => { o.log.error({ err }, 'ext sync round failed'); return 0 })
      void running.then(() => { running = undefined; schedule() })
    }, o.intervalMs)
    timer.unref()
  }

  return {
    runOnce,
    start () {
      if (!stopped) return
      stopped = false
      schedule()
    },
    async stop () {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

export type ExtSyncWorker = ReturnType<typeof createExtSyncWorker>
