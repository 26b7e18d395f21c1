import { sql } from 'drizzle-orm'
import { type PgTableExtraConfigValue, boolean, jsonb, check, customType, foreignKey, index, integer, pgTable, primaryKey, serial, smallint, time, timestamp, unique, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { sipTerminals } from './endpoints.js'
import { organizations } from './organizations.js'

// How a citizen's call goes through an organization (DESIGN 9): inbound lines, schedules, menus,
// queues and recorded prompts. Every reference between them is a foreign key that also names the
// organization, so the database itself keeps a destination within its tenant and refuses to delete
// what is still used (409). An organization's routing goes with it, but not while it owns a line: a
// public number is moved or given up first.

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/** Asterisk 22's queue strategies */
export const queueStrategies = ['ringall', 'leastrecent', 'fewestcalls', 'random', 'rrmemory', 'rrordered', 'linear', 'wrandom'] as const
export const promptLanguages = ['ru', 'kk'] as const
export const scheduleKinds = ['calendar', 'always', 'weekly'] as const
/** where a call goes: a queue, a terminal, a menu, a recorded announcement (then the call ends), or nowhere */
export const destinationKinds = ['queue', 'terminal', 'menu', 'announcement', 'hangup'] as const
/** whether a line's answered calls are recorded (DESIGN 10) */
export const lineRecordingModes = ['always', 'off'] as const
export type DestinationKind = typeof destinationKinds[number]

export const prompts = pgTable('prompts', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 100 }).notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [unique('prompts_organization_id_unique').on(t.organization_id, t.id)])

/** what a prompt's recording was made from: the uploaded file, or the administrator's phone */
export interface RecordingSource {
  format: string, codec: string, sample_rate: number, channels: number, duration_ms: number, gain_db: number
  /** recorded by phone: at which terminal, by which employee */
  terminal?: string, employee_id?: number | null
}

/** one recording of a prompt per language: a WAV file of 16-bit mono PCM at 8 or 16 kHz */
export const promptRecordings = pgTable('prompt_recordings', {
  prompt_id: integer('prompt_id').notNull().references(() => prompts.id, { onDelete: 'cascade' }),
  language: varchar('language', { length: 2, enum: promptLanguages }).notNull(),
  sample_rate: integer('sample_rate').notNull(),
  duration_ms: integer('duration_ms').notNull(),
  size_bytes: integer('size_bytes').notNull(),
  wav: bytea('wav').notNull(),
  /** null for a recording kept before conversions were (migration 0051) */
  source: jsonb('source').$type<RecordingSource>(),
  uploaded_at: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.prompt_id, t.language] }), oneOf('prompt_recordings_language_check', t.language, promptLanguages)])

export const schedules = pgTable('schedules', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 100 }).notNull(),
  /** calendar: the centre's working calendar (WORK_HOURS, holidays, worked weekend days); always: 24/7; weekly: its hours */
  kind: varchar('kind', { length: 10, enum: scheduleKinds }).notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [unique('schedules_organization_id_unique').on(t.organization_id, t.id), oneOf('schedules_kind_check', t.kind, scheduleKinds)])

/** a weekly schedule's open hours: ISO weekday 1 (Monday) to 7, from `opens` to `closes` the same day */
export const scheduleHours = pgTable('schedule_hours', {
  schedule_id: integer('schedule_id').notNull().references(() => schedules.id, { onDelete: 'cascade' }),
  weekday: smallint('weekday').notNull(),
  opens: time('opens').notNull(),
  closes: time('closes').notNull(),
}, (t) => [
  primaryKey({ columns: [t.schedule_id, t.weekday, t.opens] }),
  check('schedule_hours_weekday_check', sql`${t.weekday} between 1 and 7`),
  check('schedule_hours_order_check', sql`${t.opens} < ${t.closes}`),
])

const destinationKind = (name: string) => varchar(name, { length: 12, enum: destinationKinds }).notNull().default('hangup')
const reference = (name: string) => integer(name)
const terminalReference = (name: string) => varchar(name, { length: 40 })

type DestinationColumns<P extends string> = Record<`${P}_kind`, ReturnType<typeof destinationKind>>
  & Record<`${P}_queue_id` | `${P}_menu_id` | `${P}_prompt_id`, ReturnType<typeof reference>>
  & Record<`${P}_terminal_id`, ReturnType<typeof terminalReference>>

/**
 * A destination's columns under a prefix: its kind and the id of the one thing it names. The check
 * keeps exactly the kind's column set; the foreign keys (declared by each table) keep it in the tenant.
 */
function destinationColumns<P extends string> (prefix: P): DestinationColumns<P> {
  return {
    [`${prefix}_kind`]: destinationKind(`${prefix}_kind`),
    [`${prefix}_queue_id`]: reference(`${prefix}_queue_id`),
    [`${prefix}_terminal_id`]: terminalReference(`${prefix}_terminal_id`),
    [`${prefix}_menu_id`]: reference(`${prefix}_menu_id`),
    [`${prefix}_prompt_id`]: reference(`${prefix}_prompt_id`),
  } as DestinationColumns<P>
}

