import { eq, inArray } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { agentChoices, type AgentChoiceState } from '../../db/schema/index.js'
import { employeeTerminals } from '../endpoints/queries.js'

export function createAgentRepo (db: AppDb) {
  return {
    terminalsOf: (of: { employeeId?: number, organizationId?: number }) => employeeTerminals(db, of),
    choices: async (userIds: number[]) => userIds.length === 0
      ? new Map<number, typeof agentChoices.$inferSelect>()
      : new Map((await db.select().from(agentChoices).where(inArray(agentChoices.user_id, userIds))).map((c) => [c.user_id, c])),
    choice: async (userId: number) => (await db.select().from(agentChoices).where(eq(agentChoices.user_id, userId)))[0],
    choose: async (userId: number, state: AgentChoiceState, reason: string | null, at: Date) =>
      (await db.insert(agentChoices).values({ user_id: userId, state, reason, changed_at: at })
        .onConflictDoUpdate({ target: agentChoices.user_id, set: { state, reason, changed_at: at } }).returning())[0]!,
  }
}

export type AgentRepo = ReturnType<typeof createAgentRepo>
