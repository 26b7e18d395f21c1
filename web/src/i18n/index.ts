import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { kk } from './kk'
import { ru } from './ru'

export type Language = 'ru' | 'kk'
export const LANGUAGES: Language[] = ['ru', 'kk']

const STORAGE_KEY = 'console.language'
/** the language is remembered per user (and the last one used for the sign-in page) */
const keyOf = (userId?: number) => userId === undefined ? STORAGE_KEY : `${STORAGE_KEY}.${userId}`

export function rememberedLanguage (userId?: number): Language {
  const stored = localStorage.getItem(keyOf(userId)) ?? localStorage.getItem(STORAGE_KEY)
  return stored === 'kk' ? 'kk' : 'ru'
}

export function rememberLanguage (language: Language, userId?: number): void {
  localStorage.setItem(STORAGE_KEY, language)
  if (userId !== undefined) localStorage.setItem(keyOf(userId), language)
}

void i18next.use(initReactI18next).init({
  resources: { ru: { translation: ru }, kk: { translation: kk } },
  lng: rememberedLanguage(),
  fallbackLng: 'ru',
  interpolation: { escapeValue: false },
})

export default i18next

// t('...') takes only keys that ru.ts has (and kk.ts, typed by it): a misspelt or missing key fails the type check
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: typeof ru }
  }
}
