import { transactional, type AppDb } from '../../db/client.js'
import { createFfmpegDecoder, type AudioDecoder } from '../../integrations/audio/index.js'
import type { ServiceModule } from '../../lib/module.js'
import { changesReferences, withReferences } from '../../lib/reference-cache.js'
import { createCallRoutingRepo } from './repo.js'
import routes from './routes.js'
import { createCallRoutingService } from './service.js'

/** how a citizen's call goes through an organization: queues, inbound lines, menus, schedules, prompts (DESIGN 9) */
export function createCallRoutingModule (deps: { db: AppDb, decoder?: AudioDecoder }): ServiceModule {
  const service = createCallRoutingService({ repo: createCallRoutingRepo(deps.db), transaction: transactional(deps.db, createCallRoutingRepo), decoder: deps.decoder ?? createFfmpegDecoder() })
  return {
    port: undefined,
    async register (app) {
      // queues are counted in the Shape B list
      await app.register(withReferences(changesReferences('organizations'), async (scope) => {
        await scope.register(routes, { prefix: '/api/organizations/:tenant_id', service })
      }))
    },
  }
}
