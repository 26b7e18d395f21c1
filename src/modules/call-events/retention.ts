import type { Clock } from '../../lib/clock.js'
import { periodic } from '../../lib/periodic.js'
import type { CallRepo } from './repo.js'

const DAY_MS = 86_400_000

/**
 * Deletes calls (and their transcripts) older than the retention period, now and then at each
 * interval. Every instance may run it: a delete of rows already gone is harmless.
 */
export function createRetentionJob ({ repo, clock, retentionDays, intervalMs, log }: {
  repo: Pick<CallRepo, 'purgeBefore'>
  clock: Clock
  retentionDays: number
  intervalMs: number
  log: { info: (o: object, m: string) => void, error: (o: object, m: string) => void }
}) {
  async function runOnce (): Promise<number> {
    const cutoff = new Date(clock().getTime() - retentionDays * DAY_MS)
    const purged = await repo.purgeBefore(cutoff)
    if (purged > 0) log.info({ purged, cutoff: cutoff.toISOString() }, 'old calls purged')
    return purged
  }
  return { runOnce, ...periodic(() => runOnce().then(() => {}, (err: unknown) => log.error({ err }, 'call purge failed')), intervalMs) }
}
