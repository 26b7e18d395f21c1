import { and, eq, sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { placedCalls } from '../../db/schema/index.js'

/* What other modules may ask of the calls placed (their owner is this module). */

/** a call placed for this appeal that reached the citizen: what an answer by phone may name */
export const connectedCallOfAppeal = async (db: AppDb, callId: number, appealId: number) =>
  (await db.select({ id: placedCalls.id, linkedid: placedCalls.linkedid, talk_seconds: placedCalls.talk_seconds, connected_at: placedCalls.connected_at })
    .from(placedCalls).where(and(eq(placedCalls.id, callId), eq(placedCalls.appeal_id, appealId))))[0]

/** who placed a call, for which organization and appeal: who may hear its recording */
export const placedCallFacts = async (db: AppDb, linkedid: string) =>
  (await db.select({ organization_id: placedCalls.organization_id, employee_id: placedCalls.employee_id, appeal_id: placedCalls.appeal_id })
    .from(placedCalls).where(eq(placedCalls.linkedid, linkedid)))[0]

/** the appeal a call was placed for (null: none, or not a placed call), correlated to the caller's Linkedid column */
export const placedCallAppeal = (linkedid: SQLWrapper) => sql<number | null>`(select p.appeal_id from ${placedCalls} p where p.linkedid = ${linkedid})`
