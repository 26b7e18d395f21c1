import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { centreDayOf, centreZone } from './centre-time'

const LOCALES = { ru: 'ru-RU', kk: 'kk-KZ' } as const

export interface Formats {
  dateTime: (value: string | Date) => string
  date: (value: string | Date) => string
  /** a calendar day ('2026-03-21') with its weekday: no moment, shown as written whatever the browser's zone */
  day: (value: string) => string
  /** a calendar day ('2026-03-21'), short: '21 мар.' */
  shortDay: (value: string) => string
  shortDate: (value: string | Date) => string
  time: (value: string | Date) => string
  /** HH:MM:SS on the centre's clock */
  clock: (value: string | Date) => string
  number: (value: number) => string
  percent: (value: number) => string
}

/**
 * Dates and numbers in the console's language; the formatters are made once per language. Moments
 * are shown on the centre's clock (TIME_ZONE), not the browser's: a deadline reads as the centre has it.
 */
export function useFormat (): Formats {
  const { i18n } = useTranslation()
  const language = i18n.language === 'kk' ? 'kk' : 'ru'
  return useMemo(() => (language === 'kk' && !browserKnowsKazakh() ? kazakhByHand() : formatsOf(LOCALES[language])), [language])
}

function formatsOf (locale: string): Formats {
  const timeZone = centreZone()
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone })
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone })
  const day = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' })
  const shortDay = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' })
  const shortDate = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone })
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone })
  const clock = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone })
  const number = new Intl.NumberFormat(locale)
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })
  return {
    dateTime: (value) => dateTime.format(new Date(value)),
    date: (value) => date.format(new Date(value)),
    day: (value) => day.format(new Date(`${value}T00:00:00Z`)),
    shortDay: (value) => shortDay.format(new Date(`${value}T00:00:00Z`)),
    shortDate: (value) => shortDate.format(new Date(value)),
    time: (value) => time.format(new Date(value)),
    clock: (value) => clock.format(new Date(value)),
    number: (value) => number.format(value),
    percent: (value) => percent.format(value),
  }
}

// Chromium built with a reduced ICU (Debian's, as in the centre's offices) has no Kazakh: it writes
// "M01 1, Thu". Then the months and weekdays come from here, numbers as in Russian (the same rules).
const KK_MONTHS = ['қаңтар', 'ақпан', 'наурыз', 'сәуір', 'мамыр', 'маусым', 'шілде', 'тамыз', 'қыркүйек', 'қазан', 'қараша', 'желтоқсан']
const KK_WEEKDAYS = ['жс', 'дс', 'сс', 'ср', 'бс', 'жм', 'сб']

let kazakhKnown: boolean | undefined
function browserKnowsKazakh (): boolean {
  kazakhKnown ??= new Intl.DateTimeFormat(LOCALES.kk, { month: 'long' }).format(new Date(2026, 0, 15)).includes('қаңтар')
  return kazakhKnown
}

function dayParts (day: string) {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return { day: date, month: KK_MONTHS[month - 1]!, year }
}

function kazakhByHand (): Formats {
  const ru = formatsOf(LOCALES.ru)
  // the centre's day of a moment, then its parts
  const parts = (value: string | Date) => dayParts(centreDayOf(value))
  return {
    ...ru,
    dateTime: (value) => { const p = parts(value); return `${p.year} ж. ${p.day} ${p.month}, ${ru.time(value)}` },
    date: (value) => { const p = parts(value); return `${p.year} ж. ${p.day} ${p.month}` },
    day: (value) => { const d = new Date(`${value}T00:00:00Z`); return `${KK_WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${KK_MONTHS[d.getUTCMonth()]}` },
    shortDate: (value) => { const p = parts(value); return `${p.day} ${p.month.slice(0, 3)}.` },
    shortDay: (value) => { const p = dayParts(value); return `${p.day} ${p.month.slice(0, 3)}.` },
  }
}
