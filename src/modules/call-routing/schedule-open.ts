import { isWorkingMoment, localMoment, type WorkingCalendar } from '../calendar/index.js'

export interface ScheduleHours { kind: 'always' | 'weekly' | 'calendar', hours: { weekday: number, opens: string, closes: string }[] }

const minuteOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5))

/** whether a line with this schedule (null: none) is open at an instant, as the generated dialplan decides it */
export function scheduleOpenAt (schedule: ScheduleHours | null, calendar: WorkingCalendar, at: Date): boolean {
  if (schedule === null || schedule.kind === 'always') return true
  if (schedule.kind === 'calendar') return isWorkingMoment(calendar, at)
  const { weekday, minute } = localMoment(calendar.timeZone, at)
  return schedule.hours.some((h) => h.weekday === weekday && minute >= minuteOf(h.opens) && minute < minuteOf(h.closes))
}
