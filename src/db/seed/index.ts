// The reference seed (DESIGN 5.8), each part its owning module's: sources and response methods
// (references), the regions of Kazakhstan (regions), the appeal types of the law under one default
// classifier (classifiers). One transaction; idempotent: a second run changes nothing.
import { claimSetting } from '../../modules/auth/queries.js'
import { seedDefaultClassifier } from '../../modules/classifiers/seed.js'
import { seedSourcesAndMethods } from '../../modules/references/seed.js'
import { seedRegions } from '../../modules/regions/seed.js'
import type { AppDb } from '../client.js'

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

/** On the embedded database the seed loads once, at the first start; `npm run seed` runs it anywhere. */
export async function seedOnFirstStart (db: AppDb): Promise<SeedCounts | undefined> {
  if (!await claimSetting(db, 'reference_seed', new Date().toISOString())) return undefined
  return seedReferenceData(db)
}
