// The line's call records as other modules read them (an appeal shows the call it was registered on).
import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { lineCalls } from '../../db/schema/index.js'
import { isoOrNull } from '../../lib/clock.js'

export type LineCallRow = typeof lineCalls.$inferSelect

/** a call's record as the API answers it: times as ISO 8601 */
export const lineCallView = (c: LineCallRow) => ({
  ...c, joined_at: isoOrNull(c.joined_at), answered_at: isoOrNull(c.answered_at), started_at: c.started_at.toISOString(), ended_at: isoOrNull(c.ended_at), reviewed_at: isoOrNull(c.reviewed_at),
  // a leg kept before a queue's answer was (migration 0062) is one timed out
  earlier_queues: c.earlier_queues.map((l) => ({ ...l, answered_by: l.answered_by ?? null, answered_at: l.answered_at ?? null, talk_seconds: l.talk_seconds ?? null })),
  // a leg kept before outside numbers were legs is a terminal's
  legs: c.legs.map((l) => ({ ...l, number: l.number ?? null })),
})

/** the call the line's events kept under this Linkedid */
/** whether a call reached an organization: its own, or passed on from that organization's queue (organization_ids; a row from before it, by its own) */
export const callReached = (call: Pick<LineCallRow, 'organization_id' | 'organization_ids'>, organizationId: number) =>
  call.organization_id === organizationId || call.organization_ids.includes(organizationId)

export const lineCallRecord = async (db: AppDb, linkedid: string): Promise<LineCallRow | undefined> =>
  (await db.select().from(lineCalls).where(eq(lineCalls.linkedid, linkedid)))[0]
