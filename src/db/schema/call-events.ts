import { boolean, customType, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { organizations } from './organizations.js'
import { persons } from './references.js'
import { users } from './users.js'

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

export const callSources = ['posted', 'line'] as const
/** in: the citizen called; out: the centre called the citizen (a call placed, issue 50) */
export const callDirections = ['in', 'out'] as const

/**
 * One call: opened by `answered` (posted, or Asterisk's AgentConnect on the line) or by its first
 * transcription chunk; `is_final` closes it.
 */
export const calls = pgTable('calls', {
  id: serial('id').primaryKey(),
  /** the telephony's id of the call: Asterisk's Linkedid for a call of the line, else the speech service's; null until known */
  call_id: varchar('call_id', { length: 128 }),
  /** who told of the answer: `posted` to /answered (or a first chunk), `line` from Asterisk's events */
  source: varchar('source', { length: 8, enum: callSources }).notNull().default('posted'),
  direction: varchar('direction', { length: 3, enum: callDirections }).notNull().default('in'),
  operator_num: varchar('operator_num', { length: 32 }).notNull(),
  /** the SIP terminal, when operator_num is one (no foreign key: history outlives terminals) */
  terminal_id: varchar('terminal_id', { length: 40 }),
  organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
  employee_id: integer('employee_id').references(() => users.id, { onDelete: 'set null' }),
  caller_phone: varchar('caller_phone', { length: 32 }),
  person_id: integer('person_id').references(() => persons.id, { onDelete: 'set null' }),
  answered_at: timestamp('answered_at', { withTimezone: true }),
  /** full_text of the latest chunk */
  transcript: text('transcript').notNull().default(''),
  is_final: boolean('is_final').notNull().default(false),
  closed_at: timestamp('closed_at', { withTimezone: true }),
  /** the caller's hang-up on the line (Asterisk's Hangup): the operator is free, the transcript may still close later */
  hung_up_at: timestamp('hung_up_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  oneOf('calls_source_check', t.source, callSources),
  oneOf('calls_direction_check', t.direction, callDirections),
  uniqueIndex('calls_call_id_unique').on(t.call_id),
  index('calls_operator_idx').on(t.operator_num, t.created_at),
  // the call going on of a user (a reloaded desk)
  index('calls_employee_idx').on(t.employee_id, t.created_at),
  index('calls_organization_idx').on(t.organization_id, t.created_at),
  index('calls_phone_idx').on(t.caller_phone, t.created_at),
  index('calls_created_idx').on(t.created_at),
])

/** Transcription chunks in arrival order; a repeated chunk (same fingerprint) is stored once. */
export const callChunks = pgTable('call_chunks', {
  call_row_id: integer('call_row_id').notNull().references(() => calls.id, { onDelete: 'cascade' }),
  seq: integer('seq').notNull(),
  channel: varchar('channel', { length: 32 }).notNull(),
  chunk_text: text('chunk_text').notNull(),
  is_final: boolean('is_final').notNull().default(false),
  /** SHA-256 of what makes the chunk (see the intake) */
  fingerprint: bytea('fingerprint').notNull(),
  received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // a chunk is its call's and its number: no id of its own, whose sequence and index every chunk would pay for
  primaryKey({ name: 'call_chunks_pkey', columns: [t.call_row_id, t.seq] }),
  uniqueIndex('call_chunks_fingerprint_unique').on(t.call_row_id, t.fingerprint),
])

/** Consoles connected to any instance, kept alive by a heartbeat: every instance sees the same list. */
export const consolePresence = pgTable('console_presence', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  connected_at: timestamp('connected_at', { withTimezone: true }).notNull(),
  last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull(),
}, (t) => [index('console_presence_seen_idx').on(t.last_seen_at), index('console_presence_user_idx').on(t.user_id)])
