import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { inboundLines, prompts } from './call-routing.js'
import { organizations } from './organizations.js'
import { users } from './users.js'

// A line closed at a switch (issue 49): supervisors close a line now, with its own announcement,
// until a time or until they open it again. Every switch is a row (the audit of who did what when);
// a line's state is its latest row. Asterisk reads the state from its own database (DESIGN 9).

export const lineSwitchActions = ['close', 'open'] as const

export const lineSwitches = pgTable('line_switches', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  line_id: integer('line_id').notNull().references(() => inboundLines.id, { onDelete: 'cascade' }),
  action: varchar('action', { length: 5, enum: lineSwitchActions }).notNull(),
  reason: varchar('reason', { length: 200 }),
  /** null on a closing: until opened again */
  until: timestamp('until', { withTimezone: true }),
  /** what the caller hears while closed; null: nothing, the call ends */
  prompt_id: integer('prompt_id').references(() => prompts.id, { onDelete: 'set null' }),
  user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  oneOf('line_switches_action_check', t.action, lineSwitchActions),
  check('line_switches_reason_check', sql`${t.action} = 'open' or ${t.reason} is not null`),
  index('line_switches_line_idx').on(t.line_id, t.id.desc()),
  index('line_switches_organization_idx').on(t.organization_id, t.id.desc()),
])
