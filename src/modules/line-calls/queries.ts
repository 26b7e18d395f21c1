// The line's call records as other modules read them (an appeal shows the call it was registered on).
import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { lineCalls } from '../../db/schema/index.js'
import { isoOrNull } from '../../lib/clock.js'

export type LineCallRow = typeof lineCalls.$inferSelect

/** a call's record as the API answers it: times as ISO 8601 */
export const lineCallView = (c: LineCallRow) =>
  ({ ...c, joined_at: isoOrNull(c.joined_at), answered_at: isoOrNull(c.answered_at), started_at: c.started_at.toISOString(), ended_at: isoOrNull(c.ended_at), reviewed_at: isoOrNull(c.reviewed_at) })

/** the call the line's events kept under this Linkedid */
export const lineCallRecord = async (db: AppDb, linkedid: string): Promise<LineCallRow | undefined> =>
  (await db.select().from(lineCalls).where(eq(lineCalls.linkedid, linkedid)))[0]
