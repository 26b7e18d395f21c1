import { sql } from 'drizzle-orm'
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, real, serial, smallint, timestamp, unique, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { organizations } from './organizations.js'
import { users } from './users.js'

/**
 * waiting, answered, abandoned, timed_out, unobserved: the queue's (docs/telephony.md, "Queue figures");
 * entered: on the line before any queue, still going; ended: the caller hung up before a queue or a
 * destination (in a menu, during the closed announcement); announced, terminal, hangup: the line's
 * routing sent it to an announcement, a terminal, or hung up, never queued; refused: a number no line owns.
 */
export const lineCallOutcomes = ['waiting', 'answered', 'abandoned', 'timed_out', 'ended', 'unobserved', 'entered', 'announced', 'terminal', 'hangup', 'refused', 'callback'] as const
/** how a caller left the line's menu: a digit chosen, no digit (its attempts exhausted), a wrong digit, or hanging up in it */
export const menuExits = ['choice', 'timeout', 'invalid', 'hangup'] as const

/** an agent rung for a call, as Asterisk's events told it */
export interface LineCallAttempt {
  interface: string
  member_name: string
  rung_at: string
  result: 'ringing' | 'no_answer' | 'answered' | 'not_answered'
  ring_seconds: number | null
}

/** a queue the call left by its time limit before the one it is in (an overflow): counted in that queue's figures too */
/** how a terminal came to talk with the caller: answered from a queue, rung by the routing, passed on (blind, attended), joined in a three-way call, or back after consulting someone */
export const legWays = ['queue', 'dial', 'blind', 'attended', 'three_way', 'returned'] as const

/** a part of the call's path, as stored: a terminal or a number outside that talked with the caller (the tracker's CallLeg) */
export interface LineCallPathLeg {
  interface: string
  /** absent from legs kept before outside numbers were legs */
  number?: string | null
  how: typeof legWays[number]
  from: string | null
  started_at: string
  ended_at: string | null
  talk_seconds: number | null
}

/** a queue the call left (see the tracker's QueueLeg); the fields after `service_level_seconds` are absent from legs kept before migration 0062 (timed out, then) */
export interface LineCallQueueLeg {
  queue: string
  joined_at: string
  hold_seconds: number | null
  /** that queue's servicelevel (null: a queue the service does not know; 20 is used) */
  service_level_seconds: number | null
  /** who answered the call there before it was passed on; null: it timed out */
  answered_by?: string | null
  answered_at?: string | null
  talk_seconds?: number | null
  /** the queue's organization (null: unknown, the call's is used) and wrap-up */
  organization_id?: number | null
  wrapup_seconds?: number | null
}

/**
 * A citizen's call as Asterisk's own events tell it (DESIGN 9), one row per call keyed by its
 * Linkedid; written as the call goes (joined, answered, ended), so a call in progress is there too.
 */
