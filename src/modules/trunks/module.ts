import { transactional, type AppDb } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { ServiceModule } from '../../lib/module.js'
import { createTrunkRepo } from './repo.js'
import { outboundRouteRoutes, trunkRoutes } from './routes.js'
import { createTrunkService } from './service.js'

/** the providers' trunks and the organizations' outbound routes over them (issue 49) */
export function createTrunksModule (deps: { db: AppDb, control?: PbxControl }): ServiceModule {
  const service = createTrunkService({ repo: createTrunkRepo(deps.db), transaction: transactional(deps.db, createTrunkRepo), control: deps.control })
  return {
    port: undefined,
    async register (app) {
      await app.register(trunkRoutes, { prefix: '/api/trunks', service })
      await app.register(outboundRouteRoutes, { prefix: '/api/organizations/:tenant_id/outbound-routes', service })
    },
  }
}
