import { and, asc, count, eq, inArray, min, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { claimable } from '../../lib/outbox-worker.js'
import { extSyncOutbox, type ExtSyncStatus } from '../../db/schema/index.js'
import type { OutboxBacklog } from '../../lib/metrics.js'

/** a row taken by one worker; `locked_until` is its claim: another worker's later claim has another */
export interface ClaimedSync { organization_id: number, version: number, payload: unknown, attempts: number, locked_until: string }

/** the row as this worker claimed it: a claim that expired and was taken over elsewhere changes nothing */
const stillClaimed = (c: ClaimedSync) =>
  and(eq(extSyncOutbox.organization_id, c.organization_id), sql`${extSyncOutbox.locked_until} = ${c.locked_until}::timestamptz`)

export function createExtSyncRepo (db: AppDb) {
  return {
    /** the organizations' changes waiting to be sent, and when the oldest was made */
    async backlog (): Promise<OutboxBacklog[]> {
      const [row] = await db.select({ messages: count(), oldest: min(extSyncOutbox.updated_at) }).from(extSyncOutbox).where(eq(extSyncOutbox.status, 'pending'))
      return [{ messages: row?.messages ?? 0, oldest: row?.oldest ?? null }]
    },
    /**
     * The organization's latest state replaces whatever was waiting. A send in flight keeps its claim
     * (`locked_until`): no other instance takes the newer version until it ends, so an older version
     * can never arrive after a newer one; when it ends, the newer version is due at once.
     */
    enqueue: (organizationId: number, payload: unknown, status: 'pending' | 'disabled', at: Date) =>
      db.insert(extSyncOutbox).values({ organization_id: organizationId, payload, status, next_attempt_at: at, updated_at: at })
        .onConflictDoUpdate({
          target: extSyncOutbox.organization_id,
          set: { payload, status, version: sql`${extSyncOutbox.version} + 1`, attempts: 0, next_attempt_at: at, last_error: null, updated_at: at },
        }),

    /** claims due rows for one worker; SKIP LOCKED keeps instances from taking the same row */
    async claimDue (now: Date, lockUntil: Date, batch: number): Promise<ClaimedSync[]> {
      const due = db.select({ id: extSyncOutbox.organization_id }).from(extSyncOutbox)
        .where(claimable(extSyncOutbox, now))
        .orderBy(asc(extSyncOutbox.next_attempt_at), asc(extSyncOutbox.organization_id))
        .limit(batch)
        .for('update', { skipLocked: true })
      return db.update(extSyncOutbox).set({ locked_until: lockUntil }).where(inArray(extSyncOutbox.organization_id, due))
        .returning({
          organization_id: extSyncOutbox.organization_id, version: extSyncOutbox.version, payload: extSyncOutbox.payload,
          attempts: extSyncOutbox.attempts, locked_until: sql<string>`${extSyncOutbox.locked_until}::text`,
        })
    },

    /** synced, unless a newer version arrived meanwhile: then it stays pending for that one (due now) */
    markSynced: (c: ClaimedSync, at: Date) => db.update(extSyncOutbox).set({
      status: sql`case when ${extSyncOutbox.version} = ${c.version} then 'synced' else 'pending' end`,
      synced_at: at, attempts: 0, last_error: null, locked_until: null, next_attempt_at: at, updated_at: at,
    }).where(stillClaimed(c)),

    markFailed: (c: ClaimedSync, error: string, at: Date, next: { status: ExtSyncStatus, retryAt: Date }) => db.update(extSyncOutbox).set({
      status: sql`case when ${extSyncOutbox.version} = ${c.version} then ${next.status} else 'pending' end`,
      attempts: sql`case when ${extSyncOutbox.version} = ${c.version} then ${c.attempts + 1} else 0 end`,
      next_attempt_at: sql`case when ${extSyncOutbox.version} = ${c.version} then ${next.retryAt.toISOString()}::timestamptz else ${at.toISOString()}::timestamptz end`,
      last_error: error, locked_until: null, updated_at: at,
    }).where(stillClaimed(c)),

    /** failed rows back to pending (all, or the given organizations'); answers how many */
    requeueFailed: async (at: Date, organizationIds?: number[]) => (await db.update(extSyncOutbox)
      .set({ status: 'pending', attempts: 0, next_attempt_at: at, locked_until: null, updated_at: at })
      .where(and(eq(extSyncOutbox.status, 'failed'), organizationIds ? inArray(extSyncOutbox.organization_id, organizationIds) : undefined))
      .returning({ id: extSyncOutbox.organization_id })).length,

    /** one organization sent again whatever its state (not when synchronisation is disabled) */
    requeue: async (organizationId: number, at: Date) => (await db.update(extSyncOutbox)
      .set({ status: 'pending', attempts: 0, next_attempt_at: at, locked_until: null, updated_at: at })
      .where(and(eq(extSyncOutbox.organization_id, organizationId), inArray(extSyncOutbox.status, ['failed', 'synced', 'pending'])))
      .returning({ id: extSyncOutbox.organization_id })).length,

    find: async (organizationId: number) => (await db.select().from(extSyncOutbox).where(eq(extSyncOutbox.organization_id, organizationId)))[0],
  }
}

export type ExtSyncRepo = ReturnType<typeof createExtSyncRepo>
