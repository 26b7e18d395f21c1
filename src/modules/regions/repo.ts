import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { regions } from '../../db/schema/index.js'
import { organizationCountInRegion } from '../organizations/queries.js'
import { allRegions } from './queries.js'

export type RegionRow = typeof regions.$inferSelect

export function createRegionRepo (db: AppDb) {
  return {
    /** every region, in display order: the table is small (a country's regions and districts) */
    all: () => allRegions(db),
    /** just what the tree shows, in display order */
    treeRows: (includeInactive: boolean) => db.select({
      id: regions.id, name: regions.name, parent_id: regions.parent_id, phone_code: regions.phone_code,
      phone_zone: regions.phone_zone, is_active: regions.is_active,
    }).from(regions).where(includeInactive ? undefined : eq(regions.is_active, true))
      .orderBy(asc(regions.sort_order), asc(regions.name), asc(regions.id)),
    findById: async (id: number) => (await db.select().from(regions).where(eq(regions.id, id)))[0],
    findByIds: (ids: number[]) => db.select().from(regions).where(inArray(regions.id, ids)),
    siblings: (parentId: number | null) => db.select().from(regions)
      .where(parentId === null ? isNull(regions.parent_id) : eq(regions.parent_id, parentId))
      .orderBy(asc(regions.sort_order), asc(regions.name), asc(regions.id)),
    nextSortOrder: async (parentId: number | null) => (await db.select({ n: sql<number>`coalesce(max(${regions.sort_order}) + 1, 0)::int` }).from(regions)
      .where(parentId === null ? isNull(regions.parent_id) : eq(regions.parent_id, parentId)))[0]!.n,
    insert: async (values: typeof regions.$inferInsert) => (await db.insert(regions).values(values).returning())[0]!,
    update: async (id: number, values: Partial<typeof regions.$inferInsert>) =>
      (await db.update(regions).set(values).where(eq(regions.id, id)).returning())[0],
    setSortOrder: async (id: number, sortOrder: number) => { await db.update(regions).set({ sort_order: sortOrder }).where(eq(regions.id, id)) },
    dependents: async (id: number) => ({
      children: (await db.select({ n: count() }).from(regions).where(eq(regions.parent_id, id)))[0]!.n,
      organizations: await organizationCountInRegion(db, id),
    }),
    remove: async (id: number) => { await db.delete(regions).where(and(eq(regions.id, id))) },
  }
}

export type RegionRepo = ReturnType<typeof createRegionRepo>
