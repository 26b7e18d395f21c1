// Working-time arithmetic on the centre's calendar (DESIGN 7.3): Monday to Friday within the working
// hours, in the centre's time zone, less holidays, plus the weekend days the government makes working.
// Pure functions: the calendar's exceptions come in as a map, so the service reads them once.

import type { CalendarDayKind } from '../../db/schema/index.js'
import { RequestValidationError } from '../../lib/errors.js'

export type DayKind = CalendarDayKind

export interface WorkingCalendar {
  timeZone: string
  /** the working day, minutes from local midnight */
  workStartMinute: number
  workEndMinute: number
  /** YYYY-MM-DD -> an exception to the Monday-Friday rule */
  exceptions: ReadonlyMap<string, DayKind>
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** no calendar has ten years without a working day: past this, the calendar is broken */
const SEARCH_LIMIT_DAYS = 3660

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter (timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** the zone's offset from UTC at this instant, in milliseconds */
function offsetAt (timeZone: string, instant: number): number {
  const parts: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
  return asUtc - Math.floor(instant / 1000) * 1000
}

/** a local day as the number of days since 1970-01-01 */
type DayNumber = number

export const dayNumberOf = (iso: string): DayNumber => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY
export const isoDay = (day: DayNumber): string => new Date(day * DAY).toISOString().slice(0, 10)
/** Saturday or Sunday */
export const isWeekend = (day: DayNumber): boolean => [0, 6].includes(new Date(day * DAY).getUTCDay())

/** the local day and the milliseconds since its midnight of an instant */
function local (timeZone: string, instant: number): { day: DayNumber, ms: number } {
  const wall = instant + offsetAt(timeZone, instant)
  const day = Math.floor(wall / DAY)
  return { day, ms: wall - day * DAY }
}

/** the instant of a local wall-clock time (a time skipped or repeated by a clock change takes the first offset) */
function instantOf (timeZone: string, day: DayNumber, ms: number): number {
  const wall = day * DAY + ms
  const guess = wall - offsetAt(timeZone, wall)
  return wall - offsetAt(timeZone, guess)
}

export function isWorkingDay (calendar: WorkingCalendar, day: DayNumber | string): boolean {
  const n = typeof day === 'string' ? dayNumberOf(day) : day
  const exception = calendar.exceptions.get(isoDay(n))
  if (exception) return exception === 'working'
  return !isWeekend(n)
}

/** the length of one working day in milliseconds */
export const workingDayMs = (calendar: WorkingCalendar) => (calendar.workEndMinute - calendar.workStartMinute) * MINUTE

/**
 * The instant `durationMs` of working time after `start`. Time before the working day starts, after
 * it ends and on days off does not count; a deadline that falls exactly at a day's end stays there.
 */
export function addWorkingTime (calendar: WorkingCalendar, start: Date, durationMs: number): Date {
  const open = calendar.workStartMinute * MINUTE
  const close = calendar.workEndMinute * MINUTE
  let { day, ms } = local(calendar.timeZone, start.getTime())
  let remaining = Math.max(0, durationMs)
  for (let searched = 0; searched < SEARCH_LIMIT_DAYS; searched++, day++, ms = 0) {
    if (!isWorkingDay(calendar, day)) continue
    const from = Math.max(ms, open)
    if (from >= close) continue
    if (remaining <= close - from) return new Date(instantOf(calendar.timeZone, day, from + remaining))
    remaining -= close - from
  }
  throw new Error(`the working calendar has no working day in ${SEARCH_LIMIT_DAYS} days after ${start.toISOString()}`)
}

/** `hours` of working time after `start` */
export const addWorkingHours = (calendar: WorkingCalendar, start: Date, hours: number) => addWorkingTime(calendar, start, hours * HOUR)

/** `days` full working days after `start` (the same time of day, `days` working days later) */
export const addWorkingDays = (calendar: WorkingCalendar, start: Date, days: number) => addWorkingTime(calendar, start, days * workingDayMs(calendar))

/** calendar hours: an emergency's deadlines do not wait for the working day */
export const addCalendarHours = (start: Date, hours: number) => new Date(start.getTime() + hours * HOUR)

/** the local date (YYYY-MM-DD) of an instant in the centre's zone */
export const localDate = (timeZone: string, instant: Date) => isoDay(local(timeZone, instant.getTime()).day)

/** the instant a local day (`YYYY-MM-DD`) begins in the zone */
export const startOfLocalDay = (timeZone: string, iso: string) => new Date(instantOf(timeZone, dayNumberOf(iso), 0))

/** a period of whole days in the centre's zone: its first and last day, their count, and the instants it runs between */
export interface LocalPeriod { from: string, to: string, days: number, start: Date, end: Date }

/**
 * The period a report asks for: `to` defaults to today, `from` to `defaultDays` days ending at
 * `to`; `from` after `to`, or more than `maxDays` days, is the query's `date_from` error (422).
 */
export function localPeriod (timeZone: string, now: Date, q: { date_from?: string, date_to?: string }, { defaultDays, maxDays }: { defaultDays: number, maxDays: number }): LocalPeriod {
  const to = q.date_to ?? localDate(timeZone, now)
  const from = q.date_from ?? isoDay(dayNumberOf(to) - defaultDays + 1)
  const days = dayNumberOf(to) - dayNumberOf(from) + 1
  if (days < 1) throw RequestValidationError.field(['query', 'date_from'], 'Must not be after date_to', q.date_from)
  if (days > maxDays) throw RequestValidationError.field(['query', 'date_from'], `The period may be at most ${maxDays} days`, q.date_from)
  return { from, to, days, start: startOfLocalDay(timeZone, from), end: startOfLocalDay(timeZone, isoDay(dayNumberOf(to) + 1)) }
}

/** the local weekday (1 Monday ... 7 Sunday), day and minute of an instant */
export function localMoment (timeZone: string, instant: Date): { day: string, weekday: number, minute: number } {
  const { day, ms } = local(timeZone, instant.getTime())
  return { day: isoDay(day), weekday: ((new Date(day * DAY).getUTCDay() + 6) % 7) + 1, minute: Math.floor(ms / MINUTE) }
}

/** whether an instant falls in the calendar's working hours of a working day */
export function isWorkingMoment (calendar: WorkingCalendar, instant: Date): boolean {
  const { day, minute } = localMoment(calendar.timeZone, instant)
  return isWorkingDay(calendar, day) && minute >= calendar.workStartMinute && minute < calendar.workEndMinute
}
