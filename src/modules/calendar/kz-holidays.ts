// Kazakhstan's public holidays (the Law "On holidays in the Republic of Kazakhstan") for the years the
// service ships, with the Labour Code's rule that a holiday on a Saturday or Sunday moves the day off
// to the next working day; religious holidays (Orthodox Christmas, Kurban Ait) do not move. The days
// the government transfers are announced yearly: those known are listed, admins add the rest.
import { dayNumberOf, isoDay, isWeekend, type DayKind } from './working-time.js'

export interface CalendarEntry { day: string, kind: DayKind, name: string }

const FIXED: [string, string][] = [
  ['01-01', 'Новый год'], ['01-02', 'Новый год'],
  ['03-08', 'Международный женский день'],
  ['03-21', 'Наурыз мейрамы'], ['03-22', 'Наурыз мейрамы'], ['03-23', 'Наурыз мейрамы'],
  ['05-01', 'Праздник единства народа Казахстана'],
  ['05-07', 'День защитника Отечества'],
  ['05-09', 'День Победы'],
  ['07-06', 'День столицы'],
  ['08-30', 'День Конституции'],
  ['10-25', 'День Республики'],
  ['12-16', 'День Независимости'],
]
const RELIGIOUS_FIXED: [string, string][] = [['01-07', 'Православное Рождество']]
/** the first day of Kurban Ait, as the Spiritual Administration of Muslims announces it */
const KURBAN_AIT: Record<number, string> = { 2025: '2025-06-06', 2026: '2026-05-27', 2027: '2027-05-16' }
/** transfers ordered by the Ministry of Labour (a day off moved onto a weekday, the weekend day worked) */
const TRANSFERS: CalendarEntry[] = [
  { day: '2025-01-03', kind: 'holiday', name: 'Перенос дня отдыха с 5 января' },
  { day: '2025-01-05', kind: 'working', name: 'Рабочий день (перенос на 3 января)' },
]

export const SHIPPED_YEARS = [2025, 2026, 2027]

export function kazakhstanCalendar (year: number): CalendarEntry[] {
  const entries = new Map<string, CalendarEntry>()
  const add = (e: CalendarEntry) => { if (!entries.has(e.day)) entries.set(e.day, e) }
  const secular = FIXED.map(([md, name]) => ({ day: `${year}-${md}`, kind: 'holiday' as const, name }))
  for (const e of secular) add(e)
  for (const [md, name] of RELIGIOUS_FIXED) add({ day: `${year}-${md}`, kind: 'holiday', name })
  if (KURBAN_AIT[year]) add({ day: KURBAN_AIT[year], kind: 'holiday', name: 'Курбан айт' })
  // a secular holiday on a weekend gives the next weekday that is not a holiday itself
  for (const e of secular.filter((h) => isWeekend(dayNumberOf(h.day)))) {
    let d = dayNumberOf(e.day) + 1
    while (isWeekend(d) || entries.has(isoDay(d))) d++
    add({ day: isoDay(d), kind: 'holiday', name: `Перенос выходного: ${e.name} (${e.day.slice(8)}.${e.day.slice(5, 7)})` })
  }
  for (const t of TRANSFERS.filter((t) => t.day.startsWith(`${year}-`))) entries.set(t.day, t)
  return [...entries.values()].sort((a, b) => a.day.localeCompare(b.day))
}
