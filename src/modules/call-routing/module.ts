import { transactional, type AppDb } from '../../db/client.js'
import type { ServiceModule } from '../../lib/module.js'
import { changesReferences, withReferences } from '../../lib/reference-cache.js'
import { createCallRoutingRepo } from './repo.js'
import routes from './routes.js'
import { createCallRoutingService } from './service.js'

/** a recording's size at most: two minutes at 16 kHz (the upload's body limit) */
export const MAX_RECORDING_BYTES = 4 * 1024 * 1024

/** how a citizen's call goes through an organization: queues, inbound lines, menus, schedules, prompts (DESIGN 9) */
export function createCallRoutingModule (deps: { db: AppDb }): ServiceModule {
  const service = createCallRoutingService({ repo: createCallRoutingRepo(deps.db), transaction: transactional(deps.db, createCallRoutingRepo), maxRecordingBytes: MAX_RECORDING_BYTES })
  return {
    port: undefined,
    async register (app) {
      // queues are counted in the Shape B list
      await app.register(withReferences(changesReferences('organizations'), async (scope) => {
        await scope.register(routes, { prefix: '/api/organizations/:tenant_id', service, maxRecordingBytes: MAX_RECORDING_BYTES })
      }))
    },
  }
}
