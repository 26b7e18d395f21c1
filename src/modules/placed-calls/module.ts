import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.js'
import type { QueueControl } from '../../integrations/ami/queue-control.js'
import type { CalendarPort } from '../calendar/module.js'
import { createCallbackPlacer } from './callbacks.js'
import type { CallControl } from '../../integrations/ami/call-control.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import type { AppealsPort } from '../appeals/module.js'
import type { AuditPort } from '../audit/index.js'
import { createCallbackRepo, createPlacedCallRepo } from './repo.js'
import routes from './routes.js'
import { createPlacedCallService, type PlacedCallDesk, type PlacedCallLiveEvent } from './service.js'
import { createTransferService } from './transfers.js'

export interface PlacedCallsPort {
  /** Asterisk's events, on the instance that reads them */
  event: (message: AmiMessage, at: Date) => void
}

// Any constant: the same for every instance of the service.
const CALLBACK_LOCK = 7_351_051
const CALLBACK_PASS_MS = 1000

/** calls the centre places, callbacks instead of waiting, and supervisors listening in (issue 50, DESIGN 10) */
export function createPlacedCallsModule (deps: {
  database: Database, clock: Clock, log: FastifyBaseLogger, control?: CallControl, queues?: Pick<QueueControl, 'status'>, calendar: CalendarPort
  appeals: AppealsPort, desk: PlacedCallDesk, publish: (event: PlacedCallLiveEvent) => Promise<void>
  /** the boards are told the line changed (a callback requested, placed, reached, failed) */
  lineChanged: (organizationId: number | null) => void
  callEnded?: (linkedid: string) => void, audit: AuditPort
}): ServiceModule<PlacedCallsPort> {
  const { database, audit, queues, calendar, lineChanged, ...rest } = deps
  let leading = false
  const service = createPlacedCallService({
    repo: createPlacedCallRepo(database.db), ...rest,
    callbacks: (dialler) => createCallbackPlacer({ repo: createCallbackRepo(database.db), queues, clock: deps.clock, log: deps.log, calendar: calendar.current, dialler, changed: lineChanged, leading: () => leading }),
  })
  const transfers = createTransferService({ repo: createPlacedCallRepo(database.db), control: deps.control })
  // one instance places the callbacks: the one holding their lock, every second and on the queues' events
  let timer: NodeJS.Timeout | undefined
  let stopLeading: (() => Promise<void>) | undefined
  const follow = (lead: boolean) => {
    leading = lead
    clearInterval(timer)
    if (lead) timer = setInterval(service.placeCallbacks, CALLBACK_PASS_MS)
  }
  return {
    port: { event: service.event },
    running: [{
      start: async () => { stopLeading = await database.lead(CALLBACK_LOCK, follow) },
      stop: async () => { clearInterval(timer); leading = false; await service.settled(); await stopLeading?.() },
    }],
    async register (app) { await app.register(routes, { prefix: '/api', service, transfers, shown: audit.recordShown }) },
  }
}
