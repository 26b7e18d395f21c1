import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import type { CallControl } from '../../integrations/ami/call-control.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import type { AppealsPort } from '../appeals/module.js'
import type { AuditPort } from '../audit/index.js'
import { createPlacedCallRepo } from './repo.js'
import routes from './routes.js'
import { createPlacedCallService, type PlacedCallDesk, type PlacedCallLiveEvent } from './service.js'

export interface PlacedCallsPort {
  /** Asterisk's events, on the instance that reads them */
  event: (message: AmiMessage, at: Date) => void
}

/** calls the centre places and supervisors listening in (issue 50, DESIGN 10) */
export function createPlacedCallsModule (deps: {
  db: AppDb, clock: Clock, log: FastifyBaseLogger, control?: CallControl, appeals: AppealsPort, desk: PlacedCallDesk
  publish: (event: PlacedCallLiveEvent) => Promise<void>, callEnded?: (linkedid: string) => void, audit: AuditPort
}): ServiceModule<PlacedCallsPort> {
  const { db, audit, ...rest } = deps
  const service = createPlacedCallService({ repo: createPlacedCallRepo(db), ...rest })
  return {
    port: { event: service.event },
    running: [{ stop: service.settled }],
    async register (app) { await app.register(routes, { prefix: '/api', service, shown: audit.recordShown }) },
  }
}
