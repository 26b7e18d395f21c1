import type { FastifyBaseLogger } from 'fastify'
import { transactional, type AppDb } from '../../db/client.js'
import { createExtSyncClient } from '../../integrations/ext-sync/index.js'
import type { Clock } from '../../lib/clock.js'
import type { Metrics } from '../../lib/metrics.js'
import type { Running, ServiceModule } from '../../lib/module.js'
import { changesReferences, withReferences } from '../../lib/reference-cache.js'
import type { Config } from '../../config.js'
import { allRegions } from '../regions/queries.js'
import { createExtSyncRepo } from './ext-sync-repo.js'
import { createExtSyncWorker } from './ext-sync-worker.js'
import { createOrganizationRepo } from './repo.js'
import sharedRoutes from './routes/shared.js'
import telephonyRoutes from './routes/telephony.js'
import { createOrganizationService } from './service.js'

/** the tenant organizations (Shapes A, S and B) and their synchronisation to EXT_SYNC_URL */
export function createOrganizationsModule (deps: { db: AppDb, clock: Clock, extSync: Config['extSync'], log: FastifyBaseLogger, metrics: Metrics }): ServiceModule {
  const { db, clock, extSync } = deps
  const repos = (d: AppDb) => ({ orgs: createOrganizationRepo(d), sync: createExtSyncRepo(d), regions: { all: () => allRegions(d) } })
  const service = createOrganizationService({ repos: repos(db), transaction: transactional(db, repos), clock, extSyncEnabled: extSync.url !== undefined })
  const running: Running[] = []
  if (extSync.url) {
    const repo = createExtSyncRepo(db)
    deps.metrics.outbox('ext_sync', repo.backlog)
    running.push(createExtSyncWorker({
      repo,
      client: createExtSyncClient({ url: extSync.url, token: extSync.token, timeoutMs: extSync.timeoutMs }),
      clock,
      log: deps.log,
      deliveryFailed: () => { deps.metrics.failure('ext_sync_delivery') },
      ...extSync,
    }))
  }
  return {
    port: undefined,
    running,
    async register (app) {
      await app.register(withReferences(changesReferences('organizations'), async (scope) => {
        await scope.register(sharedRoutes, { prefix: '/api/organizations', shape: 'A', service })
        await scope.register(sharedRoutes, { prefix: '/api/shared/organizations', shape: 'S', service })
        await scope.register(telephonyRoutes, { prefix: '/api/organizations', service })
      }))
    },
  }
}
