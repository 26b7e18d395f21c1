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
