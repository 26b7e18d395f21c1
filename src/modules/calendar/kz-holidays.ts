// Kazakhstan's public holidays (the Law "On holidays in the Republic of Kazakhstan") for the years the
// service ships, with the Labour Code's rule that a holiday on a Saturday or Sunday moves the day off
// to the next working day; religious holidays (Orthodox Christmas, Kurban Ait) do not move. The days
// the government transfers are announced yearly: those known are listed, admins add the rest.
import { dayNumberOf, isoDay, isWeekend, type DayKind } from './working-time.js'

/** a day of the calendar, named in Russian and in Kazakh */
export interface CalendarEntry { day: string, kind: DayKind, name: string, name_kk: string }

type Names = [ru: string, kk: string]

const FIXED: [string, Names][] = [
  ['01-01', ['Новый год', 'Жаңа жыл']], ['01-02', ['Новый год', 'Жаңа жыл']],
  ['03-08', ['Международный женский день', 'Халықаралық әйелдер күні']],
  ['03-21', ['Наурыз мейрамы', 'Наурыз мейрамы']], ['03-22', ['Наурыз мейрамы', 'Наурыз мейрамы']], ['03-23', ['Наурыз мейрамы', 'Наурыз мейрамы']],
  ['05-01', ['Праздник единства народа Казахстана', 'Қазақстан халқының бірлігі мерекесі']],
  ['05-07', ['День защитника Отечества', 'Отан қорғаушы күні']],
  ['05-09', ['День Победы', 'Жеңіс күні']],
  ['07-06', ['День столицы', 'Астана күні']],
  ['08-30', ['День Конституции', 'Конституция күні']],
  ['10-25', ['День Республики', 'Республика күні']],
  ['12-16', ['День Независимости', 'Тәуелсіздік күні']],
]
const RELIGIOUS_FIXED: [string, Names][] = [['01-07', ['Православное Рождество', 'Православиелік Рождество']]]
const KURBAN_AIT_NAMES: Names = ['Курбан айт', 'Құрбан айт']
/** the first day of Kurban Ait, as the Spiritual Administration of Muslims announces it */
const KURBAN_AIT: Record<number, string> = { 2025: '2025-06-06', 2026: '2026-05-27', 2027: '2027-05-16' }
/** transfers ordered by the Ministry of Labour (a day off moved onto a weekday, the weekend day worked) */
const TRANSFERS: CalendarEntry[] = [
  { day: '2025-01-03', kind: 'holiday', name: 'Перенос дня отдыха с 5 января', name_kk: '5 қаңтардан ауыстырылған демалыс күні' },
  { day: '2025-01-05', kind: 'working', name: 'Рабочий день (перенос на 3 января)', name_kk: 'Жұмыс күні (демалыс 3 қаңтарға ауыстырылды)' },
]

const holiday = (day: string, [name, nameKk]: Names): CalendarEntry => ({ day, kind: 'holiday', name, name_kk: nameKk })

export const SHIPPED_YEARS = [2025, 2026, 2027]

export function kazakhstanCalendar (year: number): CalendarEntry[] {
  const entries = new Map<string, CalendarEntry>()
  const add = (e: CalendarEntry) => { if (!entries.has(e.day)) entries.set(e.day, e) }
  const secular = FIXED.map(([md, names]) => holiday(`${year}-${md}`, names))
  for (const e of secular) add(e)
  for (const [md, names] of RELIGIOUS_FIXED) add(holiday(`${year}-${md}`, names))
  if (KURBAN_AIT[year]) add(holiday(KURBAN_AIT[year], KURBAN_AIT_NAMES))
  // a secular holiday on a weekend gives the next weekday that is not a holiday itself
  for (const e of secular.filter((h) => isWeekend(dayNumberOf(h.day)))) {
    let d = dayNumberOf(e.day) + 1
    while (isWeekend(d) || entries.has(isoDay(d))) d++
    const date = `${e.day.slice(8)}.${e.day.slice(5, 7)}`
    add(holiday(isoDay(d), [`Перенос выходного: ${e.name} (${date})`, `Демалыс күнін ауыстыру: ${e.name_kk} (${date})`]))
  }
  for (const t of TRANSFERS.filter((t) => t.day.startsWith(`${year}-`))) entries.set(t.day, t)
  return [...entries.values()].sort((a, b) => a.day.localeCompare(b.day))
}
