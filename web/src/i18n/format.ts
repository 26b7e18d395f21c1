import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'

const LOCALES = { ru: 'ru-RU', kk: 'kk-KZ' } as const

/** dates and numbers in the console's language; the formatters are made once per language */
export function useFormat () {
  const { i18n } = useTranslation()
  const language = i18n.language === 'kk' ? 'kk' : 'ru'
  return useMemo(() => {
    const locale = LOCALES[language]
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' })
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })
    // a calendar day ('2026-03-21') is no moment: shown as written, whatever the browser's zone
    const day = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' })
    const shortDate = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' })
    const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short' })
    const number = new Intl.NumberFormat(locale)
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })
    return {
      dateTime: (value: string | Date) => dateTime.format(new Date(value)),
      date: (value: string | Date) => date.format(new Date(value)),
      day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
      shortDate: (value: string | Date) => shortDate.format(new Date(value)),
      time: (value: string | Date) => time.format(new Date(value)),
      number: (value: number) => number.format(value),
      percent: (value: number) => percent.format(value),
    }
  }, [language])
}
