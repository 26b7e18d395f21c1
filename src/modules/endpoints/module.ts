import { transactional, type AppDb } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { ServiceModule } from '../../lib/module.js'
import { changesReferences, withReferences } from '../../lib/reference-cache.js'
import { createEndpointRepo } from './repo.js'
import routes from './routes.js'
import { createEndpointService } from './service.js'

/** the SIP terminals of each tenant; their registrations come from Asterisk when AMI is configured */
export function createEndpointsModule (deps: { db: AppDb, sipRealm: string, sipServer?: string, websocketUrl?: string, control?: PbxControl }): ServiceModule {
  const service = createEndpointService({ repo: createEndpointRepo(deps.db), transaction: transactional(deps.db, createEndpointRepo), sipRealm: deps.sipRealm, sipServer: deps.sipServer, websocketUrl: deps.websocketUrl, control: deps.control })
  return {
    port: undefined,
    async register (app) {
      // terminals are counted in the Shape B list
      await app.register(withReferences(changesReferences('organizations'), async (scope) => {
        await scope.register(routes, { prefix: '/api/organizations/:tenant_id/endpoints', service })
      }))
    },
  }
}
