import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import { extSyncOutbox, notificationSettings, organizationCounters, organizationGroupLinks, organizations } from '../../db/schema/index.js'
import { employeeCountOf } from '../employees/queries.js'
import { createDefaultQueue, queueCountOf } from '../call-routing/queries.js'
import { terminalCountOf } from '../endpoints/queries.js'
import { existingGroupIds, groupName } from '../groups/queries.js'
import { regionExists, regionName } from '../regions/queries.js'

export interface OrganizationFilter {
  regionIds?: number[]
  includeInactive: boolean
  skip: number
  limit: number
  id?: number
  partnerUuid?: string
}

/**
 * Everything the three shapes show, in one statement: the counts from the maintained counters (one
 * row per organization, no counting); the region's name and the few groups are read by key.
 */
const organizationColumns = {
  id: organizations.id,
  name: organizations.name,
  prefix: organizations.prefix,
  region_id: organizations.region_id,
  region_name: regionName(organizations.region_id),
  modules: organizations.modules,
  is_active: organizations.is_active,
  max_queues: organizations.max_queues,
  max_operators: organizations.max_operators,
  created_at: organizations.created_at,
  groups: sql<{ id: number, name: string }[]>`coalesce((
    select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name, g.id)
    from (select l.group_id as id, ${groupName(sql`l.group_id`)} as name from ${organizationGroupLinks} l
      where l.organization_id = ${organizations.id}) g), '[]'::json)`,
  employee_count: sql<number>`coalesce(${organizationCounters.employees}, 0)`,
  operators_count: sql<number>`coalesce(${organizationCounters.operators}, 0)`,
  endpoints_count: sql<number>`coalesce(${organizationCounters.terminals}, 0)`,
  queues_count: queueCountOf(organizations.id),
  ext_sync_status: extSyncOutbox.status,
  ext_sync_error: extSyncOutbox.last_error,
  ext_synced_at: extSyncOutbox.synced_at,
}

export type OrganizationRow = Awaited<ReturnType<ReturnType<typeof createOrganizationRepo<AppDb>>['list']>>[number]

export function createOrganizationRepo<D extends AppDb> (db: D) {
  return {
    async list (f: OrganizationFilter) {
      const where: (SQL | undefined)[] = [
        f.includeInactive ? undefined : eq(organizations.is_active, true),
        f.regionIds === undefined ? undefined : inArray(organizations.region_id, f.regionIds.length > 0 ? f.regionIds : [-1]),
        f.id === undefined ? undefined : eq(organizations.id, f.id),
        f.partnerUuid === undefined ? undefined : eq(notificationSettings.partner_uuid, f.partnerUuid),
      ]
      const rows = await db.select(organizationColumns).from(organizations)
        .leftJoin(organizationCounters, eq(organizationCounters.organization_id, organizations.id))
        .leftJoin(extSyncOutbox, eq(extSyncOutbox.organization_id, organizations.id))
        .leftJoin(notificationSettings, eq(notificationSettings.organization_id, organizations.id))
        .where(and(...where))
        .orderBy(asc(organizations.name), asc(organizations.id))
        .offset(f.skip).limit(f.limit)
      // node-postgres parses json columns; PGlite too, but a driver may hand back text
      return rows.map((r) => ({ ...r, groups: typeof r.groups === 'string' ? JSON.parse(r.groups) as typeof r.groups : r.groups }))
    },

    findBasic: async (id: number) => (await db.select().from(organizations).where(eq(organizations.id, id)))[0],
    /** the row, locked until the transaction ends: a prefix change waits for a terminal being created, and the other way round */
    lockForUpdate: inTransactionOnly(db, async (tx, id: number) => (await tx.select().from(organizations).where(eq(organizations.id, id)).for('update'))[0]),
    regionExists: (id: number) => regionExists(db, id),
    existingGroupIds: (ids: number[]) => existingGroupIds(db, ids),
    groupIdsOf: async (id: number) =>
      (await db.select({ id: organizationGroupLinks.group_id }).from(organizationGroupLinks).where(eq(organizationGroupLinks.organization_id, id))).map((g) => g.id),

    /** the organization with its default queue */
    async insert (values: typeof organizations.$inferInsert) {
      const row = (await db.insert(organizations).values(values).returning())[0]!
      await createDefaultQueue(db, row.id)
      return row
    },
    update: async (id: number, values: Partial<typeof organizations.$inferInsert>) =>
      (await db.update(organizations).set({ ...values, updated_at: sql`now()` }).where(eq(organizations.id, id)).returning())[0],
    async setGroups (id: number, groupIds: number[]) {
      await db.delete(organizationGroupLinks).where(eq(organizationGroupLinks.organization_id, id))
      if (groupIds.length > 0) await db.insert(organizationGroupLinks).values(groupIds.map((group_id) => ({ organization_id: id, group_id })))
    },
    /** what still refers to the organization and blocks its deletion */
    dependents: async (id: number) => ({
      employees: await employeeCountOf(db, id),
      terminals: await terminalCountOf(db, id),
    }),
    remove: async (id: number) => (await db.delete(organizations).where(eq(organizations.id, id)).returning({ id: organizations.id })).length > 0,

    findNotifications: async (id: number) => (await db.select().from(notificationSettings).where(eq(notificationSettings.organization_id, id)))[0],
    upsertNotifications: async (id: number, values: Partial<typeof notificationSettings.$inferInsert>) =>
      (await db.insert(notificationSettings).values({ ...values, organization_id: id })
        .onConflictDoUpdate({ target: notificationSettings.organization_id, set: { ...values, updated_at: sql`now()` } }).returning())[0]!,
  }
}

export type OrganizationRepo = ReturnType<typeof createOrganizationRepo<AppDb>>
export type OrganizationTxRepo = ReturnType<typeof createOrganizationRepo<TxDb>>
