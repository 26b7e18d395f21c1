import { boolean, index, integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import { regions } from './regions.js'

/** One organization entity behind the three shapes of the interface (DESIGN 5.5). */
export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  prefix: varchar('prefix', { length: 3 }).notNull().unique('organizations_prefix_unique'),
  region_id: integer('region_id').references(() => regions.id, { onDelete: 'restrict' }),
  is_active: boolean('is_active').notNull().default(true),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('organizations_region_idx').on(t.region_id)])
