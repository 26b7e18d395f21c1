import { sql } from 'drizzle-orm'
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { users } from './users.js'

/** read, export: shown to someone; purge: deleted by the retention */
export const personalDataActions = ['read', 'export', 'purge'] as const
export const personalDataSubjects = ['appeal', 'transcript', 'person', 'call', 'line_call', 'recording'] as const
export type PersonalDataAction = typeof personalDataActions[number]
export type PersonalDataSubject = typeof personalDataSubjects[number]

/**
 * Who was shown whose personal data (docs/access.md, "Audit of personal data"): append-only (a trigger
 * refuses updates, and deletes but the retention purge's), each row chained to the one before by
 * a keyed hash, so that a row changed or removed outside the service is found by the check.
 * No foreign keys: a record outlives the account and the appeal it names.
 */
export const personalDataAccess = pgTable('personal_data_access', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
  actor_id: integer('actor_id'),
  actor_email: varchar('actor_email', { length: 254 }),
  actor_role: varchar('actor_role', { length: 16 }),
  ip: varchar('ip', { length: 64 }),
  request_id: varchar('request_id', { length: 100 }),
  action: varchar('action', { length: 8, enum: personalDataActions }).notNull(),
  subject: varchar('subject', { length: 16, enum: personalDataSubjects }).notNull(),
  /** the rows shown (a list: each of them; an export: none, its filter in `detail`) */
  subject_ids: text('subject_ids').array().notNull().default(sql`'{}'::text[]`),
  /** the route's template, as the metrics name it */
  route: varchar('route', { length: 200 }).notNull(),
  /** what was asked (a list's or an export's filter) and how many rows came */
  detail: jsonb('detail'),
  prev_hash: varchar('prev_hash', { length: 64 }).notNull(),
  hash: varchar('hash', { length: 64 }).notNull(),
}, (t) => [
  index('personal_data_access_at_idx').on(t.at),
  index('personal_data_access_actor_idx').on(t.actor_id, t.id),
  index('personal_data_access_subjects_idx').using('gin', t.subject_ids),
  oneOf('personal_data_access_action_check', t.action, personalDataActions),
  oneOf('personal_data_access_subject_check', t.subject, personalDataSubjects),
])

/** who reads the audit: granted from the command line on the server (`npm run cli -- data-protection`), never through the service */
export const dataProtectionOfficers = pgTable('data_protection_officers', {
  user_id: integer('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  granted_at: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
})
