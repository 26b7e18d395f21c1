import { asc, count, eq, sql, type SQLWrapper } from 'drizzle-orm'
import { selectRows, type AppDb } from '../../db/client.js'
import { kazakhNamesOf, setKazakhNameOf } from '../../db/kazakh-names.js'
import { regions } from '../../db/schema/index.js'

/* What other modules may ask of the regions table (its owner is this module). */

/** the name of the region with this id (null when there is none), correlated to the caller's row */
export const regionName = (regionId: SQLWrapper) => sql<string | null>`(select r.name from ${regions} r where r.id = ${regionId})`

/** every region, in the tree's order (read-only: the organizations name their region and oblast) */
export const allRegions = (db: AppDb) => db.select().from(regions).orderBy(asc(regions.sort_order), asc(regions.name), asc(regions.id))

export const regionExists = async (db: AppDb, id: number) =>
  (await db.select({ n: count() }).from(regions).where(eq(regions.id, id)))[0]!.n > 0

/** every region with what the dialplan needs: the tree and the area codes */
export const regionDialCodes = (db: AppDb) =>
  db.select({ id: regions.id, parent_id: regions.parent_id, phone_code: regions.phone_code, local_digits: regions.local_digits }).from(regions)

/** the region and the regions directly under it (an oblast and its districts), as a subquery of ids */
export const regionSubtree = (regionId: number) => sql`(select r.id from ${regions} r where r.id = ${regionId} or r.parent_id = ${regionId})`

/** the top-level region (the oblast or city of republican significance) of a region, correlated to the caller's row */
export const topRegionId = (regionId: SQLWrapper) => sql<number | null>`(select coalesce(r.parent_id, r.id) from ${regions} r where r.id = ${regionId})`

/** the regions named in Kazakh, with their Kazakh names */
export const regionKazakhNames = (db: AppDb) => kazakhNamesOf(db, regions)
export const setRegionKazakhName = (db: AppDb, id: number, nameKk: string | null) => setKazakhNameOf(db, regions, id, nameKk)

/** whether a region has this id, as a column of the caller's query */
export const regionFact = (id: number) => sql<boolean>`exists (select 1 from ${regions} r where r.id = ${id})`

/** the area code of a region, and how many digits its local numbers have (by default what the code leaves of ten) */
export const dialArea = (r: { phone_code: string | null, local_digits: number | null }) =>
  r.phone_code ? { areaCode: r.phone_code, localDigits: r.local_digits ?? 10 - r.phone_code.length } : undefined

/** the area of a region or of its nearest ancestor that has one (the dialplan's local numbers); none without */
export async function dialAreaOf (db: AppDb, regionId: number | null): Promise<{ areaCode: string | null, localDigits: number | null }> {
  if (regionId === null) return { areaCode: null, localDigits: null }
  const rows = await selectRows<{ phone_code: string, local_digits: number | null }>(db, sql`
    with recursive up as (
      select r.parent_id, r.phone_code, r.local_digits, 0 as depth from ${regions} r where r.id = ${regionId}
      union all
      select r.parent_id, r.phone_code, r.local_digits, up.depth + 1 from ${regions} r join up on r.id = up.parent_id where up.parent_id is not null and up.depth < 64
    )
    select phone_code, local_digits from up where phone_code is not null order by depth limit 1`)
  const found = rows[0]
  return (found && dialArea(found)) ?? { areaCode: null, localDigits: null }
}
