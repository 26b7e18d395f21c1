import type { Database } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import { createLineSwitchRepo } from './repo.js'
import routes from './routes.js'
import { createLineSwitchService } from './service.js'

export interface LineSwitchPort {
  /** Asterisk's database set to the lines' switches (after the PBX's files are written and reloaded) */
  reconcile: () => Promise<void>
}

/** lines closed and opened at a switch by supervisors, read by the dialplan from Asterisk's database (issue 49) */
export function createLineSwitchModule (deps: { database: Database, clock: Clock, control?: PbxControl }): ServiceModule<LineSwitchPort> {
  const service = createLineSwitchService({ repo: createLineSwitchRepo(deps.database), control: deps.control, clock: deps.clock })
  return {
    port: { reconcile: service.reconcile },
    async register (app) { await app.register(routes, { service }) },
  }
}
