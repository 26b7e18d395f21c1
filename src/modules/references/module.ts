import type { AppDb } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import type { RegionService } from '../regions/service.js'
import { createReferenceRepo } from './repo.js'
import routes from './routes.js'
import { createReferenceService } from './service.js'

export function createReferencesModule (deps: { db: AppDb, regions: Pick<RegionService, 'items'>, clock: Clock }): ServiceModule {
  const service = createReferenceService({ repo: createReferenceRepo(deps.db), regions: deps.regions, clock: deps.clock })
  return {
    port: undefined,
    async register (app) { await app.register(routes, { prefix: '/api/references', service }) },
  }
}