type DestinationTable = Record<string, unknown>
/** the check and the tenant's foreign keys of a destination's columns */
function destinationConstraints (table: string, prefix: string, t: DestinationTable, organizationId: unknown): PgTableExtraConfigValue[] {
  const c = (name: string) => t[`${prefix}_${name}`] as never
  return [
    check(`${table}_${prefix}_check`, sql`num_nonnulls(${c('queue_id')}, ${c('terminal_id')}, ${c('menu_id')}, ${c('prompt_id')}) = (${c('kind')} <> 'hangup')::int
      and case ${c('kind')} when 'queue' then ${c('queue_id')} is not null when 'terminal' then ${c('terminal_id')} is not null
      when 'menu' then ${c('menu_id')} is not null when 'announcement' then ${c('prompt_id')} is not null else true end`),
    oneOf(`${table}_${prefix}_kind_check`, c('kind'), destinationKinds),
    foreignKey({ name: `${table}_${prefix}_queue_fk`, columns: [organizationId as never, c('queue_id')], foreignColumns: [queues.organization_id, queues.id] }),
    foreignKey({ name: `${table}_${prefix}_terminal_fk`, columns: [organizationId as never, c('terminal_id')], foreignColumns: [sipTerminals.organization_id, sipTerminals.id] }),
    foreignKey({ name: `${table}_${prefix}_menu_fk`, columns: [organizationId as never, c('menu_id')], foreignColumns: [menus.organization_id, menus.id] }),
    foreignKey({ name: `${table}_${prefix}_prompt_fk`, columns: [organizationId as never, c('prompt_id')], foreignColumns: [prompts.organization_id, prompts.id] }),
  ]
}

export const queues = pgTable('queues', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 100 }).notNull(),
  /** the organization's own queue (`org<prefix>-queue`, dialled as 0 inside it): one each, never deleted */
  is_default: boolean('is_default').notNull().default(false),
  /** every terminal of the organization is a member (penalty 0), besides the members listed */
  all_terminals: boolean('all_terminals').notNull().default(false),
  strategy: varchar('strategy', { length: 12, enum: queueStrategies }).notNull().default('rrmemory'),
  /** seconds a member's phone rings */
  ring_timeout: integer('ring_timeout').notNull().default(20),
  /** seconds before the next try after a round rang out */
  retry: integer('retry').notNull().default(5),
  /** seconds after a call before the member is rung again */
  wrapup_time: integer('wrapup_time').notNull().default(5),
  /** callers waiting at most; 0: no limit */
  max_callers: integer('max_callers').notNull().default(0),
  /** seconds within which an answer counts for the service level */
  service_level: integer('service_level').notNull().default(20),
  music_class: varchar('music_class', { length: 40 }).notNull().default('default'),
  announce_position: boolean('announce_position').notNull().default(false),
  announce_holdtime: boolean('announce_holdtime').notNull().default(false),
  /** a prompt played to waiting callers every `periodic_announce_seconds` */
  periodic_prompt_id: integer('periodic_prompt_id'),
  periodic_announce_seconds: integer('periodic_announce_seconds').notNull().default(60),
  /** seconds a caller waits at most; then the overflow destination (null: waits on) */
  max_wait: integer('max_wait'),
  ...destinationColumns('overflow'),
  /** a rating menu the caller hears after the operator hangs up (digits 1-5); null: none */
  rating_prompt_id: integer('rating_prompt_id'),
  /** seconds the rating menu waits for a digit */
  rating_timeout: integer('rating_timeout').notNull().default(5),
  /** a callback instead of waiting (issue 50): after this many seconds a waiting caller hears the offer, repeated as often; null: none */
  callback_offer_after: integer('callback_offer_after'),
  /** the offer, in the caller's language: "press 1 to keep your place, we call you back" */
  callback_prompt_id: integer('callback_prompt_id'),
  /** attempts to reach the caller after the first that do not reach them, `callback_retry_interval` seconds apart */
  callback_retries: integer('callback_retries').notNull().default(2),
  callback_retry_interval: integer('callback_retry_interval').notNull().default(300),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t): PgTableExtraConfigValue[] => [
  unique('queues_organization_id_unique').on(t.organization_id, t.id),
  index('queues_organization_idx').on(t.organization_id),
  uniqueIndex('queues_default_unique').on(t.organization_id).where(sql`${t.is_default}`),
  oneOf('queues_strategy_check', t.strategy, queueStrategies),
  foreignKey({ name: 'queues_periodic_prompt_fk', columns: [t.organization_id, t.periodic_prompt_id], foreignColumns: [prompts.organization_id, prompts.id] }),
  foreignKey({ name: 'queues_rating_prompt_fk', columns: [t.organization_id, t.rating_prompt_id], foreignColumns: [prompts.organization_id, prompts.id] }),
  foreignKey({ name: 'queues_callback_prompt_fk', columns: [t.organization_id, t.callback_prompt_id], foreignColumns: [prompts.organization_id, prompts.id] }),
  check('queues_callback_check', sql`${t.callback_offer_after} is null or ${t.callback_prompt_id} is not null`),
  ...destinationConstraints('queues', 'overflow', t, t.organization_id),
])

