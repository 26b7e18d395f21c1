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

/**
 * A text some of whose pieces only the caller's statement knows (the appeal's id and number of a
 * registration): literal pieces and SQL values, written out as their concatenation, never patched.
 */
export type StatementText = Array<string | SQL>

/** a notification whose key, subject and body hold pieces of the caller's statement, for the appeal it gives */
export type StatementNotification = Omit<NotificationInsert, 'idempotency_key' | 'subject' | 'body' | 'appeal_id'> & {
  idempotency_key: StatementText, subject: StatementText | null, body: StatementText,
}

const concatenation = (text: StatementText) => sql.join(text.map((piece) => typeof piece === 'string' ? sql`${piece}::text` : sql`(${piece})::text`), sql` || `)

/** the outbox insert as a part of the caller's statement (a CTE of one registration statement), not run here */
export const notificationsInsert = (db: AppDb, rows: StatementNotification[], at: Date, appealId: SQL) =>
  db.insert(notifications).values(rows.map((r) => ({
    ...r,
    idempotency_key: sql`left(${concatenation(r.idempotency_key)}, 200)`,
    subject: r.subject === null ? null : concatenation(r.subject),
    body: concatenation(r.body),
    appeal_id: appealId,
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  }))).onConflictDoNothing({ target: notifications.idempotency_key }).returning({ id: notifications.id })
