import { sql } from 'drizzle-orm'
import { check, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { users } from './users.js'

export const agentChoiceStates = ['ready', 'break'] as const
/** what an operator chooses at the desk */
export type AgentChoiceState = typeof agentChoiceStates[number]

/**
 * The state an operator chose at the desk, which the service puts back into Asterisk when the
 * operator's console opens again or Asterisk restarts. Asterisk's queue member pause is the truth
 * of the moment (a pause made on the PBX shows); this is the operator's wish.
 */
export const agentChoices = pgTable('agent_choices', {
  user_id: integer('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  state: varchar('state', { length: 5, enum: agentChoiceStates }).notNull(),
  /** a break's reason (lunch, training...); null when ready */
  reason: varchar('reason', { length: 40 }),
  changed_at: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [oneOf('agent_choices_state_check', t.state, agentChoiceStates)])

/**
 * The reasons an operator may go on a break for, as the administrator lists them: named in Russian
 * and Kazakh, each with the longest it may last (null: no limit), which the board holds against
 * the break's start. The code is what Asterisk's queue member pause carries.
 */
export const breakReasons = pgTable('break_reasons', {
  code: varchar('code', { length: 40 }).primaryKey(),
  name_ru: varchar('name_ru', { length: 60 }).notNull(),
  name_kk: varchar('name_kk', { length: 60 }).notNull(),
  max_minutes: integer('max_minutes'),
  sort_order: integer('sort_order').notNull().default(0),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [check('break_reasons_max_minutes_check', sql`${t.max_minutes} is null or ${t.max_minutes} between 1 and 480`)])
