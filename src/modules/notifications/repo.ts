import { and, asc, count, desc, eq, inArray, lt, min, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { claimable } from '../../lib/outbox-worker.js'
import { notificationChannels, notifications, type NotificationChannel, type NotificationStatus } from '../../db/schema/index.js'
import type { OutboxBacklog } from '../../lib/metrics.js'

export type NotificationRow = typeof notifications.$inferSelect

/** a row taken by one worker; `locked_until` is its claim: a later claim elsewhere has another */
export type ClaimedNotification = Pick<NotificationRow, 'id' | 'channel' | 'kind' | 'recipient' | 'subject' | 'body' | 'idempotency_key' | 'attempts' | 'appeal_id'> & { locked_until: string }

export interface NotificationFilter {
  status?: NotificationStatus
  channel?: NotificationChannel
  appealId?: number
  beforeId?: number
  limit: number
}

const stillClaimed = (c: ClaimedNotification) => and(eq(notifications.id, c.id), sql`${notifications.locked_until} = ${c.locked_until}::timestamptz`)

export function createNotificationRepo (db: AppDb) {
  return {
    /** what waits to be sent, by channel (every channel named, 0 when none waits) */
    async backlog (): Promise<OutboxBacklog[]> {
      const rows = await db.select({ channel: notifications.channel, messages: count(), oldest: min(notifications.created_at) })
        .from(notifications).where(eq(notifications.status, 'pending')).groupBy(notifications.channel)
      return notificationChannels.map((channel) => {
        const row = rows.find((r) => r.channel === channel)
        return { channel, messages: row?.messages ?? 0, oldest: row?.oldest ?? null }
      })
    },
    /** due rows of the channels this instance can deliver; SKIP LOCKED keeps instances from taking the same row */
    async claimDue (channels: NotificationChannel[], now: Date, lockUntil: Date, batch: number): Promise<ClaimedNotification[]> {
      if (channels.length === 0) return []
      const due = db.select({ id: notifications.id }).from(notifications)
        .where(and(claimable(notifications, now), inArray(notifications.channel, channels)))
        .orderBy(asc(notifications.next_attempt_at), asc(notifications.id))
        .limit(batch)
        .for('update', { skipLocked: true })
      return db.update(notifications).set({ locked_until: lockUntil }).where(inArray(notifications.id, due))
        .returning({
          id: notifications.id, channel: notifications.channel, kind: notifications.kind, recipient: notifications.recipient, subject: notifications.subject,
          body: notifications.body, idempotency_key: notifications.idempotency_key, attempts: notifications.attempts, appeal_id: notifications.appeal_id,
          locked_until: sql<string>`${notifications.locked_until}::text`,
        })
    },

    markSent: (c: ClaimedNotification, at: Date, providerId: string | undefined) => db.update(notifications).set({
      status: 'sent', attempts: c.attempts + 1, sent_at: at, provider_id: providerId ?? null, last_error: null, locked_until: null, updated_at: at,
    }).where(stillClaimed(c)),

    markFailed: (c: ClaimedNotification, error: string, at: Date, next: { giveUp: boolean, retryAt: Date }) => db.update(notifications).set({
      status: next.giveUp ? 'failed' : 'pending', attempts: c.attempts + 1, next_attempt_at: next.retryAt, last_error: error.slice(0, 2000), locked_until: null, updated_at: at,
    }).where(stillClaimed(c)),

    list: (f: NotificationFilter) => db.select().from(notifications).where(and(
      f.status === undefined ? undefined : eq(notifications.status, f.status),
      f.channel === undefined ? undefined : eq(notifications.channel, f.channel),
      f.appealId === undefined ? undefined : eq(notifications.appeal_id, f.appealId),
      f.beforeId === undefined ? undefined : lt(notifications.id, f.beforeId)
    )).orderBy(desc(notifications.id)).limit(f.limit),

    counts: async () => Object.fromEntries((await db.select({ status: notifications.status, n: sql<number>`count(*)::int` }).from(notifications).groupBy(notifications.status))
      .map((r) => [r.status, r.n])) as Partial<Record<NotificationStatus, number>>,

    find: async (id: number) => (await db.select().from(notifications).where(eq(notifications.id, id)))[0],

    /** a row not sent yet is due again now, its attempts counted afresh; a sent one is left alone */
    retry: async (id: number, at: Date) => (await db.update(notifications)
      .set({ status: 'pending', attempts: 0, next_attempt_at: at, locked_until: null, updated_at: at })
      .where(and(eq(notifications.id, id), inArray(notifications.status, ['pending', 'failed'])))
      .returning())[0],
  }
}

export type NotificationRepo = ReturnType<typeof createNotificationRepo>
