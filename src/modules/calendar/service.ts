import type { Clock } from '../../lib/clock.js'
import { NotFoundError } from '../../lib/errors.js'
import type { CalendarRepo, CalendarDayRow } from './repo.js'
import type { CalendarDay, CalendarDayUpdate, CalendarYear } from './schemas.js'
import { isWorkingDay, localDate, type DayKind, type WorkingCalendar } from './working-time.js'

export interface CalendarSettings { timeZone: string, workStartMinute: number, workEndMinute: number }

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`

/**
 * The centre's working calendar. The exceptions are read once and kept; a change on any instance
 * reaches the others through `changed` (a NOTIFY), which drops the kept copy.
 */
export function createCalendarService (deps: { repo: CalendarRepo, settings: CalendarSettings, clock: Clock, announceChange: () => Promise<void> }) {
  const { repo, settings } = deps
  let loading: Promise<WorkingCalendar> | undefined

  async function load (): Promise<WorkingCalendar> {
    const rows = await repo.all()
    return { ...settings, exceptions: new Map(rows.map((r): [string, DayKind] => [r.day, r.kind])) }
  }
  /** the calendar as deadlines see it */
  function current (): Promise<WorkingCalendar> {
    loading ??= load().catch((err: unknown) => { loading = undefined; throw err })
    return loading
  }
  const forget = () => { loading = undefined }
  const view = (calendar: WorkingCalendar, r: CalendarDayRow): CalendarDay => ({ ...r, is_working: isWorkingDay(calendar, r.day) })

  async function changed<T> (write: () => Promise<T>): Promise<T> {
    const result = await write()
    forget()
    await deps.announceChange()
    return result
  }

  return {
    current,
    forget,
    async year (year?: number): Promise<CalendarYear> {
      const y = year ?? Number(localDate(settings.timeZone, deps.clock()).slice(0, 4))
      const calendar = await current()
      const first = Date.UTC(y, 0, 1) / 86_400_000
      const last = Date.UTC(y + 1, 0, 1) / 86_400_000
      let workingDays = 0
      for (let d = first; d < last; d++) if (isWorkingDay(calendar, d)) workingDays++
      return {
        year: y,
        time_zone: settings.timeZone,
        work_hours: `${hhmm(settings.workStartMinute)}-${hhmm(settings.workEndMinute)}`,
        working_days: workingDays,
        exceptions: (await repo.ofYear(y)).map((r) => view(calendar, r)),
      }
    },
    setDay: (day: string, input: CalendarDayUpdate): Promise<CalendarDay> => changed(async () => {
      const row = await repo.upsert(day, input.kind, input.name)
      return { ...row, is_working: input.kind === 'working' }
    }),
    removeDay: (day: string) => changed(async () => {
      if (!await repo.remove(day)) throw new NotFoundError(`Calendar day ${day}`)
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay()
      return { message: `${day} follows the Monday-Friday rule again (${weekday === 0 || weekday === 6 ? 'a day off' : 'a working day'})` }
    }),
  }
}

export type CalendarService = ReturnType<typeof createCalendarService>
