import { isNotNull } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { breakReasons } from '../../db/schema/index.js'

/* What other modules may ask of the agents' tables (their owner is this module). */

/** the longest each break reason may last, in minutes (the reasons without a limit are absent) */
export async function breakLimits (db: AppDb): Promise<Map<string, number>> {
  const rows = await db.select({ code: breakReasons.code, max_minutes: breakReasons.max_minutes }).from(breakReasons).where(isNotNull(breakReasons.max_minutes))
  return new Map(rows.map((r) => [r.code, r.max_minutes!]))
}
