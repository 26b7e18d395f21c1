import type { Database } from '../../db/client.js'
import { createNotifier } from '../../db/notify.js'
import type { Clock } from '../../lib/clock.js'
import type { ServiceModule } from '../../lib/module.js'
import { createCalendarRepo } from './repo.js'
import routes from './routes.js'
import { createCalendarService, type CalendarSettings } from './service.js'
import type { WorkingCalendar } from './working-time.js'

export interface CalendarPort {
  /** the calendar as deadlines see it (kept in memory; a change on any instance drops it) */
  current: () => Promise<WorkingCalendar>
}

/** `changed`: told on the instance where an edit was made, once it is announced to every instance */
export function createCalendarModule (deps: { database: Database, settings: CalendarSettings, clock: Clock, changed?: () => void }): ServiceModule<CalendarPort> {
  const changes = createNotifier(deps.database, 'calendar_changed')
  const announceChange = async () => { await changes.publish('changed'); deps.changed?.() }
  const service = createCalendarService({ repo: createCalendarRepo(deps.database.db), settings: deps.settings, clock: deps.clock, announceChange })
  changes.subscribe(service.forget)
  return {
    port: { current: service.current },
    running: [changes],
    async register (app) { await app.register(routes, { prefix: '/api/appeals/calendar', service }) },
  }
}
