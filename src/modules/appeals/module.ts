import type { FastifyBaseLogger } from 'fastify'
import { transactional, type AppDb } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import type { CalendarPort } from '../calendar/module.js'
import type { CallEventsPort } from '../call-events/module.js'
import type { LlmPort } from '../llm/module.js'
import type { NotificationsPort } from '../notifications/module.js'
import { organizationRoleFacts } from '../organizations/queries.js'
import { createAppealAssistant } from './assistant.js'
import { createDeadlineJob } from './deadline-job.js'
import { createAppealRepo } from './repo.js'
import routes from './routes.js'
import { centreStaffCheck, createAppealService, type AppealLiveEvent, type AppealService } from './service.js'

/** whether a principal is the call centre's staff, as the register and the live stream judge it */
export const centreStaffPolicy = (db: AppDb) => centreStaffCheck({ organization: (id) => organizationRoleFacts(db, id) })

/** what the calls placed for an appeal ask of the register */
export type AppealsPort = Pick<AppealService, 'callTarget' | 'callEnded'>

/**
 * The register of citizens' appeals: registration, the lifecycle with its legal deadlines on the
 * working calendar, notices through the notifications' outbox, live events on the consoles' stream,
 * the deadline job and the LLM's suggestions and reviews.
 */
export function createAppealsModule (deps: {
  db: AppDb, clock: Clock, log: FastifyBaseLogger, appeals: Config['appeals']
  calendar: CalendarPort, notifications: NotificationsPort, live: CallEventsPort, llm: LlmPort
}): ServiceModule<AppealsPort> {
  const { db, clock, log } = deps
  const repo = createAppealRepo(db)
  const transaction = transactional(db, createAppealRepo)
  const asLive = (event: AppealLiveEvent) => ({ ...event, employee_id: null, audience: 'appeal' as const })
  const publish = (event: AppealLiveEvent) => deps.live.publish(asLive(event))
  const deadlines = createDeadlineJob({
    repo, transaction, clock, timeZone: deps.appeals.timeZone, notify: deps.notifications.poke, publish, intervalMs: deps.appeals.deadlineIntervalMs, log,
  })
  const service = createAppealService({
    repo,
    transaction,
    calendar: deps.calendar.current,
    rules: deps.appeals,
    clock,
    notify: deps.notifications.poke,
    reviewAnswer: (appeal, actor) => { assistant.reviewLater(appeal, actor) },
    deadlineSet: deadlines.poke,
    publish,
    liveMessage: (event) => deps.live.message(asLive(event)),
  })
  const assistant = createAppealAssistant({ llm: deps.llm, repo, visible: service.visibleRow, clock, publish, log })
  return {
    port: { callTarget: service.callTarget, callEnded: service.callEnded },
    // the reviews still answering are written before the LLM's accounting and the database close
    running: [deadlines, { stop: assistant.flush }],
    async register (app) {
      app.decorate('appealDeadlines', deadlines)
      await app.register(routes, { prefix: '/api/appeals', service, assistant, timeZone: deps.appeals.timeZone, exportMaxRows: deps.appeals.exportMaxRows })
    },
  }
}
