import { and, gte, lt, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { llmCalls } from '../../db/schema/index.js'

export type LlmCallRecord = typeof llmCalls.$inferInsert
export type LlmTask = LlmCallRecord['task']

export function createLlmRepo (db: AppDb) {
  return {
    /** accounting rows, in one statement */
    recordMany: async (rows: LlmCallRecord[]): Promise<void> => { await db.insert(llmCalls).values(rows) },

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
