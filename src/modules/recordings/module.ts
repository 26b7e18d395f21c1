import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import { createOpusToolsEncoder, type AudioEncoder } from '../../integrations/recordings/index.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import type { Metrics } from '../../lib/metrics.js'
import type { ServiceModule } from '../../lib/module.js'
import { periodic } from '../../lib/periodic.js'
import type { Config } from '../../config.js'
import type { AuditPort } from '../audit/module.js'
import { createHearingPolicy } from './access.js'
import routes from './routes.js'
import { createRecordingService } from './service.js'
import { createRecordingTakeover } from './takeover.js'

export interface RecordingsPort {
  /** what /ready warns of: recordings kept as WAV while no encoder runs */
  warnings: () => string[]
}

const NO_ENCODER = 'recordings: no encoder (opusenc and opusdec from opus-tools) runs here: recordings are kept as WAV, and compressed once one does'

/**
 * The calls' recordings (DESIGN 10): the finished legs Asterisk leaves in RECORDINGS_DIR taken over
 * (at start, then every RECORDING_SWEEP_INTERVAL), and heard through /api/recordings.
 */
export function createRecordingsModule (deps: {
  db: AppDb, recordings: Config['recordings'], metrics: Pick<Metrics, 'failure'>, log: FastifyBaseLogger, audit: AuditPort, clock: Clock
  isCentreStaff: (principal: Principal) => Promise<boolean>, encoder?: AudioEncoder
}): ServiceModule<RecordingsPort> {
  const { dir, operatorDays, sweepIntervalMs } = deps.recordings
  const takeover = createRecordingTakeover({ db: deps.db, dir, encoder: deps.encoder ?? createOpusToolsEncoder(), metrics: deps.metrics, log: deps.log })
  const audibleOf = createHearingPolicy({ db: deps.db, operatorDays, isCentreStaff: deps.isCentreStaff, now: deps.clock })
  const service = createRecordingService({ db: deps.db, dir, audibleOf })
  const sweep = periodic(async () => {
    const swept = await takeover.sweep().catch((err: unknown) => { deps.log.warn({ err }, 'recordings: a sweep failed'); return undefined })
    if (swept && (swept.taken > 0 || swept.failed > 0 || swept.recompressed > 0)) deps.log.info({ recordings: swept }, 'recordings taken over')
  }, sweepIntervalMs)
  return {
    port: { warnings: () => (takeover.encodes() === false ? [NO_ENCODER] : []) },
    running: [
      { start: () => { void takeover.canEncode().then((can) => { if (!can) deps.log.warn(NO_ENCODER) }) } },
      sweep,
    ],
    async register (app) { await app.register(routes, { prefix: '/api', service, shown: deps.audit.recordShown }) },
  }
}
