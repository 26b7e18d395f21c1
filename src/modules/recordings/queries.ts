import { and, eq, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { callRecordings } from '../../db/schema/index.js'

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
