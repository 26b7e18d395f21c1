import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { calls } from '../../db/schema/index.js'

/* What other modules may ask of the calls tables (their owner is this module). */

/** the call an appeal is registered from: the caller's phone, the matched person, the transcript */
export const callForAppeal = async (db: AppDb, id: number) =>
  (await db.select({ id: calls.id, caller_phone: calls.caller_phone, person_id: calls.person_id, transcript: calls.transcript, organization_id: calls.organization_id })
    .from(calls).where(eq(calls.id, id)))[0]
