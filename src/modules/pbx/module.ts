import { transactional, type AppDb } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import type { CalendarPort } from '../calendar/module.js'
import { createPbxRepo } from './repo.js'
import routes from './routes.js'
import { createPbxService } from './service.js'

export interface PbxPort {
  /** the working calendar changed on this instance: with AMI, the dialplan follows it */
  calendarChanged: () => Promise<unknown>
}

/** the generated Asterisk configuration, the prompts beside it, and its reload */
export function createPbxModule (deps: { db: AppDb, clock: Clock, pbx: Config['pbx'], control?: PbxControl, calendar: CalendarPort, reloaded?: () => Promise<void> }): ServiceModule<PbxPort> {
  const service = createPbxService({
    repo: createPbxRepo(deps.db), transaction: transactional(deps.db, createPbxRepo), configDir: deps.pbx.configDir, soundsDir: deps.pbx.soundsDir, recordingsDir: deps.pbx.recordingsDir,
    backupRetention: deps.pbx.backupRetention, clock: deps.clock, control: deps.control, calendar: deps.calendar.current, reloaded: deps.reloaded,
  })
  return {
    port: { calendarChanged: service.calendarChanged },
    async register (app) { await app.register(routes, { prefix: '/api/pbx', service }) },
  }
}
