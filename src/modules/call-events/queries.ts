import { asc, eq, sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { callChunks, calls } from '../../db/schema/index.js'

/* What other modules may ask of the calls tables (their owner is this module). */

/** the row of the call whose telephony id is `callId` (a column of the caller's query), as a subquery */
export const callRowOf = (callId: SQLWrapper) => sql`(select c.id from ${calls} c where c.call_id = ${callId})`

/** the row of a call by its telephony id (Asterisk's Linkedid for the line's calls) */
export const callRowIdOf = async (db: AppDb, callId: string): Promise<number | undefined> =>
  (await db.select({ id: calls.id }).from(calls).where(eq(calls.call_id, callId)))[0]?.id

/** the call an appeal is registered from: the caller's phone, the matched person, the transcript */
export const callForAppeal = async (db: AppDb, id: number) =>
  (await db.select({ id: calls.id, caller_phone: calls.caller_phone, person_id: calls.person_id, transcript: calls.transcript, organization_id: calls.organization_id })
    .from(calls).where(eq(calls.id, id)))[0]

/** the call an appeal came from as its readers see it: the transcript and its chunks in order */
export async function callTranscript (db: AppDb, id: number) {
  const call = (await db.select({ id: calls.id, call_id: calls.call_id, caller_phone: calls.caller_phone, answered_at: calls.answered_at, is_final: calls.is_final, transcript: calls.transcript })
    .from(calls).where(eq(calls.id, id)))[0]
  if (!call) return undefined
  const chunks = await db.select({ seq: callChunks.seq, channel: callChunks.channel, chunk_text: callChunks.chunk_text, is_final: callChunks.is_final, received_at: callChunks.received_at })
    .from(callChunks).where(eq(callChunks.call_row_id, id)).orderBy(asc(callChunks.seq))
  return { call, chunks }
}
