import type { FastifyBaseLogger } from 'fastify'
import type { Metrics } from '../../lib/metrics.js'
import type { Database } from '../../db/client.js'
import type { AmiClient } from '../../integrations/ami/client.js'
import type { Clock } from '../../lib/clock.js'
import type { Config } from '../../config.js'
import { createRetentionJob } from '../../lib/retention.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import type { QueueControl } from '../../integrations/ami/queue-control.js'
import type { ServiceModule } from '../../lib/module.js'
import type { LineLiveEvent } from './announcer.js'
import { createEventConsumer } from './consumer.js'
import { createLineCallRepo } from './repo.js'
import routes from './routes.js'
import { createLineCallService, type Desk, type PbxState } from './service.js'

const PROBE_FOR_MS = 5000

/** whether Asterisk answers, asked at most every 5 s: every supervisor's board reads it every 30 s */
function pbxProbe (answers?: () => Promise<void>): () => Promise<PbxState> {
  if (!answers) return async () => 'not_configured'
  let last: { at: number, state: Promise<PbxState> } | undefined
  return () => {
    if (!last || Date.now() - last.at > PROBE_FOR_MS) last = { at: Date.now(), state: answers().then(() => 'connected' as const, () => 'unreachable' as const) }
    return last.state
  }
}

/** the line's calls from Asterisk's own events (DESIGN 9); without AMI the routes answer what was kept */
export function createLineCallsModule (deps: {
  database: Database, log: FastifyBaseLogger, clock: Clock, timeZone: string, events?: Pick<AmiClient, 'stream' | 'close'>, desk?: Desk
  /** CALL_RETENTION_DAYS and CALL_PURGE_INTERVAL: the line's calls go with the others */
  calls: Config['calls']
  queues?: Pick<QueueControl, 'status' | 'liveCalls'>
  publish?: (event: LineLiveEvent) => Promise<void>
  metrics: Pick<Metrics, 'amiEvent' | 'amiConnected' | 'failure'>
  callEnded?: (linkedid: string) => void
  /** other modules' readers of Asterisk's events, heard by the instance that reads them */
  listeners?: ((message: AmiMessage, at: Date) => void)[]
  /** resolves when Asterisk answers (AMI); absent: no AMI is configured */
  pbxAnswers?: () => Promise<void>
}): ServiceModule {
  const { database, events, calls, listeners, pbxAnswers, ...rest } = deps
  const repo = createLineCallRepo(database.db)
  const service = createLineCallService({ repo, ...rest, pbxState: pbxProbe(pbxAnswers) })
  const retention = createRetentionJob({ purgeBefore: repo.purgeBefore, what: 'old line calls and agents\' states', clock: deps.clock, log: deps.log, retentionDays: calls.retentionDays, intervalMs: calls.purgeIntervalMs })
  return {
    port: undefined,
    running: [retention, ...events ? [createEventConsumer({ lead: database.lead, events, service, log: deps.log, metrics: deps.metrics, listeners })] : []],
    async register (app) { await app.register(routes, { prefix: '/api/line-calls', service, timeZone: deps.timeZone }) },
  }
}
