import { sql } from 'drizzle-orm'
import { index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import { appeals } from './appeals.js'
import { oneOf } from './checks.js'

/** DESIGN 7.4: how a notification travels */
export const notificationChannels = ['email', 'sms'] as const
export type NotificationChannel = typeof notificationChannels[number]
export const notificationStatuses = ['pending', 'sent', 'failed'] as const
export type NotificationStatus = typeof notificationStatuses[number]
/** what it tells: the citizen of an answer or a redirect, an executor's managers of an assignment or a breach */
export const notificationKinds = ['answer', 'redirect', 'assign', 'overdue'] as const
export type NotificationKind = typeof notificationKinds[number]

/**
 * The one outbox of DESIGN 7.4: rows written in the transaction of the change they tell about,
 * delivered at least once by a worker, retried with backoff, `failed` after the last attempt.
 */
export const notifications = pgTable('notifications', {
  id: serial('id').primaryKey(),
  /** the same notification enqueued twice is one row */
  idempotency_key: varchar('idempotency_key', { length: 200 }).notNull().unique('notifications_idempotency_key_unique'),
  channel: varchar('channel', { length: 8, enum: notificationChannels }).notNull(),
  kind: varchar('kind', { length: 16, enum: notificationKinds }).notNull(),
  recipient: varchar('recipient', { length: 254 }).notNull(),
  subject: varchar('subject', { length: 300 }),
  body: text('body').notNull(),
  appeal_id: integer('appeal_id').references(() => appeals.id, { onDelete: 'set null' }),
  status: varchar('status', { length: 8, enum: notificationStatuses }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  /** a worker holds the row until then; after a crash another takes it over */
  locked_until: timestamp('locked_until', { withTimezone: true }),
  last_error: text('last_error'),
  /** what the far side called it: the SMTP message id or the SMSC's message_id */
  provider_id: varchar('provider_id', { length: 200 }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sent_at: timestamp('sent_at', { withTimezone: true }),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('notifications_due_idx').on(t.channel, t.next_attempt_at).where(sql`${t.status} = 'pending'`),
  index('notifications_status_idx').on(t.status, t.id),
  index('notifications_appeal_idx').on(t.appeal_id),
  oneOf('notifications_channel_check', t.channel, notificationChannels),
  oneOf('notifications_status_check', t.status, notificationStatuses),
  oneOf('notifications_kind_check', t.kind, notificationKinds),
])
