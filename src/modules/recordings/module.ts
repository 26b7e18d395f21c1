import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import { createLibopusEncoder, createOpusToolsEncoder, firstEncoder, type AudioEncoder } from '../../integrations/recordings/index.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import type { Metrics } from '../../lib/metrics.js'
import type { ServiceModule } from '../../lib/module.js'
import { periodic } from '../../lib/periodic.js'
import { createRetentionJob } from '../../lib/retention.js'
import type { Config } from '../../config.js'
import type { AuditPort } from '../audit/module.js'
import { createHearingPolicy } from './access.js'
import routes from './routes.js'
import { createRecordingService } from './service.js'
import { createRecordingRetention } from './retention.js'
import { createRecordingTakeover } from './takeover.js'
import { createRecordingUsage } from './usage.js'

export interface RecordingsPort {
  /** what /ready warns of: recordings kept as WAV while no encoder runs */
  warnings: () => string[]
  /** a call ended (Asterisk's Hangup): its legs' files are closed, taken over shortly */
  callEnded: () => void
}

/** after a call's hang-up, the wait before its legs are taken over: MixMonitor closes a leg's file as its channel goes */
const AFTER_HANGUP_MS = 1500

const NO_ENCODER = 'recordings: no encoder (libopus through @discordjs/opus, or opusenc and opusdec from opus-tools) runs here: recordings are kept as WAV, and compressed once one does'

/**
 * The calls' recordings (DESIGN 10): the finished legs Asterisk leaves in RECORDINGS_DIR taken over
 * (at start, then every RECORDING_SWEEP_INTERVAL), heard through /api/recordings, purged after
 * RECORDING_RETENTION_DAYS, their disk on /metrics and the board.
 */
export function createRecordingsModule (deps: {
  db: AppDb, recordings: Config['recordings'], metrics: Pick<Metrics, 'failure' | 'sampled'>, log: FastifyBaseLogger, audit: AuditPort, clock: Clock, timeZone: string
  isCentreStaff: (principal: Principal) => Promise<boolean>, encoder?: AudioEncoder
}): ServiceModule<RecordingsPort> {
  const { dir, operatorDays, sweepIntervalMs, retentionDays, purgeIntervalMs, maxBytes } = deps.recordings
  const takeover = createRecordingTakeover({ db: deps.db, dir, encoder: deps.encoder ?? firstEncoder(createLibopusEncoder(), createOpusToolsEncoder()), metrics: deps.metrics, log: deps.log })
  const audibleOf = createHearingPolicy({ db: deps.db, operatorDays, isCentreStaff: deps.isCentreStaff, now: deps.clock })
  const service = createRecordingService({ db: deps.db, dir, audibleOf })
  const sweep = periodic(async () => {
    const swept = await takeover.sweep().catch((err: unknown) => { deps.log.warn({ err }, 'recordings: a sweep failed'); return undefined })
    if (swept && (swept.taken > 0 || swept.failed > 0 || swept.recompressed > 0)) deps.log.info({ recordings: swept }, 'recordings taken over')
  }, sweepIntervalMs)
  const retention = createRetentionJob({
    purgeBefore: createRecordingRetention({ db: deps.db, dir, recordPurged: deps.audit.recordPurged }),
    what: 'old recordings', clock: deps.clock, log: deps.log, retentionDays, intervalMs: purgeIntervalMs,
  })
  const usage = createRecordingUsage({ db: deps.db, clock: deps.clock, timeZone: deps.timeZone, maxBytes })
  // the four figures of a scrape from one read
  let read: { at: number, usage: ReturnType<typeof usage> } | undefined
  const scraped = () => {
    if (!read || Date.now() - read.at > 1000) read = { at: Date.now(), usage: usage() }
    return read.usage
  }
  const figure = (name: string, help: string, value: (u: Awaited<ReturnType<typeof usage>>) => number | null) =>
    deps.metrics.sampled('gauge', name, help, [], async () => [{ value: value(await scraped()) ?? Number.NaN }])
  figure('recordings_bytes', 'The disk the kept recordings take, bytes', (u) => u.bytes)
  figure('recordings_files', 'Recordings kept', (u) => u.files)
  figure('recordings_today_bytes', 'Recordings taken over since the centre\'s midnight, bytes', (u) => u.today_bytes)
  if (maxBytes !== undefined) figure('recordings_days_left', 'Days until RECORDINGS_MAX_BYTES at the last week\'s pace (NaN while nothing arrived that week)', (u) => u.days_left)
  return {
    port: { warnings: () => (takeover.encodes() === false ? [NO_ENCODER] : []), callEnded: () => sweep.soon(AFTER_HANGUP_MS) },
    running: [
      { start: () => { void takeover.canEncode().then((can) => { if (!can) deps.log.warn(NO_ENCODER) }) } },
      sweep,
      retention,
    ],
    async register (app) { await app.register(routes, { prefix: '/api', service, shown: deps.audit.recordShown, usage }) },
  }
}
