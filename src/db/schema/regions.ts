import { boolean, index, integer, pgTable, serial, timestamp, unique, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core'

/** Oblasts and cities of republican significance at the top, their cities and districts below. */
export const regions = pgTable('regions', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  name_kk: varchar('name_kk', { length: 255 }),
  parent_id: integer('parent_id').references((): AnyPgColumn => regions.id, { onDelete: 'restrict' }),
  /** the region's own area code without +7 or 8: 7172, 727, 72533 */
  phone_code: varchar('phone_code', { length: 5 }),
  /** its 3-digit ABC zone, 710-729 */
  phone_zone: varchar('phone_zone', { length: 3 }),
  /** 10 - length of the area code */
  local_digits: integer('local_digits'),
  is_regional_center: boolean('is_regional_center').notNull().default(false),
  kato: varchar('kato', { length: 12 }),
  sort_order: integer('sort_order').notNull().default(0),
  is_active: boolean('is_active').notNull().default(true),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  unique('regions_parent_name_unique').on(t.parent_id, t.name).nullsNotDistinct(),
  index('regions_parent_idx').on(t.parent_id, t.sort_order),
])
