import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { dataProtectionOfficers } from '../../db/schema/index.js'

/* What other modules may ask of the audit (its owner is this module). */

/** whether the employee reads the audit (and hears what it records: the calls' recordings) */
export const isDataProtectionOfficer = async (db: AppDb, userId: number): Promise<boolean> =>
  (await db.select({ id: dataProtectionOfficers.user_id }).from(dataProtectionOfficers).where(eq(dataProtectionOfficers.user_id, userId))).length > 0
