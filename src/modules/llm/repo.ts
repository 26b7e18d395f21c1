import { and, gte, lt, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { llmCalls } from '../../db/schema/index.js'

export type LlmCallRecord = typeof llmCalls.$inferInsert
export type LlmTask = LlmCallRecord['task']

export function createLlmRepo (db: AppDb) {
  return {
    /**
     * Accounting rows, in one statement with one parameter: a batch of 200 rows as values took a
     * parameter for each of their 3,200 fields, and building them held the event loop for milliseconds.
     */
    recordMany: async (rows: LlmCallRecord[]): Promise<void> => {
      await db.execute(sql`insert into ${llmCalls} (created_at, task, provider, model, prompt_tokens, completion_tokens, total_tokens, latency_ms, attempts, outcome, error, redacted, user_id, prompt, answer)
        select coalesce(r.created_at, now()), r.task, r.provider, r.model, coalesce(r.prompt_tokens, 0), coalesce(r.completion_tokens, 0), coalesce(r.total_tokens, 0),
          r.latency_ms, coalesce(r.attempts, 1), r.outcome, r.error, coalesce(r.redacted, false), r.user_id, r.prompt, r.answer
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(created_at timestamptz, task varchar, provider varchar, model varchar, prompt_tokens int, completion_tokens int,
          total_tokens int, latency_ms int, attempts int, outcome varchar, error text, redacted boolean, user_id int, prompt jsonb, answer text)`)
    },

    /** sums by UTC day, provider and task over [from, to) */
    async usage (from: Date, to: Date) {
      const day = sql<string>`to_char(${llmCalls.created_at} at time zone 'UTC', 'YYYY-MM-DD')`
      return db.select({
        day,
        provider: llmCalls.provider,
        task: llmCalls.task,
        calls: sql<number>`count(*)::int`,
        failures: sql<number>`(count(*) filter (where ${llmCalls.outcome} <> 'ok'))::int`,
        prompt_tokens: sql<number>`coalesce(sum(${llmCalls.prompt_tokens}), 0)::float8`,
        completion_tokens: sql<number>`coalesce(sum(${llmCalls.completion_tokens}), 0)::float8`,
        total_tokens: sql<number>`coalesce(sum(${llmCalls.total_tokens}), 0)::float8`,
        avg_latency_ms: sql<number>`round(avg(${llmCalls.latency_ms}))::int`,
      }).from(llmCalls)
        .where(and(gte(llmCalls.created_at, from), lt(llmCalls.created_at, to)))
        .groupBy(day, llmCalls.provider, llmCalls.task)
        .orderBy(day, llmCalls.provider, llmCalls.task)
    },
  }
}

export type LlmRepo = ReturnType<typeof createLlmRepo>
