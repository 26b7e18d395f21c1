import type { Clock } from './clock.js'
import { periodic } from './periodic.js'

const DAY_MS = 86_400_000

/**
 * Deletes what is older than the retention period (CALL_RETENTION_DAYS), now and then at each
 * interval. Every instance may run it: a delete of rows already gone is harmless.
 */
export function createRetentionJob ({ purgeBefore, what, clock, retentionDays, intervalMs, log }: {
  /** deletes what is older than the cutoff; answers how many rows went */
  purgeBefore: (cutoff: Date) => Promise<number>
  /** what is purged, for the log: "old calls" */
  what: string
  clock: Clock
  retentionDays: number
  intervalMs: number
  log: { info: (o: object, m: string) => void, error: (o: object, m: string) => void }
}) {
  async function runOnce (): Promise<number> {
    const cutoff = new Date(clock().getTime() - retentionDays * DAY_MS)
    const purged = await purgeBefore(cutoff)
    if (purged > 0) log.info({ purged, cutoff: cutoff.toISOString() }, `${what} purged`)
    return purged
  }
  return { runOnce, ...periodic(() => runOnce().then(() => {}, (err: unknown) => log.error({ err }, `${what}: purge failed`)), intervalMs) }
}
