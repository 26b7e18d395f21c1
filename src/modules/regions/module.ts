import { transactional, type AppDb } from '../../db/client.js'
import type { ServiceModule } from '../../lib/module.js'
import { referenceRoutes, withReferences } from '../../lib/reference-cache.js'
import { createRegionRepo } from './repo.js'
import routes from './routes.js'
import { createRegionService, type RegionService } from './service.js'

export function createRegionsModule (deps: { db: AppDb }): ServiceModule<RegionService> {
  const service = createRegionService({ repo: createRegionRepo(deps.db), transaction: transactional(deps.db, createRegionRepo) })
  return {
    port: service,
    async register (app) {
      await app.register(withReferences(referenceRoutes('regions'), async (scope) => {
        for (const [prefix, variant] of [['/api/regions', ''], ['/api/shared/regions', 'Shared']] as const) {
          await scope.register(routes, { prefix, variant, service })
        }
      }))
    },
  }
}
