import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { AppDb, TxDb } from '../../db/client.js'
import { outboundRoutes, outboundRouteTrunks, trunks } from '../../db/schema/index.js'
import { terminalIdsOf } from '../endpoints/queries.js'
import { organizationIdByPrefix, organizationName, organizationWithTenant } from '../organizations/queries.js'

export type TrunkRow = typeof trunks.$inferSelect
export type RouteRow = typeof outboundRoutes.$inferSelect
export type TrunkWrite = Partial<Omit<typeof trunks.$inferInsert, 'id' | 'created_at' | 'updated_at'>>

export function createTrunkRepo<D extends AppDb> (db: D) {
  return {
    trunks: (): Promise<TrunkRow[]> => db.select().from(trunks).orderBy(asc(trunks.id)),
    trunk: async (id: number): Promise<TrunkRow | undefined> => (await db.select().from(trunks).where(eq(trunks.id, id)))[0],
    trunkNames: (ids: number[]) => ids.length === 0 ? Promise.resolve([]) : db.select({ id: trunks.id, name: trunks.name }).from(trunks).where(inArray(trunks.id, ids)),
    insertTrunk: async (values: TrunkWrite & Pick<typeof trunks.$inferInsert, 'name' | 'mode' | 'host'>) => (await db.insert(trunks).values(values).returning({ id: trunks.id }))[0]!.id,
    updateTrunk: async (id: number, values: TrunkWrite) => { await db.update(trunks).set({ ...values, updated_at: sql`now()` }).where(eq(trunks.id, id)) },
    /** a trunk a route uses is refused by its foreign key (409, said with the routes) */
    removeTrunk: async (id: number) => { await db.delete(trunks).where(eq(trunks.id, id)) },
    /** the routes through these trunks, with their organization's name */
    usersOf: (trunkIds: number[]) => trunkIds.length === 0
      ? Promise.resolve([])
      : db.select({ trunk_id: outboundRouteTrunks.trunk_id, route_id: outboundRoutes.id, route_name: outboundRoutes.name, tenant_id: outboundRoutes.organization_id, organization_name: organizationName(outboundRoutes.organization_id) })
        .from(outboundRouteTrunks).innerJoin(outboundRoutes, eq(outboundRoutes.id, outboundRouteTrunks.route_id))
        .where(inArray(outboundRouteTrunks.trunk_id, trunkIds)).orderBy(asc(outboundRoutes.organization_id), asc(outboundRoutes.id)),

    organization: (id: number) => organizationWithTenant(db, id),
    organizationIdByPrefix: (prefix: string) => organizationIdByPrefix(db, prefix),
    terminalIds: (organizationId: number) => terminalIdsOf(db, organizationId),
    routes: (organizationId: number): Promise<RouteRow[]> => db.select().from(outboundRoutes).where(eq(outboundRoutes.organization_id, organizationId)).orderBy(asc(outboundRoutes.id)),
    route: async (organizationId: number, id: number): Promise<RouteRow | undefined> =>
      (await db.select().from(outboundRoutes).where(and(eq(outboundRoutes.organization_id, organizationId), eq(outboundRoutes.id, id))))[0],
    /** each route's trunks in order */
    trunksOfRoutes: (routeIds: number[]) => routeIds.length === 0
      ? Promise.resolve([])
      : db.select({ route_id: outboundRouteTrunks.route_id, id: trunks.id, name: trunks.name }).from(outboundRouteTrunks)
        .innerJoin(trunks, eq(trunks.id, outboundRouteTrunks.trunk_id)).where(inArray(outboundRouteTrunks.route_id, routeIds))
        .orderBy(asc(outboundRouteTrunks.route_id), asc(outboundRouteTrunks.position)),
    insertRoute: async (values: typeof outboundRoutes.$inferInsert) => (await db.insert(outboundRoutes).values(values).returning({ id: outboundRoutes.id }))[0]!.id,
    updateRoute: async (id: number, values: Partial<typeof outboundRoutes.$inferInsert>) => { await db.update(outboundRoutes).set({ ...values, updated_at: sql`now()` }).where(eq(outboundRoutes.id, id)) },
    setRouteTrunks: async (routeId: number, trunkIds: number[]) => {
      await db.delete(outboundRouteTrunks).where(eq(outboundRouteTrunks.route_id, routeId))
      await db.insert(outboundRouteTrunks).values(trunkIds.map((trunk_id, position) => ({ route_id: routeId, position, trunk_id })))
    },
    removeRoute: async (id: number) => { await db.delete(outboundRoutes).where(eq(outboundRoutes.id, id)) },
  }
}

export type TrunkRepo = ReturnType<typeof createTrunkRepo<AppDb>>
export type TrunkTxRepo = ReturnType<typeof createTrunkRepo<TxDb>>
