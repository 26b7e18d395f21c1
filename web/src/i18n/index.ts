import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { kk } from './kk'
import { ru } from './ru'

export type Language = 'ru' | 'kk'
export const LANGUAGES: Language[] = ['ru', 'kk']

const STORAGE_KEY = 'console.language'
/** the language is remembered per user (and the last one used for the sign-in page) */
const keyOf = (userId?: number) => userId === undefined ? STORAGE_KEY : `${STORAGE_KEY}.${userId}`

/** the browser's first preference among the console's languages (a browser set to kk or kk-KZ gets Kazakh); Russian otherwise */
function browserLanguage (): Language {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0]
    if (base === 'kk' || base === 'ru') return base
  }
  return 'ru'
}

/** the user's language as last chosen, or the browser's before any choice */
export function rememberedLanguage (userId?: number): Language {
  const stored = localStorage.getItem(keyOf(userId)) ?? localStorage.getItem(STORAGE_KEY)
  return stored === 'kk' || stored === 'ru' ? stored : browserLanguage()
}

export function rememberLanguage (language: Language, userId?: number): void {
  localStorage.setItem(STORAGE_KEY, language)
  if (userId !== undefined) localStorage.setItem(keyOf(userId), language)
}

/** the page's title and lang follow the console's language (a screen reader reads Kazakh as Kazakh) */
function followLanguage (language: string): void {
  document.documentElement.lang = language
  document.title = i18next.t('app.title')
}
i18next.on('languageChanged', followLanguage)

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
