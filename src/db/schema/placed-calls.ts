import { sql } from 'drizzle-orm'
import { index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { appeals } from './appeals.js'
import { oneOf } from './checks.js'
import { organizations } from './organizations.js'
import { persons } from './references.js'
import { users } from './users.js'

// Calls the centre places (issue 50, DESIGN 10): Asterisk's Originate rings the user's own terminal,
// then dials the number in the terminal's organization context. The row follows the call from
// Asterisk's events (the instance that reads them writes it); its Linkedid is given by the service
// (Originate's ChannelId), so the events are the row's without a lookup.

/** ringing_you → ringing_citizen → connected → ended; or no_answer, busy, failed (`failed_side` says whose) */
export const placedCallStatuses = ['ringing_you', 'ringing_citizen', 'connected', 'ended', 'no_answer', 'busy', 'failed'] as const
export const livePlacedCallStatuses = ['ringing_you', 'ringing_citizen', 'connected'] as const
export const placedCallSides = ['you', 'citizen'] as const
/** call: placed by a user (click-to-call); callback: placed by the service for a caller who asked to be called back */
export const placedCallKinds = ['call', 'callback'] as const
/** waiting in its queue's list (again, after an attempt that did not reach the caller); placing; reached; failed (its attempts spent, or it cannot be dialled) */
export const callbackStatuses = ['waiting', 'placing', 'reached', 'failed'] as const

export const placedCalls = pgTable('placed_calls', {
  id: serial('id').primaryKey(),
  kind: varchar('kind', { length: 8, enum: placedCallKinds }).notNull().default('call'),
  /** the callback request this call is an attempt of */
  callback_id: integer('callback_id'),
  /** Asterisk's Linkedid (the Originate's ChannelId): the call's id in the call events and its recordings */
  linkedid: varchar('linkedid', { length: 64 }).notNull(),
  employee_id: integer('employee_id').references(() => users.id, { onDelete: 'set null' }),
  organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
  /** the user's terminal, rung first (no foreign key: history outlives terminals) */
  terminal_id: varchar('terminal_id', { length: 40 }).notNull(),
  /** the citizen's number, +7XXXXXXXXXX */
  number: varchar('number', { length: 16 }).notNull(),
  /** the number as the organization's context takes it (a local number, 8..., +7...) */
  dialled: varchar('dialled', { length: 16 }).notNull(),
  appeal_id: integer('appeal_id').references(() => appeals.id, { onDelete: 'set null' }),
  person_id: integer('person_id').references(() => persons.id, { onDelete: 'set null' }),
  status: varchar('status', { length: 16, enum: placedCallStatuses }).notNull().default('ringing_you'),
  /** whose leg ended a call that did not connect */
  failed_side: varchar('failed_side', { length: 8, enum: placedCallSides }),
  /** Asterisk's word for it (DialStatus, the hang-up cause, the Originate's reason) */
  reason: varchar('reason', { length: 64 }),
  placed_at: timestamp('placed_at', { withTimezone: true }).notNull(),
  /** the user answered their own phone */
  answered_at: timestamp('answered_at', { withTimezone: true }),
  connected_at: timestamp('connected_at', { withTimezone: true }),
  ended_at: timestamp('ended_at', { withTimezone: true }),
  talk_seconds: integer('talk_seconds'),
}, (t) => [
  oneOf('placed_calls_status_check', t.status, placedCallStatuses),
  oneOf('placed_calls_failed_side_check', t.failed_side, placedCallSides),
  oneOf('placed_calls_kind_check', t.kind, placedCallKinds),
  uniqueIndex('placed_calls_linkedid_key').on(t.linkedid),
  // one call of a user being placed at a time (409 call_in_progress)
  uniqueIndex('placed_calls_live_key').on(t.employee_id).where(sql`status in ('ringing_you', 'ringing_citizen', 'connected')`),
  index('placed_calls_employee_idx').on(t.employee_id, t.placed_at.desc()),
  index('placed_calls_appeal_idx').on(t.appeal_id, t.placed_at.desc()).where(sql`appeal_id is not null`),
  index('placed_calls_organization_idx').on(t.organization_id, t.placed_at.desc()),
  // the callbacks placed in a period (the line's figures)
  index('placed_calls_callback_idx').on(t.placed_at).where(sql`kind = 'callback'`),
  // a callback request's attempts, the latest first (the placer finds the one it placed)
  index('placed_calls_attempts_idx').on(t.callback_id, t.id).where(sql`callback_id is not null`),
])

/**
 * A caller who pressed the callback digit while waiting in a queue (issue 50): their place is their
 * time joined; the service calls them back through an operator of the queue once one is ready and no
 * caller in the queue has waited longer. One row a call (its Linkedid), whatever its attempts.
 */
export const callbackRequests = pgTable('callback_requests', {
  id: serial('id').primaryKey(),
  /** the waiting call's Linkedid */
  linkedid: varchar('linkedid', { length: 64 }).notNull(),
  organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
  /** the queue's Asterisk name (`org<prefix>-q<id>`) */
  queue: varchar('queue', { length: 80 }).notNull(),
  line: varchar('line', { length: 32 }),
  /** +7XXXXXXXXXX */
  number: varchar('number', { length: 16 }).notNull(),
  language: varchar('language', { length: 2 }),
  /** when the caller joined the queue: their place among its callers */
  joined_at: timestamp('joined_at', { withTimezone: true }).notNull(),
  requested_at: timestamp('requested_at', { withTimezone: true }).notNull(),
  status: varchar('status', { length: 8, enum: callbackStatuses }).notNull().default('waiting'),
  /** attempts that did not reach the caller (an operator who did not answer is not one) */
  attempts: integer('attempts').notNull().default(0),
  /** not placed before this (a retry's interval) */
  next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  /** the attempt being placed now (placed_calls.id) */
  placed_call_id: integer('placed_call_id'),
  placed_at: timestamp('placed_at', { withTimezone: true }),
  reached_at: timestamp('reached_at', { withTimezone: true }),
  failed_at: timestamp('failed_at', { withTimezone: true }),
  reason: varchar('reason', { length: 64 }),
}, (t) => [
  oneOf('callback_requests_status_check', t.status, callbackStatuses),
  uniqueIndex('callback_requests_linkedid_key').on(t.linkedid),
  // the waiting requests in their places, and those due
  index('callback_requests_waiting_idx').on(t.queue, t.joined_at).where(sql`status = 'waiting'`),
  index('callback_requests_due_idx').on(t.next_attempt_at).where(sql`status = 'waiting'`),
  index('callback_requests_placing_idx').on(t.id).where(sql`status = 'placing'`),
  index('callback_requests_requested_idx').on(t.requested_at),
])