export const lineCalls = pgTable('line_calls', {
  linkedid: varchar('linkedid', { length: 64 }).primaryKey(),
  /** the organization whose line or queue it reached; null when neither named one the service knows */
  organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
  /**
   * every organization whose queue the call was in, the one of `organization_id` and those of the queues
   * it was passed on from: each one's managers list the call (a call the centre passed on to an executor's
   * line stays in the centre's list)
   */
  organization_ids: integer('organization_ids').array().notNull().default(sql`'{}'::integer[]`),
  caller_number: varchar('caller_number', { length: 80 }),
  line: varchar('line', { length: 32 }),
  /** the last menu the call entered (the routing's menu id); with no `menu_exit` yet, the caller is in it */
  menu_id: integer('menu_id'),
  menu_choice: varchar('menu_choice', { length: 4 }),
  menu_exit: varchar('menu_exit', { length: 8, enum: menuExits }),
  /** the line's schedule had it closed when the call came */
  closed: boolean('closed').notNull().default(false),
  language: varchar('language', { length: 8 }),
  queue: varchar('queue', { length: 80 }),
  joined_at: timestamp('joined_at', { withTimezone: true }),
  position: integer('position'),
  attempts: jsonb('attempts').$type<LineCallAttempt[]>().notNull().default(sql`'[]'::jsonb`),
  earlier_queues: jsonb('earlier_queues').$type<LineCallQueueLeg[]>().notNull().default(sql`'[]'::jsonb`),
  legs: jsonb('legs').$type<LineCallPathLeg[]>().notNull().default(sql`'[]'::jsonb`),
  answered_by: varchar('answered_by', { length: 80 }),
  answered_at: timestamp('answered_at', { withTimezone: true }),
  hold_seconds: real('hold_seconds'),
  talk_seconds: real('talk_seconds'),
  ended_by: varchar('ended_by', { length: 16 }),
  /** the queue's service level threshold (`servicelevel`) and wrap-up (`wrapuptime`) when the call was in it: seconds */
  service_level_seconds: integer('service_level_seconds'),
  wrapup_seconds: integer('wrapup_seconds'),
  outcome: varchar('outcome', { length: 10, enum: lineCallOutcomes }).notNull(),
  /** the citizen's score (1-5) from the queue's rating menu after the operator hung up */
  rating: smallint('rating'),
  /** a low score (1 or 2) is on the supervisors' review list until one marks it reviewed */
  reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
  reviewed_by: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
  review_comment: varchar('review_comment', { length: 2000 }),
  started_at: timestamp('started_at', { withTimezone: true }).notNull(),
  ended_at: timestamp('ended_at', { withTimezone: true }),
}, (t) => [
  oneOf('line_calls_outcome_check', t.outcome, lineCallOutcomes),
  oneOf('line_calls_menu_exit_check', t.menu_exit, menuExits),
  index('line_calls_started_idx').on(t.started_at),
  index('line_calls_organization_started_idx').on(t.organization_id, t.started_at),
  index('line_calls_organization_ids_idx').using('gin', t.organization_ids),
  // the queue figures are of the calls that joined a queue in the period
  index('line_calls_joined_idx').on(t.joined_at),
  index('line_calls_organization_joined_idx').on(t.organization_id, t.joined_at),
  // the operators' figures are of the calls answered in the period
  index('line_calls_answered_idx').on(t.answered_at),
  // the callers waiting now, on every board's read
  index('line_calls_waiting_idx').on(t.joined_at).where(sql`outcome = 'waiting'`),
  // the supervisors' review list: low scores not yet reviewed
  index('line_calls_review_idx').on(t.ended_at).where(sql`rating <= 2 and reviewed_at is null`),
  check('line_calls_rating_check', sql`${t.rating} between 1 and 5`),
])

/** the shortest bin that every time zone's half hours are made of (every zone's offset is a multiple of 15 minutes) */
export const LINE_FIGURES_BIN_MINUTES = 15

/**
 * The queue figures' sums of the calls that joined a queue, by organization, queue and 15-minute bin
 * of their joining, kept by triggers on line_calls as each call is written (migration 0035): the
 * figures of a period add up its bins instead of reading its calls. The abandoned calls are apart,
 * by their wait in whole seconds (120 for two minutes or more), so that any short-abandon threshold
 * of 0 to 120 s can be counted; `abandon_hold` is null in the row of every other call.
 */
export const lineCallIntervals = pgTable('line_call_intervals', {
  bin: timestamp('bin', { withTimezone: true }).notNull(),
  organization_id: integer('organization_id'),
  queue: varchar('queue', { length: 80 }),
  abandon_hold: smallint('abandon_hold'),
  offered: integer('offered').notNull().default(0),
  answered: integer('answered').notNull().default(0),
  abandoned: integer('abandoned').notNull().default(0),
  timed_out: integer('timed_out').notNull().default(0),
  answered_in_sl: integer('answered_in_sl').notNull().default(0),
  abandoned_in_sl: integer('abandoned_in_sl').notNull().default(0),
  completed: integer('completed').notNull().default(0),
  hold_sum: doublePrecision('hold_sum').notNull().default(0),
  talk_sum: doublePrecision('talk_sum').notNull().default(0),
  handling_sum: doublePrecision('handling_sum').notNull().default(0),
  /** the longest wait written into the bin (a call's wait is written once, when it leaves the queue) */
  longest_hold: real('longest_hold'),
  /** answered calls of the bin the citizen scored in the rating menu, and the scores' sum */
  rated: integer('rated').notNull().default(0),
  rating_sum: integer('rating_sum').notNull().default(0),
}, (t) => [
  unique('line_call_intervals_key').on(t.bin, t.organization_id, t.queue, t.abandon_hold).nullsNotDistinct(),
  index('line_call_intervals_organization_idx').on(t.organization_id, t.bin),
])