export const queueMembers = pgTable('queue_members', {
  organization_id: integer('organization_id').notNull(),
  queue_id: integer('queue_id').notNull(),
  terminal_id: varchar('terminal_id', { length: 40 }).notNull(),
  penalty: integer('penalty').notNull().default(0),
}, (t) => [
  primaryKey({ columns: [t.queue_id, t.terminal_id] }),
  index('queue_members_terminal_idx').on(t.terminal_id),
  foreignKey({ name: 'queue_members_queue_fk', columns: [t.organization_id, t.queue_id], foreignColumns: [queues.organization_id, queues.id] }).onDelete('cascade'),
  foreignKey({ name: 'queue_members_terminal_fk', columns: [t.organization_id, t.terminal_id], foreignColumns: [sipTerminals.organization_id, sipTerminals.id] }).onDelete('cascade'),
])

export const menus = pgTable('menus', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 100 }).notNull(),
  prompt_id: integer('prompt_id'),
  /** seconds to wait for a digit after the prompt */
  timeout: integer('timeout').notNull().default(5),
  /** how many times the prompt is played before the timeout destination */
  attempts: integer('attempts').notNull().default(2),
  ...destinationColumns('timeout'),
  ...destinationColumns('invalid'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t): PgTableExtraConfigValue[] => [
  unique('menus_organization_id_unique').on(t.organization_id, t.id),
  index('menus_organization_idx').on(t.organization_id),
  foreignKey({ name: 'menus_prompt_fk', columns: [t.organization_id, t.prompt_id], foreignColumns: [prompts.organization_id, prompts.id] }),
  ...destinationConstraints('menus', 'timeout', t, t.organization_id),
  ...destinationConstraints('menus', 'invalid', t, t.organization_id),
])

/** a digit of a menu: where it leads, and the language it sets for the rest of the call */
export const menuOptions = pgTable('menu_options', {
  organization_id: integer('organization_id').notNull(),
  menu_id: integer('menu_id').notNull(),
  digit: varchar('digit', { length: 1 }).notNull(),
  language: varchar('language', { length: 2, enum: promptLanguages }),
  ...destinationColumns('dest'),
}, (t): PgTableExtraConfigValue[] => [
  primaryKey({ columns: [t.menu_id, t.digit] }),
  check('menu_options_digit_check', sql`${t.digit} ~ '^[0-9*#]$'`),
  oneOf('menu_options_language_check', t.language, promptLanguages),
  foreignKey({ name: 'menu_options_menu_fk', columns: [t.organization_id, t.menu_id], foreignColumns: [menus.organization_id, menus.id] }).onDelete('cascade'),
  ...destinationConstraints('menu_options', 'dest', t, t.organization_id),
])

/** a number the public network delivers to the centre, owned by one organization */
export const inboundLines = pgTable('inbound_lines', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'restrict' }),
  /** as the trunk delivers it: a short number (109) or a full one (+77172...) */
  number: varchar('number', { length: 20 }).notNull().unique('inbound_lines_number_unique'),
  name: varchar('name', { length: 100 }).notNull(),
  /** null: open at all hours */
  schedule_id: integer('schedule_id'),
  ...destinationColumns('dest'),
  ...destinationColumns('closed'),
  /** always: every answered call is recorded (its legs, from the operator's answer); off: none */
  recording: varchar('recording', { length: 8, enum: lineRecordingModes }).notNull().default('always'),
  /** the prompt that tells the caller the call is recorded, played when the line is open, before its destination */
  recording_prompt_id: integer('recording_prompt_id'),
  /** the channel's language before any choice: which recording of a prompt the caller hears until a menu sets another */
  language: varchar('language', { length: 2, enum: promptLanguages }).notNull().default('ru'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t): PgTableExtraConfigValue[] => [
  oneOf('inbound_lines_language_check', t.language, promptLanguages),
  index('inbound_lines_organization_idx').on(t.organization_id),
  foreignKey({ name: 'inbound_lines_schedule_fk', columns: [t.organization_id, t.schedule_id], foreignColumns: [schedules.organization_id, schedules.id] }),
  foreignKey({ name: 'inbound_lines_recording_prompt_fk', columns: [t.organization_id, t.recording_prompt_id], foreignColumns: [prompts.organization_id, prompts.id] }),
  oneOf('inbound_lines_recording_check', t.recording, lineRecordingModes),
  ...destinationConstraints('inbound_lines', 'dest', t, t.organization_id),
  ...destinationConstraints('inbound_lines', 'closed', t, t.organization_id),
])
