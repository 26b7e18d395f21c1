import { asc, eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { organizationGroups } from '../../db/schema/index.js'
import { groupMemberCount } from '../organizations/queries.js'

export type GroupRow = typeof organizationGroups.$inferSelect

const columns = { id: organizationGroups.id, name: organizationGroups.name }

export function createGroupRepo (db: AppDb) {
  return {
    list: () => db.select(columns).from(organizationGroups).orderBy(asc(organizationGroups.name), asc(organizationGroups.id)),
    findById: async (id: number) => (await db.select(columns).from(organizationGroups).where(eq(organizationGroups.id, id)))[0],
    insert: async (name: string) => (await db.insert(organizationGroups).values({ name }).returning(columns))[0]!,
    rename: async (id: number, name: string) =>
      (await db.update(organizationGroups).set({ name }).where(eq(organizationGroups.id, id)).returning(columns))[0],
    organizationCount: (id: number) => groupMemberCount(db, id),
    remove: async (id: number) =>
      (await db.delete(organizationGroups).where(eq(organizationGroups.id, id)).returning({ id: organizationGroups.id }))[0],
  }
}

export type GroupRepo = ReturnType<typeof createGroupRepo>
