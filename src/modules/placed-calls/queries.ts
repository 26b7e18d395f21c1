import { and, asc, eq, gte, inArray, or, sql, type SQLWrapper } from 'drizzle-orm'
import { selectRows, type AppDb } from '../../db/client.js'
import { callbackRequests, placedCalls } from '../../db/schema/index.js'

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

/** the callback requests a board shows: waiting and being placed, and those failed since `since` (of an organization, or all), in their places */
export const boardCallbacks = (db: AppDb, organizationId: number | undefined, since: Date, limit: number) =>
  db.select({
    id: callbackRequests.id, queue: callbackRequests.queue, number: callbackRequests.number, line: callbackRequests.line, language: callbackRequests.language,
    joined_at: callbackRequests.joined_at, requested_at: callbackRequests.requested_at, status: callbackRequests.status, attempts: callbackRequests.attempts,
    next_attempt_at: callbackRequests.next_attempt_at, reason: callbackRequests.reason,
  }).from(callbackRequests)
    .where(and(
      organizationId === undefined ? undefined : eq(callbackRequests.organization_id, organizationId),
      or(inArray(callbackRequests.status, ['waiting', 'placing']), and(eq(callbackRequests.status, 'failed'), gte(callbackRequests.failed_at, since)))
    ))
    .orderBy(asc(callbackRequests.joined_at)).limit(limit)

/** the callbacks of a period: requested, placed (each attempt), reached, failed, and the seconds from the request to reaching the caller */
export async function callbackFigures (db: AppDb, organizationId: number | undefined, from: Date, to: Date) {
  const org = organizationId === undefined ? sql`true` : sql`organization_id = ${organizationId}`
  const [row] = await selectRows<{ requested: number, reached: number, failed: number, mean: number | null, p90: number | null }>(db, sql`
    select count(*) filter (where requested_at >= ${from.toISOString()}::timestamptz and requested_at < ${to.toISOString()}::timestamptz)::int as requested,
      count(*) filter (where reached_at >= ${from.toISOString()}::timestamptz and reached_at < ${to.toISOString()}::timestamptz)::int as reached,
      count(*) filter (where failed_at >= ${from.toISOString()}::timestamptz and failed_at < ${to.toISOString()}::timestamptz)::int as failed,
      avg(extract(epoch from reached_at - requested_at)) filter (where reached_at >= ${from.toISOString()}::timestamptz and reached_at < ${to.toISOString()}::timestamptz)::float8 as mean,
      percentile_cont(0.9) within group (order by extract(epoch from reached_at - requested_at)) filter (where reached_at >= ${from.toISOString()}::timestamptz and reached_at < ${to.toISOString()}::timestamptz)::float8 as p90
    from ${callbackRequests} where ${org} and (requested_at >= ${from.toISOString()}::timestamptz or reached_at >= ${from.toISOString()}::timestamptz or failed_at >= ${from.toISOString()}::timestamptz)`)
  const [placed] = await selectRows<{ placed: number }>(db, sql`
    select count(*)::int as placed from ${placedCalls} where kind = 'callback' and ${org} and placed_at >= ${from.toISOString()}::timestamptz and placed_at < ${to.toISOString()}::timestamptz`)
  return {
    requested: row?.requested ?? 0, placed: placed?.placed ?? 0, reached: row?.reached ?? 0, failed: row?.failed ?? 0,
    mean_seconds_to_reach: row?.mean === null || row?.mean === undefined ? null : Math.round(row.mean), p90_seconds_to_reach: row?.p90 == null ? null : Math.round(row.p90),
  }
}
