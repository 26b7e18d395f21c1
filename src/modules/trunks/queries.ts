import { asc, inArray } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { outboundRoutes, outboundRouteTrunks, trunks } from '../../db/schema/index.js'
import { groupBy } from '../../lib/collections.js'

/* What other modules may ask of the trunks' tables (their owner is this module). */

/** a trunk as the PBX's files write it, its digests included */
export type TrunkForPbx = Omit<typeof trunks.$inferSelect, 'created_at' | 'updated_at'>

/** an outbound route as the dialplan writes it: its trunks' ids in order of preference */
export interface RouteForPbx { id: number, name: string, patterns: string[], long_distance: boolean, trunkIds: number[] }

export async function trunksForPbx (db: AppDb): Promise<TrunkForPbx[]> {
  const rows = await db.select().from(trunks).orderBy(asc(trunks.id))
  return rows.map(({ created_at: _c, updated_at: _u, ...t }) => t)
}

/** the outbound routes of these organizations, by organization */
export async function outboundRoutesOf (db: AppDb, organizationIds: number[]): Promise<Map<number, RouteForPbx[]>> {
  if (organizationIds.length === 0) return new Map()
  const routes = await db.select().from(outboundRoutes).where(inArray(outboundRoutes.organization_id, organizationIds)).orderBy(asc(outboundRoutes.id))
  const links = routes.length === 0
    ? []
    : await db.select().from(outboundRouteTrunks).where(inArray(outboundRouteTrunks.route_id, routes.map((r) => r.id))).orderBy(asc(outboundRouteTrunks.route_id), asc(outboundRouteTrunks.position))
  const trunksOf = groupBy(links, (l) => l.route_id)
  const out = new Map<number, RouteForPbx[]>()
  for (const r of routes) {
    const list = out.get(r.organization_id) ?? []
    list.push({ id: r.id, name: r.name, patterns: r.patterns, long_distance: r.long_distance, trunkIds: (trunksOf.get(r.id) ?? []).map((l) => l.trunk_id) })
    out.set(r.organization_id, list)
  }
  return out
}
