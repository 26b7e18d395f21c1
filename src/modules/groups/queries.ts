import { inArray, sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { organizationGroups } from '../../db/schema/index.js'

/* What other modules may ask of the groups table (its owner is this module). */

/** the name of the group with this id, correlated to the caller's row */
export const groupName = (groupId: SQLWrapper) => sql<string>`(select g.name from ${organizationGroups} g where g.id = ${groupId})`

/** those of the ids that name a group */
export const existingGroupIds = async (db: AppDb, ids: number[]) =>
  (await db.select({ id: organizationGroups.id }).from(organizationGroups).where(inArray(organizationGroups.id, ids))).map((g) => g.id)
