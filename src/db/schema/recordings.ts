import { sql } from 'drizzle-orm'
import { bigint, index, integer, pgTable, real, serial, timestamp, unique, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'

/** `opus`: compressed and checked; `wav`: kept raw while no encoder could run (compressed once one can) */
export const recordingFormats = ['opus', 'wav'] as const

/**
 * A call's recorded leg (DESIGN 10): the raw file Asterisk's MixMonitor wrote into RECORDINGS_DIR,
 * taken over by the service, compressed, checked and kept under `file`. One row per channel that
 * recorded (an operator's answer; a transfer or a second operator is another leg of the same call).
 */
export const callRecordings = pgTable('call_recordings', {
  id: serial('id').primaryKey(),
  /** the call (line_calls.linkedid): not a foreign key, the recording may be taken over before the call's row is written */
  linkedid: varchar('linkedid', { length: 64 }).notNull(),
  /** the Uniqueid of the channel that recorded: the leg */
  leg: varchar('leg', { length: 64 }).notNull(),
  /** the operator's terminal on that leg (its PJSIP endpoint), when the file's name says it */
  terminal: varchar('terminal', { length: 80 }),
  /** relative to RECORDINGS_DIR */
  file: varchar('file', { length: 300 }).notNull(),
  format: varchar('format', { length: 4, enum: recordingFormats }).notNull(),
  started_at: timestamp('started_at', { withTimezone: true }).notNull(),
  seconds: real('seconds').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  taken_at: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  /** when the service found the kept file gone (removed outside it): the recording answers 410 from then */
  missing_at: timestamp('missing_at', { withTimezone: true }),
}, (t) => [
  oneOf('call_recordings_format_check', t.format, recordingFormats),
  unique('call_recordings_leg_key').on(t.linkedid, t.leg),
  index('call_recordings_started_idx').on(t.started_at),
  // the raw recordings that still wait for an encoder
  index('call_recordings_raw_idx').on(t.id).where(sql`format = 'wav'`),
])

/**
 * The disk the kept recordings take, by the 15 minutes they were taken over in: kept by a trigger on
 * call_recordings (a missing file no longer counts), so that /metrics and the board read a few
 * hundred rows, not every recording.
 */
export const recordingBins = pgTable('recording_bins', {
  bin: timestamp('bin', { withTimezone: true }).primaryKey(),
  files: integer('files').notNull().default(0),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
})
