import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { users } from './users.js'

export const llmTasks = ['complete', 'simple', 'stream', 'summarize', 'translate', 'classify', 'check-response'] as const
export const llmOutcomes = ['ok', 'error', 'aborted'] as const

/** One gateway call, for accounting: never the prompt text unless LLM_LOG_PROMPTS is on. */
export const llmCalls = pgTable('llm_calls', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  task: varchar('task', { length: 32, enum: llmTasks }).notNull(),
  /** the provider and model that answered, or the last one tried */
  provider: varchar('provider', { length: 64 }).notNull(),
  model: varchar('model', { length: 255 }).notNull(),
  prompt_tokens: integer('prompt_tokens').notNull().default(0),
  completion_tokens: integer('completion_tokens').notNull().default(0),
  total_tokens: integer('total_tokens').notNull().default(0),
  latency_ms: integer('latency_ms').notNull(),
  attempts: integer('attempts').notNull().default(1),
  outcome: varchar('outcome', { length: 16, enum: llmOutcomes }).notNull(),
  error: text('error'),
  redacted: boolean('redacted').notNull().default(false),
  user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  /** only with LLM_LOG_PROMPTS=true: the messages as sent (redacted) and the answer */
  prompt: jsonb('prompt'),
  answer: text('answer'),
}, (t) => [
  index('llm_calls_created_idx').on(t.created_at),
  oneOf('llm_calls_task_check', t.task, llmTasks), oneOf('llm_calls_outcome_check', t.outcome, llmOutcomes),
])
