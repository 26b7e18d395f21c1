// The reference seed (DESIGN 5.8), each part its owning module's: sources and response methods
// (references), the regions of Kazakhstan (regions), the appeal types of the law under one default
// classifier (classifiers). One transaction; idempotent: a second run changes nothing.
import { claimSetting } from '../../modules/auth/queries.js'
import { seedDefaultClassifier } from '../../modules/classifiers/seed.js'
import { seedSourcesAndMethods } from '../../modules/references/seed.js'
import { seedRegions } from '../../modules/regions/seed.js'
import type { AppDb } from '../client.js'
import { classifiers, regions, responseMethods, sources } from '../schema/index.js'

export { APPEAL_TYPES, DEFAULT_CLASSIFIER, DEFAULT_CLASSIFIER_CODE } from '../../modules/classifiers/seed.js'
export { loadSeedRegions } from '../../modules/regions/seed.js'

export interface SeedCounts { sources: number, response_methods: number, regions: number, appeal_types: number }

export async function seedReferenceData (db: AppDb): Promise<SeedCounts> {
  return db.transaction(async (tx) => {
    const added = await seedSourcesAndMethods(tx)
    const appealTypes = await seedDefaultClassifier(tx)
    const regions = await seedRegions(tx)
    return { ...added, regions, appeal_types: appealTypes }
  })
}

export type FirstStartSeed = { seeded: SeedCounts } | { present: true }

/**
 * The seed at the first start of a database, embedded or PostgreSQL (once: a later start does not
 * bring back what was deleted; of instances starting together one claims it). A database that holds
 * reference data already (one used before this ran at starts) is left as it is. `npm run seed` runs
 * it anywhere, any time. Undefined: not the first start.
 */
export async function seedOnFirstStart (db: AppDb): Promise<FirstStartSeed | undefined> {
  if (!await claimSetting(db, 'reference_seed', new Date().toISOString())) return undefined
  const found = await Promise.all([regions, sources, responseMethods, classifiers].map((table) => db.select({ id: table.id }).from(table).limit(1)))
  if (found.some((rows) => rows.length > 0)) return { present: true }
  return { seeded: await seedReferenceData(db) }
}
