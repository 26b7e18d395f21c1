import { transactional, type AppDb } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import { createPbxRepo } from './repo.js'
import routes from './routes.js'
import { createPbxService } from './service.js'

/** the generated Asterisk configuration and its reload */
export function createPbxModule (deps: { db: AppDb, clock: Clock, pbx: Config['pbx'], control?: PbxControl }): ServiceModule {
  const service = createPbxService({
    repo: createPbxRepo(deps.db), transaction: transactional(deps.db, createPbxRepo), configDir: deps.pbx.configDir, backupRetention: deps.pbx.backupRetention, clock: deps.clock, control: deps.control,
  })
  return {
    port: undefined,
    async register (app) { await app.register(routes, { prefix: '/api/pbx', service }) },
  }
}
