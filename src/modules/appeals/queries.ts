import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { appeals } from '../../db/schema/index.js'

/* What other modules may ask of the appeals (their owner is this module). */

/** the organizations executing the appeals registered from a call (its recordings are theirs to hear) */
export const executorsOfCall = async (db: AppDb, callRowId: number): Promise<number[]> =>
  (await db.selectDistinct({ id: appeals.executor_organization_id }).from(appeals).where(eq(appeals.call_row_id, callRowId)))
    .flatMap((r) => (r.id === null ? [] : [r.id]))
