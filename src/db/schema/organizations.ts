import { sql } from 'drizzle-orm'
import { oneOf } from './checks.js'
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core'
import { organizationGroups } from './groups.js'
import { regions } from './regions.js'

/** One organization entity behind the three shapes of the interface (DESIGN 5.5). */
export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  /** 3 digits; the first digits of its SIP terminals' ids */
  prefix: varchar('prefix', { length: 3 }).notNull().unique('organizations_prefix_unique'),
  region_id: integer('region_id').references(() => regions.id, { onDelete: 'restrict' }),
  modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
  is_active: boolean('is_active').notNull().default(true),
  max_queues: integer('max_queues').notNull().default(10),
  max_operators: integer('max_operators').notNull().default(100),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('organizations_region_idx').on(t.region_id)])

/**
 * Counts the organization lists show, kept by triggers on users and sip_terminals (migration 0019)
 * so that a list of a thousand organizations reads them from one row each, not by counting per row.
 */
export const organizationCounters = pgTable('organization_counters', {
  organization_id: integer('organization_id').primaryKey().references(() => organizations.id, { onDelete: 'cascade' }),
  /** active employees */
  employees: integer('employees').notNull().default(0),
  /** active employees whose role is operator */
  operators: integer('operators').notNull().default(0),
  terminals: integer('terminals').notNull().default(0),
})

export const organizationGroupLinks = pgTable('organization_group_links', {
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  group_id: integer('group_id').notNull().references(() => organizationGroups.id, { onDelete: 'restrict' }),
}, (t) => [primaryKey({ columns: [t.organization_id, t.group_id] }), index('organization_group_links_group_idx').on(t.group_id)])

export const notificationSettings = pgTable('notification_settings', {
  organization_id: integer('organization_id').primaryKey().references(() => organizations.id, { onDelete: 'cascade' }),
  is_active: boolean('is_active').notNull().default(false),
  partner_uuid: uuid('partner_uuid').unique('notification_settings_partner_uuid_unique'),
  call_local: boolean('call_local').notNull().default(true),
  call_longdistance: boolean('call_longdistance').notNull().default(false),
  call_mobile: boolean('call_mobile').notNull().default(false),
  cli_route_id: integer('cli_route_id'),
  sms_enabled: boolean('sms_enabled').notNull().default(false),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const extSyncStatuses = ['pending', 'synced', 'failed', 'disabled'] as const
export type ExtSyncStatus = typeof extSyncStatuses[number]

/**
 * The durable outbox of the synchronisation to the external system: one row per organization holding
 * its latest state. Written in the same transaction as the change; `version` grows with every change,
 * so a worker that sent an older version leaves the row pending for the newer one.
 */
export const extSyncOutbox = pgTable('ext_sync_outbox', {
  organization_id: integer('organization_id').primaryKey(),
  version: integer('version').notNull().default(1),
  payload: jsonb('payload').notNull(),
  status: varchar('status', { length: 16, enum: extSyncStatuses }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  /** a worker holds the row until then; after a crash another takes it over */
  locked_until: timestamp('locked_until', { withTimezone: true }),
  last_error: text('last_error'),
  synced_at: timestamp('synced_at', { withTimezone: true }),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('ext_sync_outbox_due_idx').on(t.status, t.next_attempt_at), oneOf('ext_sync_outbox_status_check', t.status, extSyncStatuses)])
