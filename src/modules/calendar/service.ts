import type { Clock } from '../../lib/clock.js'
import { NotFoundError } from '../../lib/errors.js'
import type { CalendarRepo, CalendarDayRow } from './repo.js'
import type { CalendarDay, CalendarDayUpdate, CalendarYear } from './schemas.js'
import { dayNumberOf, isWeekend, isWorkingDay, localDate, type DayKind, type WorkingCalendar } from './working-time.js'

export interface CalendarSettings { timeZone: string, workStartMinute: number, workEndMinute: number }

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`

/**
 * The centre's working calendar. The exceptions are read once and kept; a change on any instance
 * reaches the others through `changed` (a NOTIFY), which drops the kept copy.
 */
export function createCalendarService (deps: { repo: CalendarRepo, settings: CalendarSettings, clock: Clock, announceChange: () => Promise<void> }) {
  const { repo, settings } = deps
  let loading: Promise<{ calendar: WorkingCalendar, rows: CalendarDayRow[] }> | undefined

  async function load () {
    const rows = await repo.all()
    return { rows, calendar: { ...settings, exceptions: new Map(rows.map((r): [string, DayKind] => [r.day, r.kind])) } }
  }
  function kept () {
    loading ??= load().catch((err: unknown) => { loading = undefined; throw err })
    return loading
  }
  /** the calendar as deadlines see it */
  const current = async (): Promise<WorkingCalendar> => (await kept()).calendar
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
      const { calendar, rows } = await kept()
      const first = dayNumberOf(`${y}-01-01`)
      const last = dayNumberOf(`${y + 1}-01-01`)
      let workingDays = 0
      for (let d = first; d < last; d++) if (isWorkingDay(calendar, d)) workingDays++
      return {
        year: y,
        time_zone: settings.timeZone,
        work_hours: `${hhmm(settings.workStartMinute)}-${hhmm(settings.workEndMinute)}`,
        working_days: workingDays,
        exceptions: rows.filter((r) => r.day.startsWith(`${y}-`)).map((r) => view(calendar, r)),
      }
    },
    setDay: (day: string, input: CalendarDayUpdate): Promise<CalendarDay> => changed(async () => {
      const row = await repo.upsert(day, { kind: input.kind, name: input.name, name_kk: input.name_kk ?? null })
      return { ...row, is_working: input.kind === 'working' }
    }),
    removeDay: (day: string) => changed(async () => {
      if (!await repo.remove(day)) throw new NotFoundError(`Calendar day ${day}`)
      return { message: `${day} follows the Monday-Friday rule again (${isWeekend(dayNumberOf(day)) ? 'a day off' : 'a working day'})` }
    }),
  }
}

export type CalendarService = ReturnType<typeof createCalendarService>
