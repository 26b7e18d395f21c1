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
    const number = new Intl.NumberFormat(locale)
    return {
      dateTime: (value: string | Date) => dateTime.format(new Date(value)),
      date: (value: string | Date) => date.format(new Date(value)),
      number: (value: number) => number.format(value),
    }
  }, [language])
}
