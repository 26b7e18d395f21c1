import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { QueueControl } from '../../integrations/ami/queue-control.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import { createBreakReasons } from './break-reasons.js'
import { createMyPhones } from './phones.js'
import { createAgentRepo } from './repo.js'
import { createRestoreJob } from './restore-job.js'
import routes from './routes.js'
import { createAgentService } from './service.js'

export interface AgentsPort {
  consoleOpened: (userId: number) => Promise<void>
  consoleClosed: (userId: number, othersOpen: boolean) => Promise<void>
}

/** operators ring only while ready: their state is Asterisk's queue member pause (DESIGN 9) */
export function createAgentsModule (deps: {
  db: AppDb, clock: Clock, log: FastifyBaseLogger, control?: PbxControl, queues?: QueueControl, openConsoles: () => Promise<Set<number>>, restoreIntervalMs?: number
  /** PBX_WEBSOCKET_URL: where the browser phones register */
  websocketUrl?: string
}): ServiceModule<AgentsPort> {
  const reasons = createBreakReasons(deps.db)
  const phones = createMyPhones({ db: deps.db, websocketUrl: deps.websocketUrl })
  const service = createAgentService({ repo: createAgentRepo(deps.db), reasons, queues: deps.queues, clock: deps.clock, log: deps.log, openConsoles: deps.openConsoles })
  return {
    port: { consoleOpened: service.consoleOpened, consoleClosed: service.consoleClosed },
    running: deps.control && deps.queues ? [createRestoreJob({ control: deps.control, restoreAll: service.restoreAll, intervalMs: deps.restoreIntervalMs ?? 30_000, log: deps.log })] : [],
    async register (app) { await app.register(routes, { prefix: '/api/agents', service, reasons, phones }) },
  }
}
