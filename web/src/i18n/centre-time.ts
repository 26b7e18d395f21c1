// The centre's time. Days, weeks and periods are the centre's (TIME_ZONE on the service, Asia/Almaty
// by default), whatever the zone and the clock of the browser: a console in another zone asked for
// the wrong "today" from 19:00 UTC on. The service writes its zone into the page it serves.

const FALLBACK_ZONE = 'Asia/Almaty'

function zoneOfPage (): string {
  const given = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="centre-time-zone"]')?.content
  if (!given) return FALLBACK_ZONE
  try {
    new Intl.DateTimeFormat('en', { timeZone: given }).format(0)
    return given
  } catch {
    return FALLBACK_ZONE
  }
}

// Both made at first use, not as the console loads: the first formatter with a zone costs Chromium
// tens of milliseconds (its zone data), which the sign-in page, showing no date, need not wait for.
let zone: string | undefined
let wallClock: Intl.DateTimeFormat | undefined

/** the IANA zone the centre counts its days in */
export const centreZone = (): string => (zone ??= zoneOfPage())

const centreClock = () => (wallClock ??= new Intl.DateTimeFormat('en-US', {
  timeZone: centreZone(), hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
}))

/** the centre's wall clock at an instant */
function wallTimeAt (instant: number): { year: number, month: number, day: number, hour: number, minute: number, second: number } {
  const parts = Object.fromEntries(centreClock().formatToParts(instant).map((p) => [p.type, p.value]))
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** the centre's calendar day ('2026-03-21') of an instant */
export function centreDayOf (value: string | number | Date): string {
  const w = wallTimeAt(new Date(value).getTime())
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`
}

/** today in the centre */
export const centreToday = (): string => centreDayOf(Date.now())

/** the day `days` after (or before) a calendar day */
export function addDays (day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** the instant the centre's clock shows this wall time ('2026-03-21', '09:30') */
export function centreInstant (day: string, time = '00:00'): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const [hour, minute] = time.split(':').map(Number) as [number, number]
  const asIfUtc = Date.UTC(year, month - 1, date, hour, minute)
  // the zone's offset then, checked once more at the result (a zone that changed its offset that day)
  let instant = asIfUtc - offsetAt(asIfUtc)
  instant = asIfUtc - offsetAt(instant)
  return new Date(instant)
}

/** milliseconds the centre's clock is ahead of UTC at an instant */
function offsetAt (instant: number): number {
  const w = wallTimeAt(instant)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000
}

/** the first and the last instant of a period of the centre's days, as the service's filters take them */
export function centrePeriod (from: string, to: string): { from: string, to: string } {
  return { from: centreInstant(from).toISOString(), to: new Date(centreInstant(addDays(to, 1)).getTime() - 1).toISOString() }
}
