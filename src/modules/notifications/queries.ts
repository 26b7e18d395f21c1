import { sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { notifications } from '../../db/schema/index.js'

/* What other modules may ask of the outbox (its owner is this module). */

export type NotificationInsert = Pick<typeof notifications.$inferInsert, 'idempotency_key' | 'channel' | 'kind' | 'recipient' | 'subject' | 'body' | 'appeal_id'>

/**
 * Puts notifications in the outbox, in the caller's transaction: they are sent if and only if the
 * change they tell about commits, due from `at`. A key seen before adds nothing. Answers how many rows are new.
 */
export async function enqueueNotifications (db: AppDb, rows: NotificationInsert[], at: Date): Promise<number> {
  if (rows.length === 0) return 0
  return (await db.insert(notifications).values(rows.map((r) => ({ ...r, next_attempt_at: at, created_at: at, updated_at: at }))).onConflictDoNothing({ target: notifications.idempotency_key }).returning({ id: notifications.id })).length
}

/** markers a row may hold for what only the caller's statement knows: the appeal's id and number */
export const MARKERS = { id: '{{id}}', number: '{{number}}' } as const

/**
 * The outbox insert as a part of the caller's statement (a CTE of one registration statement), not
 * run here: the markers in the key, subject and body are replaced by the SQL `fill` gives.
 */
export const notificationsInsert = (db: AppDb, rows: NotificationInsert[], at: Date, fill: { id: SQL, number: SQL }) =>
  db.insert(notifications).values(rows.map((r) => ({
    ...r,
    idempotency_key: sql`replace(${r.idempotency_key}, ${MARKERS.id}, (${fill.id})::text)`,
    subject: r.subject == null ? null : sql`replace(${r.subject}, ${MARKERS.number}, ${fill.number})`,
    body: sql`replace(${r.body}, ${MARKERS.number}, ${fill.number})`,
    appeal_id: fill.id,
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  }))).onConflictDoNothing({ target: notifications.idempotency_key }).returning({ id: notifications.id })
