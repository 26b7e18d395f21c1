// This module's part of the reference seed (DESIGN 5.8): the regions of Kazakhstan with their cities
// and districts (`kz_regions.json`, from public sources). Idempotent: a second run adds nothing.
import { readFileSync } from 'node:fs'
import { and, count, eq, isNull } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { regions } from '../../db/schema/index.js'

interface SeedRegion {
  name_ru: string
  name_kk?: string
  kind: string
  center?: string
  phone_code?: string
  phone_zone?: string
  local_digits?: number
  kato?: string
  unsure?: boolean
  children?: SeedRegion[]
}

export function loadSeedRegions (): SeedRegion[] {
  return JSON.parse(readFileSync(new URL('./kz_regions.json', import.meta.url), 'utf8')) as SeedRegion[]
}

async function seedRegion (db: AppDb, r: SeedRegion, parentId: number | null, sortOrder: number, isCenter: boolean): Promise<number> {
  await db.insert(regions).values({
    name: r.name_ru, name_kk: r.name_kk ?? null, parent_id: parentId, phone_code: r.phone_code ?? null, phone_zone: r.phone_zone ?? null,
    local_digits: r.local_digits ?? null, kato: r.kato ?? null, is_regional_center: isCenter, sort_order: sortOrder,
  }).onConflictDoNothing()
  const parent = parentId === null ? isNull(regions.parent_id) : eq(regions.parent_id, parentId)
  return (await db.select({ id: regions.id }).from(regions).where(and(parent, eq(regions.name, r.name_ru))))[0]!.id
}

const regionCount = async (db: AppDb) => (await db.select({ n: count() }).from(regions))[0]!.n

/** adds the regions missing; answers how many were added */
export async function seedRegions (db: AppDb): Promise<number> {
  const before = await regionCount(db)
  for (const [i, top] of loadSeedRegions().entries()) {
    if (top.unsure) continue
    const topId = await seedRegion(db, top, null, i, false)
    // entries the source marks unsure (codes it could not confirm) are left out
    for (const [j, child] of (top.children ?? []).filter((c) => !c.unsure).entries()) {
      await seedRegion(db, child, topId, j, child.name_ru === top.center)
    }
  }
  return await regionCount(db) - before
}
