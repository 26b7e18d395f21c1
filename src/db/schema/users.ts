import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { organizations } from './organizations.js'

export const roles = ['admin', 'manager', 'operator'] as const
export const userTypes = ['staff', 'platform'] as const
export type Role = typeof roles[number]
export type UserType = typeof userTypes[number]

/** Employees: the users of the service. */
export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  /** the login identifier, stored lower-case */
  email: varchar('email', { length: 254 }).notNull(),
  password_hash: text('password_hash'),
  last_name: varchar('last_name', { length: 100 }).notNull().default(''),
  first_name: varchar('first_name', { length: 100 }).notNull().default(''),
  middle_name: varchar('middle_name', { length: 100 }),
  organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'restrict' }),
  position: varchar('position', { length: 255 }),
  phone: varchar('phone', { length: 16 }),
  modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
  user_type: varchar('user_type', { length: 16, enum: userTypes }).notNull().default('staff'),
  role: varchar('role', { length: 16, enum: roles }).notNull().default('operator'),
  is_active: boolean('is_active').notNull().default(true),
  must_change_password: boolean('must_change_password').notNull().default(false),
  /** bumped by a password change or reset: tokens carrying an older version are refused */
  token_version: integer('token_version').notNull().default(0),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('users_email_unique').on(t.email),
  index('users_organization_idx').on(t.organization_id),
  oneOf('users_role_check', t.role, roles),
  oneOf('users_user_type_check', t.user_type, userTypes),
])

export const authTokenPurposes = ['invite', 'reset'] as const
export type AuthTokenPurpose = typeof authTokenPurposes[number]

/** Invitation and password-reset tokens; only a SHA-256 of the token is stored. */
export const authTokens = pgTable('auth_tokens', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  purpose: varchar('purpose', { length: 16, enum: authTokenPurposes }).notNull(),
  token_hash: varchar('token_hash', { length: 64 }).notNull(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  used_at: timestamp('used_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('auth_tokens_hash_unique').on(t.token_hash),
  index('auth_tokens_user_idx').on(t.user_id, t.purpose),
  oneOf('auth_tokens_purpose_check', t.purpose, authTokenPurposes),
])

/** Failed logins, per account and per client address, shared by every instance. */
export const loginFailures = pgTable('login_failures', {
  id: serial('id').primaryKey(),
  key: varchar('key', { length: 300 }).notNull(),
  failed_at: timestamp('failed_at', { withTimezone: true }).notNull(),
}, (t) => [index('login_failures_key_idx').on(t.key, t.failed_at)])

/** Mails kept when no SMTP server is configured (development), and a record of sent ones. */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  recipient: varchar('recipient', { length: 254 }).notNull(),
  subject: varchar('subject', { length: 300 }).notNull(),
  body: text('body').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Values the service generates once and every instance shares (the JWT signing key). */
export const serviceSettings = pgTable('service_settings', {
  key: varchar('key', { length: 100 }).primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
