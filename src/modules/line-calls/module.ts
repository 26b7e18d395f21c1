import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.js'
import type { AmiClient } from '../../integrations/ami/client.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import { createEventConsumer } from './consumer.js'
import { createLineCallRepo } from './repo.js'
import routes from './routes.js'
import { createLineCallService, type ScreenPop } from './service.js'

/** the line's calls from Asterisk's own events (DESIGN 9); without AMI the routes answer what was kept */
export function createLineCallsModule (deps: {
  database: Database, log: FastifyBaseLogger, clock: Clock, timeZone: string, events?: Pick<AmiClient, 'stream' | 'close'>, screenPop?: ScreenPop
}): ServiceModule {
  const service = createLineCallService({ repo: createLineCallRepo(deps.database.db), log: deps.log, screenPop: deps.screenPop, clock: deps.clock, timeZone: deps.timeZone })
  return {
    port: undefined,
    running: deps.events ? [createEventConsumer({ lead: deps.database.lead, events: deps.events, service, log: deps.log })] : [],
    async register (app) { await app.register(routes, { prefix: '/api/line-calls', service }) },
  }
}
