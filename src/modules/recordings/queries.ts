import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { callRecordings, recordingBins } from '../../db/schema/index.js'
import { appealHoldsUntil, appealsHoldUntil } from '../appeals/queries.js'
import { placedCallAppeal } from '../placed-calls/queries.js'
import { callRowOf } from '../call-events/queries.js'

export type RecordingRow = typeof callRecordings.$inferSelect
export type NewRecording = typeof callRecordings.$inferInsert

export const recordingOf = async (db: AppDb, linkedid: string, leg: string): Promise<RecordingRow | undefined> =>
  (await db.select().from(callRecordings).where(and(eq(callRecordings.linkedid, linkedid), eq(callRecordings.leg, leg))))[0]

/** the row of a leg taken over; a leg indexed already (a sweep that crashed after its insert) stays as it was */
export async function indexRecording (db: AppDb, row: NewRecording): Promise<void> {
  await db.insert(callRecordings).values(row).onConflictDoNothing({ target: [callRecordings.linkedid, callRecordings.leg] })
}

/** the legs kept raw while no encoder could run, oldest first */
export const rawRecordings = (db: AppDb, limit: number): Promise<RecordingRow[]> =>
  db.select().from(callRecordings).where(sql`format = 'wav'`).orderBy(callRecordings.id).limit(limit)

export async function markCompressed (db: AppDb, id: number, kept: { file: string, bytes: number, sha256: string }): Promise<void> {
  await db.update(callRecordings).set({ ...kept, format: 'opus' }).where(eq(callRecordings.id, id))
}

/** a call's recorded legs, in the order they began */
export const legsOf = (db: AppDb, linkedid: string): Promise<RecordingRow[]> =>
  db.select().from(callRecordings).where(eq(callRecordings.linkedid, linkedid)).orderBy(callRecordings.started_at, callRecordings.id)

export const recordingById = async (db: AppDb, id: number): Promise<RecordingRow | undefined> =>
  (await db.select().from(callRecordings).where(eq(callRecordings.id, id)))[0]

/** the kept file is gone: said once, from then on */
export async function markMissing (db: AppDb, id: number): Promise<void> {
  await db.update(callRecordings).set({ missing_at: sql`coalesce(${callRecordings.missing_at}, now())` }).where(eq(callRecordings.id, id))
}

/**
 * The recordings the retention may delete: begun before the cutoff, and of no appeal still open nor
 * closed after it (registered from the call, or the call placed for it: an appeal's recordings are
 * counted from its closing); oldest first.
 */
export const purgeable = (db: AppDb, cutoff: Date, limit: number) => db.select({ id: callRecordings.id, linkedid: callRecordings.linkedid, file: callRecordings.file })
  .from(callRecordings)
  .where(sql`${callRecordings.started_at} < ${cutoff.toISOString()}::timestamptz
    and coalesce(${appealsHoldUntil(callRowOf(callRecordings.linkedid))}, '-infinity'::timestamptz) < ${cutoff.toISOString()}::timestamptz
    and coalesce(${appealHoldsUntil(placedCallAppeal(callRecordings.linkedid))}, '-infinity'::timestamptz) < ${cutoff.toISOString()}::timestamptz`)
  .orderBy(callRecordings.started_at).limit(limit)

export const deleteRecordings = async (db: AppDb, ids: number[]): Promise<void> => {
  if (ids.length > 0) await db.delete(callRecordings).where(inArray(callRecordings.id, ids))
}

/** the disk the kept recordings take, and what was taken over since `since` and `weekAgo` (from the trigger's bins) */
export const usageOf = async (db: AppDb, since: Date, weekAgo: Date): Promise<{ files: number, bytes: number, since_bytes: number, week_bytes: number }> =>
  (await db.select({
    files: sql<number>`coalesce(sum(${recordingBins.files}), 0)::int`,
    bytes: sql<number>`coalesce(sum(${recordingBins.bytes}), 0)::float8`,
    since_bytes: sql<number>`coalesce(sum(${recordingBins.bytes}) filter (where ${recordingBins.bin} >= ${since.toISOString()}::timestamptz), 0)::float8`,
    week_bytes: sql<number>`coalesce(sum(${recordingBins.bytes}) filter (where ${recordingBins.bin} >= ${weekAgo.toISOString()}::timestamptz), 0)::float8`,
  }).from(recordingBins))[0]!