/**
 * The line's own figures: every call that entered the inbound context, by organization, line and
 * 15-minute bin of its start, kept by triggers on line_calls like line_call_intervals (migration
 * 0040). A number no line owns counts under that number, its organization null.
 */
export const lineEntryIntervals = pgTable('line_entry_intervals', {
  bin: timestamp('bin', { withTimezone: true }).notNull(),
  organization_id: integer('organization_id'),
  line: varchar('line', { length: 32 }).notNull(),
  calls: integer('calls').notNull().default(0),
  closed: integer('closed').notNull().default(0),
  refused: integer('refused').notNull().default(0),
  menu_hangup: integer('menu_hangup').notNull().default(0),
  menu_timeout: integer('menu_timeout').notNull().default(0),
  menu_invalid: integer('menu_invalid').notNull().default(0),
  language_ru: integer('language_ru').notNull().default(0),
  language_kk: integer('language_kk').notNull().default(0),
  to_queue: integer('to_queue').notNull().default(0),
}, (t) => [
  unique('line_entry_intervals_key').on(t.bin, t.organization_id, t.line).nullsNotDistinct(),
  index('line_entry_intervals_organization_idx').on(t.organization_id, t.bin),
])

/** The operators' sums of the calls they answered, by organization, queue, member and 15-minute bin of the answer (kept like line_call_intervals). */
export const lineCallOperatorIntervals = pgTable('line_call_operator_intervals', {
  bin: timestamp('bin', { withTimezone: true }).notNull(),
  organization_id: integer('organization_id'),
  queue: varchar('queue', { length: 80 }),
  answered_by: varchar('answered_by', { length: 80 }).notNull(),
  calls: integer('calls').notNull().default(0),
  completed: integer('completed').notNull().default(0),
  talk_sum: doublePrecision('talk_sum').notNull().default(0),
  wrapup_sum: doublePrecision('wrapup_sum').notNull().default(0),
  rated: integer('rated').notNull().default(0),
  rating_sum: integer('rating_sum').notNull().default(0),
}, (t) => [
  unique('line_call_operator_intervals_key').on(t.bin, t.organization_id, t.queue, t.answered_by).nullsNotDistinct(),
  index('line_call_operator_intervals_organization_idx').on(t.organization_id, t.bin),
])

export const memberStateNames = ['ready', 'ringing', 'on_call', 'wrap_up', 'break', 'offline'] as const

/** Each queue member's state now, as Asterisk's events tell it (one row a member, any instance reads it). */
export const memberStates = pgTable('member_states', {
  /** the queue member: `PJSIP/<terminal>` */
  interface: varchar('interface', { length: 80 }).primaryKey(),
  member_name: varchar('member_name', { length: 80 }).notNull(),
  state: varchar('state', { length: 8, enum: memberStateNames }).notNull(),
  reason: varchar('reason', { length: 80 }),
  since: timestamp('since', { withTimezone: true }).notNull(),
  wrapup_until: timestamp('wrapup_until', { withTimezone: true }),
}, (t) => [oneOf('member_states_state_check', t.state, memberStateNames)])

/** Each member's states one after another, for the time spent in each (pause time by reason, occupancy). */
export const memberStatePeriods = pgTable('member_state_periods', {
  id: serial('id').primaryKey(),
  interface: varchar('interface', { length: 80 }).notNull(),
  state: varchar('state', { length: 8, enum: memberStateNames }).notNull(),
  reason: varchar('reason', { length: 80 }),
  started_at: timestamp('started_at', { withTimezone: true }).notNull(),
  /** null while it lasts */
  ended_at: timestamp('ended_at', { withTimezone: true }),
}, (t) => [
  oneOf('member_state_periods_state_check', t.state, memberStateNames),
  index('member_state_periods_interface_idx').on(t.interface, t.started_at),
  index('member_state_periods_started_idx').on(t.started_at),
])

/**
 * The fencing epoch of the instance that reads Asterisk's events (DESIGN 9): one row, its epoch
 * raised by each instance that takes the lead. Every write of the leader holds the row shared and
 * checks its own epoch, so an instance that lost the lead (killed, cut off, paused) writes nothing
 * once its successor has raised it.
 */
export const lineEventLeader = pgTable('line_event_leader', {
  id: smallint('id').primaryKey().default(1),
  epoch: integer('epoch').notNull(),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [check('line_event_leader_one_row', sql`${t.id} = 1`)])
