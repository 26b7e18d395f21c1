import type { FastifyBaseLogger } from 'fastify'
import { transactional, type Database } from '../../db/client.js'
import { createNotifier } from '../../db/notify.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import type { Metrics } from '../../lib/metrics.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import type { AuditPort } from '../audit/index.js'
import { createLiveEvents, type LiveEvents } from './live.js'
import { createCallRepo } from './repo.js'
import { createRetentionJob } from '../../lib/retention.js'
import routes from './routes.js'
import { createCallEventService, type CallEventService, type PresenceListener } from './service.js'

/** other modules publish their live events through the consoles' stream of this one, and ask who has a console open */
export type CallEventsPort = Pick<LiveEvents, 'publish' | 'message'> & Pick<CallEventService, 'openConsoles' | 'answeredOnLine' | 'hungUpOnLine' | 'passedOnLine'>

/** calls and their transcripts from the telephony, and the live stream every console follows */
export function createCallEventsModule (deps: {
  database: Database, clock: Clock, calls: Config['calls'], log: FastifyBaseLogger, control?: PbxControl, presence?: PresenceListener
  /** whether the principal is the call centre's staff (they see every call's events) */
  isCentreStaff: (principal: Principal) => Promise<boolean>
  metrics: Pick<Metrics, 'transcription' | 'sampled'>
  /** the live stream's calls recorded as shown to each console */
  audit?: AuditPort
}): ServiceModule<CallEventsPort> {
  const { database, clock, log } = deps
  const repo = createCallRepo(database.db)
  const notifier = createNotifier(database, 'call_events')
  const live = createLiveEvents(notifier, { isCentreStaff: deps.isCentreStaff })
  const service = createCallEventService({ repo, transaction: transactional(database.db, createCallRepo), clock, live, log, control: deps.control, presence: deps.presence, metrics: deps.metrics })
  deps.metrics.sampled('gauge', 'live_consoles', 'Consoles following the live stream on this instance (WebSocket or SSE)', [], () => [{ value: live.open() }])
  const retention = createRetentionJob({ purgeBefore: repo.purgeBefore, what: 'old calls', clock, log, retentionDays: deps.calls.retentionDays, intervalMs: deps.calls.purgeIntervalMs })
  return {
    port: { publish: live.publish, message: live.message, openConsoles: service.openConsoles, answeredOnLine: service.answeredOnLine, hungUpOnLine: service.hungUpOnLine, passedOnLine: service.passedOnLine },
    running: [notifier, retention],
    async register (app) { await app.register(routes, { prefix: '/api/call-events', live, service, recordShown: deps.audit?.recordShown }) },
  }
}
