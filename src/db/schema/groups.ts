import { pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core'

/** Named groups of organizations (interface 2.5). */
export const organizationGroups = pgTable('organization_groups', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull().unique('organization_groups_name_unique'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
