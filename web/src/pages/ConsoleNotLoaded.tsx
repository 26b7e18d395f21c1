import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { reloadPage, reloadWhenServiceReturns } from '../shell/reload'
import './SignIn.css'

/**
 * The console's own code could not be fetched (offline, or a deployment replaced it): said in
 * words in the frame of the sign-in page, which needs none of it; the page reloads itself when the
 * service answers again, or when asked.
 */
export function ConsoleNotLoaded ({ failure }: { failure: unknown }) {
  const { t } = useTranslation()
  const [unreachable, setUnreachable] = useState(false)
  useEffect(() => reloadWhenServiceReturns(failure), [failure])
  return (
    <main className='entry'>
      <section className='entry-card' aria-labelledby='not-loaded-title' data-testid='page-failed'>
        <h1 id='not-loaded-title'>{t('failure.notLoaded')}</h1>
        <div className='entry-body'>
          <p role='status' style={{ marginTop: 0 }}>{t(unreachable ? 'failure.unreachable' : 'failure.notLoadedHint')}</p>
          <button type='button' className='entry-submit' onClick={() => { void reloadPage(failure, { asked: true }).then((reloading) => setUnreachable(!reloading)) }}>
            {t('failure.retry')}
          </button>
        </div>
      </section>
    </main>
  )
}
