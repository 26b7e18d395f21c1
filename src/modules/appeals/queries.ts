import { eq, sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { appeals } from '../../db/schema/index.js'

/* What other modules may ask of the appeals (their owner is this module). */

/**
 * Until when the appeals registered from a call (`callRow`, a column or subquery of the caller's
 * query) hold what belongs to it: 'infinity' while one is not closed, else the last closing; null
 * when none was registered from it.
 */
export const appealsHoldUntil = (callRow: SQLWrapper) => sql`(
  select case when bool_or(a.closed_at is null) then 'infinity'::timestamptz else max(a.closed_at) end
  from ${appeals} a where a.call_row_id = ${callRow})`

/** the organizations executing the appeals registered from a call (its recordings are theirs to hear) */
export const executorsOfCall = async (db: AppDb, callRowId: number): Promise<number[]> =>
  (await db.selectDistinct({ id: appeals.executor_organization_id }).from(appeals).where(eq(appeals.call_row_id, callRowId)))
    .flatMap((r) => (r.id === null ? [] : [r.id]))

/** until when an appeal (`appealId`, a column or subquery of the caller's query) holds what belongs to it: 'infinity' while open, else its closing; null without one */
export const appealHoldsUntil = (appealId: SQLWrapper) => sql`(
  select coalesce(a.closed_at, 'infinity'::timestamptz) from ${appeals} a where a.id = ${appealId})`

/** the organization executing an appeal (the recordings of calls placed for it are its staff's to hear) */
export const appealExecutor = async (db: AppDb, id: number): Promise<number | null> =>
  (await db.select({ id: appeals.executor_organization_id }).from(appeals).where(eq(appeals.id, id)))[0]?.id ?? null
