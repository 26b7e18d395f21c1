import { sql } from 'drizzle-orm'
import {
  bigserial, boolean, customType, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core'
import { calls } from './call-events.js'
import { oneOf } from './checks.js'
import { appealTypes, categories, classifiers, subcategories } from './classifiers.js'
import { organizations } from './organizations.js'
import { persons, responseMethods, sources } from './references.js'
import { regions } from './regions.js'
import { users } from './users.js'

/** DESIGN 7.2: the states of an appeal (`overdue` is a flag, not a state). */
export const appealStatuses = ['registered', 'assigned', 'in_work', 'answered', 'closed', 'rejected'] as const
export type AppealStatus = typeof appealStatuses[number]
export const appealLanguages = ['kk', 'ru'] as const
export const rejectionKinds = ['not_an_appeal', 'duplicate', 'out_of_competence'] as const
export const appealActions = [
  'register', 'assign', 'take', 'redirect', 'extend', 'answer', 'return', 'close', 'reject', 'overdue',
  // a call placed for the appeal ended (issue 50): the status stays
  'call',
] as const
export type AppealAction = typeof appealActions[number]

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/** The register of citizens' appeals (DESIGN 7.1); the classification is kept as it was at registration. */
export const appeals = pgTable('appeals', {
  id: serial('id').primaryKey(),
  /** 109-YYYY-NNNNNN, from the year's counter in the registering transaction */
  number: varchar('number', { length: 20 }).notNull(),
  status: varchar('status', { length: 16, enum: appealStatuses }).notNull(),
  received_at: timestamp('received_at', { withTimezone: true }).notNull(),
  source_id: integer('source_id').notNull().references(() => sources.id, { onDelete: 'restrict' }),
  call_row_id: integer('call_row_id').references(() => calls.id, { onDelete: 'set null' }),
  person_id: integer('person_id').references(() => persons.id, { onDelete: 'restrict' }),
  /** the citizen's name and phone as given (an anonymous citizen has only these) */
  citizen_name: varchar('citizen_name', { length: 255 }).notNull(),
  citizen_phone: varchar('citizen_phone', { length: 16 }),
  citizen_email: varchar('citizen_email', { length: 254 }),
  language: varchar('language', { length: 2, enum: appealLanguages }).notNull(),
  text: text('text').notNull(),
  subcategory_id: integer('subcategory_id').notNull().references(() => subcategories.id, { onDelete: 'restrict' }),
  category_id: integer('category_id').notNull().references(() => categories.id, { onDelete: 'restrict' }),
  appeal_type_id: integer('appeal_type_id').notNull().references(() => appealTypes.id, { onDelete: 'restrict' }),
  classifier_id: integer('classifier_id').notNull().references(() => classifiers.id, { onDelete: 'restrict' }),
  priority: integer('priority').notNull(),
  region_id: integer('region_id').references(() => regions.id, { onDelete: 'restrict' }),
  address: varchar('address', { length: 500 }),
  response_method_id: integer('response_method_id').notNull().references(() => responseMethods.id, { onDelete: 'restrict' }),
  executor_organization_id: integer('executor_organization_id').references(() => organizations.id, { onDelete: 'restrict' }),
  executor_employee_id: integer('executor_employee_id').references(() => users.id, { onDelete: 'set null' }),
  operator_id: integer('operator_id').references(() => users.id, { onDelete: 'set null' }),
  work_due_at: timestamp('work_due_at', { withTimezone: true }).notNull(),
  close_due_at: timestamp('close_due_at', { withTimezone: true }).notNull(),
  extended_until: timestamp('extended_until', { withTimezone: true }),
  extension_reason: varchar('extension_reason', { length: 1000 }),
  /** when a deadline was missed (set by the deadline job, never cleared: it is history) */
  work_overdue_at: timestamp('work_overdue_at', { withTimezone: true }),
  close_overdue_at: timestamp('close_overdue_at', { withTimezone: true }),
  taken_at: timestamp('taken_at', { withTimezone: true }),
  answered_at: timestamp('answered_at', { withTimezone: true }),
  closed_at: timestamp('closed_at', { withTimezone: true }),
  answer_text: text('answer_text'),
  answer_language: varchar('answer_language', { length: 2, enum: appealLanguages }),
  answer_attachments: jsonb('answer_attachments').$type<{ name: string, size: number, content_type: string }[]>(),
  answer_check: jsonb('answer_check').$type<Record<string, unknown>>(),
  /** the call placed for the appeal that the answer was given in (a response by phone; placed_calls.id, no foreign key: its owner is another module) */
  answer_call_id: integer('answer_call_id'),
  rejection_kind: varchar('rejection_kind', { length: 24, enum: rejectionKinds }),
  is_repeat: boolean('is_repeat').notNull().default(false),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** full-text search of the applicant's name and the text: Russian stems, and the simple configuration for Kazakh and everything else */
  search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('russian', "citizen_name" || ' ' || "text") || to_tsvector('simple', "citizen_name" || ' ' || "text")`),
}, (t) => [
  uniqueIndex('appeals_number_unique').on(t.number),
  oneOf('appeals_status_check', t.status, appealStatuses),
  oneOf('appeals_language_check', t.language, appealLanguages),
  oneOf('appeals_answer_language_check', t.answer_language, appealLanguages),
  oneOf('appeals_rejection_kind_check', t.rejection_kind, rejectionKinds),
  // the list's default order (newest first, id breaks ties) and every filter's index
  index('appeals_received_idx').on(t.received_at.desc(), t.id.desc()),
  index('appeals_status_idx').on(t.status, t.received_at.desc(), t.id.desc()),
  index('appeals_executor_idx').on(t.executor_organization_id, t.received_at.desc(), t.id.desc()),
  // an executor's desk: its appeals in one state
  index('appeals_executor_status_idx').on(t.executor_organization_id, t.status, t.received_at.desc(), t.id.desc()),
  index('appeals_region_idx').on(t.region_id, t.received_at.desc()),
  index('appeals_subcategory_idx').on(t.subcategory_id, t.received_at.desc()),
  index('appeals_category_idx').on(t.category_id, t.received_at.desc()),
  index('appeals_appeal_type_idx').on(t.appeal_type_id, t.received_at.desc()),
  index('appeals_classifier_idx').on(t.classifier_id, t.received_at.desc()),
  index('appeals_source_idx').on(t.source_id, t.received_at.desc()),
  index('appeals_operator_idx').on(t.operator_id, t.received_at.desc()),
  index('appeals_person_idx').on(t.person_id, t.received_at.desc()),
  index('appeals_phone_idx').on(t.citizen_phone, t.received_at.desc()),
  index('appeals_response_method_idx').on(t.response_method_id),
  index('appeals_executor_employee_idx').on(t.executor_employee_id),
  index('appeals_call_idx').on(t.call_row_id),
  index('appeals_overdue_idx').on(t.received_at.desc()).where(sql`${t.work_overdue_at} is not null or ${t.close_overdue_at} is not null`),
  // what the deadline job looks for: open appeals by their next deadline
  index('appeals_open_work_due_idx').on(t.work_due_at).where(sql`${t.status} in ('registered', 'assigned') and ${t.work_overdue_at} is null`),
  index('appeals_open_close_due_idx').on(t.close_due_at).where(sql`${t.status} in ('registered', 'assigned', 'in_work') and ${t.close_overdue_at} is null`),
  // an executor's inbox: its appeals still in hand, the nearest answer deadline first
  index('appeals_inbox_idx').on(t.executor_organization_id, t.close_due_at, t.id).where(sql`${t.status} in ('assigned', 'in_work', 'answered')`),
  index('appeals_search_idx').using('gin', t.search),
  // a number's tail (`000001`, `2026-000001`) as a prefix of the reversed number
  index('appeals_number_tail_idx').on(sql`reverse(${t.number}) text_pattern_ops`),
  // the statistics count what was answered and closed in a period
  index('appeals_answered_idx').on(t.answered_at).where(sql`${t.answered_at} is not null`),
  index('appeals_closed_idx').on(t.closed_at).where(sql`${t.closed_at} is not null`),
])

/** Every change of an appeal: who, when, from which state to which, why. */
export const appealEvents = pgTable('appeal_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  appeal_id: integer('appeal_id').notNull().references(() => appeals.id, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true }).notNull(),
  actor_id: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
  action: varchar('action', { length: 16, enum: appealActions }).notNull(),
  from_status: varchar('from_status', { length: 16, enum: appealStatuses }),
  to_status: varchar('to_status', { length: 16, enum: appealStatuses }).notNull(),
  reason: varchar('reason', { length: 1000 }),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
}, (t) => [
  index('appeal_events_appeal_idx').on(t.appeal_id, t.id),
  oneOf('appeal_events_action_check', t.action, appealActions),
  oneOf('appeal_events_from_status_check', t.from_status, appealStatuses),
  oneOf('appeal_events_to_status_check', t.to_status, appealStatuses),
])

/** The last registration number given in each year: a row lock on it keeps numbers gapless across instances. */
export const appealCounters = pgTable('appeal_counters', {
  year: integer('year').primaryKey(),
  last_number: integer('last_number').notNull(),
})

export const calendarDayKinds = ['holiday', 'working'] as const
export type CalendarDayKind = typeof calendarDayKinds[number]

/** Exceptions to the Monday-Friday week: public holidays, and Saturdays or Sundays made working days. */
export const calendarDays = pgTable('calendar_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  kind: varchar('kind', { length: 8, enum: calendarDayKinds }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  /** the name in Kazakh; null when none was given */
  name_kk: varchar('name_kk', { length: 255 }),
}, (t) => [oneOf('calendar_days_kind_check', t.kind, calendarDayKinds)])
