import { createHmac } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import { createRetentionJob } from '../../lib/retention.js'
import type { Config } from '../../config.js'
import { createAccessRecorder, recordPersonalDataReads, recordPurge, recordShown, type PurgeRecorder, type ShownRecorder } from './recorder.js'
import { createAuditRepo } from './repo.js'
import routes from './routes.js'
import { createAuditService } from './service.js'

/** what other modules record through the audit; nothing when PERSONAL_DATA_AUDIT=false */
export interface AuditPort { recordShown?: ShownRecorder, recordPurged?: PurgeRecorder }

/**
 * The audit of personal data: every answer of a route marked `personalData` recorded (mounted
 * before the modules whose routes it records), the records' routes, the retention purge.
 */
export function createAuditModule (deps: {
  db: AppDb, oneWriter: boolean, clock: Clock, log: FastifyBaseLogger, audit: Config['audit'], jwtSecret: string, timeZone: string, exportMaxRows: number, purgeIntervalMs: number
}): ServiceModule<AuditPort> {
  const repo = createAuditRepo(deps.db, { oneWriter: deps.oneWriter })
  // AUDIT_KEY kept outside the database makes the chain proof against those who can write to it
  const key = deps.audit.key === undefined ? createHmac('sha256', deps.jwtSecret).update('personal-data-audit').digest() : Buffer.from(deps.audit.key)
  const service = createAuditService({ repo, key })
  const retention = createRetentionJob({ purgeBefore: repo.purgeBefore, what: 'old records of personal data access', clock: deps.clock, log: deps.log, retentionDays: deps.audit.retentionDays, intervalMs: deps.purgeIntervalMs })
  const recorder = deps.audit.enabled ? createAccessRecorder({ repo, key }) : undefined
  return {
    port: { recordShown: recorder && recordShown(recorder, deps.clock), recordPurged: recorder && recordPurge(recorder, deps.clock) },
    running: [retention],
    async register (app) {
      if (recorder) recordPersonalDataReads(app, recorder, deps.clock)
      await app.register(routes, { prefix: '/api/audit/personal-data', service, timeZone: deps.timeZone, exportMaxRows: deps.exportMaxRows })
    },
  }
}
