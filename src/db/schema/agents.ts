import { integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
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
