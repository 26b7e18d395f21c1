import { Segmented } from 'antd'
import { useTranslation } from 'react-i18next'
import { LANGUAGES, rememberLanguage, type Language } from '../i18n'
import { useOptionalSession } from '../session/session'

/** Русский / Қазақша (РУС / ҚАЗ when `short`, on a phone): the whole console at once, remembered for the signed-in user */
export function LanguageSwitch ({ short = false }: { short?: boolean }) {
  const { t, i18n } = useTranslation()
  const userId = useOptionalSession()?.user?.id
  return (
    <Segmented<Language>
      aria-label={t('language.label')}
      value={i18n.language === 'kk' ? 'kk' : 'ru'}
      options={LANGUAGES.map((value) => ({ value, label: t(short ? `language.short.${value}` : `language.${value}`), title: t(`language.${value}`) }))}
      onChange={(language) => {
        rememberLanguage(language, userId)
        void i18n.changeLanguage(language)
      }}
    />
  )
}
