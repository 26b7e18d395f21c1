import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'

/** A seeded list: renamed or deactivated through the API, never created by it. */
const seededColumns = (table: string) => ({
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull().unique(`${table}_name_unique`),
  name_kk: varchar('name_kk', { length: 255 }),
  sort_order: integer('sort_order').notNull().default(0),
  is_active: boolean('is_active').notNull().default(true),
})
const seededList = (table: string) => pgTable(table, seededColumns(table))

/** Where appeals come from (phone 109, Telegram, ...). */
export const sources = seededList('sources')
/** the channel a response method's notifications travel by; null: told by other means (a call, a letter) */
export const responseChannels = ['email', 'sms'] as const
/** How the citizen wants the answer (phone call, SMS, ...). */
export const responseMethods = pgTable('response_methods', {
  ...seededColumns('response_methods'),
  channel: varchar('channel', { length: 8, enum: responseChannels }),
}, (t) => [oneOf('response_methods_channel_check', t.channel, responseChannels)])

/** Citizens who appeal. Trigram indexes serve the substring search of DESIGN 5.2. */
export const persons = pgTable('persons', {
  id: serial('id').primaryKey(),
  full_name: varchar('full_name', { length: 255 }).notNull(),
  iin: varchar('iin', { length: 12 }),
  phone: varchar('phone', { length: 16 }),
  email: varchar('email', { length: 254 }),
  is_active: boolean('is_active').notNull().default(true),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('persons_iin_unique').on(t.iin),
  index('persons_phone_idx').on(t.phone),
  // prefix matches, in name order: LIKE 'text%' and ORDER BY on the same C-collated expression
  index('persons_name_prefix_idx').on(sql`(lower(${t.full_name}) collate "C")`),
  index('persons_full_name_trgm').using('gin', sql`lower(${t.full_name}) gin_trgm_ops`),
  // whole words of the name: a name and patronymic typed find their persons without any trigram
  index('persons_full_name_words').using('gin', sql`to_tsvector('simple', lower(${t.full_name}))`),
  index('persons_email_trgm').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
  index('persons_iin_trgm').using('gin', sql`${t.iin} gin_trgm_ops`),
  index('persons_phone_trgm').using('gin', sql`${t.phone} gin_trgm_ops`),
])
