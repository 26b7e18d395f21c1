import { sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { queues } from '../../db/schema/index.js'

/* What other modules may ask of the call routing's tables (their owner is this module). */

/** every organization has its own queue (`org<prefix>-queue`, dialled as 0 inside it, every terminal a member) from its creation */
export async function createDefaultQueue (db: AppDb, organizationId: number): Promise<void> {
  await db.insert(queues).values({ organization_id: organizationId, name: 'Очередь организации', is_default: true, all_terminals: true, ring_timeout: 20 })
}

/** the organization's queues, correlated to the caller's row (Shape B's queues_count) */
export const queueCountOf = (organizationId: SQLWrapper) =>
  sql<number>`(select count(*)::int from ${queues} q where q.organization_id = ${organizationId})`
