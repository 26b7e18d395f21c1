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
