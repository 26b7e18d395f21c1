import { transactional, type AppDb } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import { createPlatformRepo } from './repo.js'
import routes from './routes.js'
import { createPlatformService } from './service.js'

export function createPlatformModule (deps: { db: AppDb, clock: Clock, cellId?: string }): ServiceModule {
  const service = createPlatformService({ repo: createPlatformRepo(deps.db), transaction: transactional(deps.db, createPlatformRepo), cellId: deps.cellId, clock: deps.clock })
  return {
    port: undefined,
    async register (app) { await app.register(routes, { prefix: '/platform', service }) },
  }
}
