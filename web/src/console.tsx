import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider } from 'antd'
import kkKZ from 'antd/locale/kk_KZ'
import ruRU from 'antd/locale/ru_RU'
import dayjs from 'dayjs'
import 'dayjs/locale/kk'
import 'dayjs/locale/ru'
import i18next from 'i18next'
import { useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { BrowserRouter } from 'react-router'
import type { ApiProblem } from './api/client'
import { keys } from './api/keys'
import { App } from './App'
import { SessionProvider } from './session/session'
import { nameControlsInLanguage } from './shell/aria-labels'

// A refusal (4xx) is the same the next time: it is shown at once, not after three retries' seven seconds.
// A request that did not reach the service, or a fault of the service, is tried twice more.
const transient = (problem: unknown) => { const status = (problem as Partial<ApiProblem> | null)?.status ?? 0; return status === 0 || status >= 500 }
// any change saved may change what the PBX runs: where its state is shown, it is asked again at once
const queries: QueryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: (failures, problem) => failures < 2 && transient(problem) } },
  mutationCache: new MutationCache({ onSuccess: () => { void queries.invalidateQueries({ queryKey: keys.admin.pbx.apply }) } }),
})

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)')
const watchReducedMotion = (changed: () => void) => {
  reducedMotion.addEventListener('change', changed)
  return () => reducedMotion.removeEventListener('change', changed)
}

/** the form checks' own words where Ant Design's are wrong («Название должна быть меньше или равна 255 символов») or absent */
/* eslint-disable no-template-curly-in-string -- Ant Design's own placeholders, filled in by its form */
const validateMessages = {
  ru: { string: { max: '${label}: не больше ${max} символов', min: '${label}: не меньше ${min} символов', len: '${label}: ровно ${len} символов' } },
  kk: { string: { max: '${label}: ${max} таңбадан аспауы керек', min: '${label}: кемінде ${min} таңба', len: '${label}: дәл ${len} таңба' } },
}
/* eslint-enable no-template-curly-in-string */

/** Ant Design's texts and dayjs follow the console's language (the page's title and lang: i18n); its animations follow the system's motion setting */
function Localized () {
  const { i18n } = useTranslation()
  const still = useSyncExternalStore(watchReducedMotion, () => reducedMotion.matches)
  const kk = i18n.language === 'kk'
  useEffect(() => { dayjs.locale(kk ? 'kk' : 'ru') }, [kk])
  return (
    <ConfigProvider locale={kk ? kkKZ : ruRU} form={{ validateMessages: validateMessages[kk ? 'kk' : 'ru'] }} theme={{ token: { colorPrimary: '#1454a0', borderRadius: 6, motion: !still } }}>
      <AntApp>
        <BrowserRouter basename='/console'>
          <SessionProvider><App /></SessionProvider>
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  )
}

nameControlsInLanguage(document.body, i18next)

/**
 * The whole console (Ant Design, the router, the session): main.tsx opens it at once, or after the
 * sign-in page, which is drawn without it.
 */
export function Console () {
  return <QueryClientProvider client={queries}><Localized /></QueryClientProvider>
}
