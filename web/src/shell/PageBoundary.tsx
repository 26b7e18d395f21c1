import { Button, Result } from 'antd'
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { isChunkFailure, reloadPage, serverAnswers } from './reload'

interface Props { children: ReactNode }
interface State { failed: boolean, error: unknown }

/**
 * No page ends blank: what a page throws while it renders (its code that could not be fetched, a
 * fault) is said in words with a way to try again, and the menu and header stay usable.
 */
export class PageBoundary extends Component<Props, State> {
  state: State = { failed: false, error: undefined }

  static getDerivedStateFromError (error: unknown): State {
    return { failed: true, error }
  }

  componentDidCatch (error: unknown, info: ErrorInfo): void {
    console.error('page failed', error, info.componentStack)
  }

  render (): ReactNode {
    if (!this.state.failed) return this.props.children
    return <PageFailed error={this.state.error} retry={() => this.setState({ failed: false, error: undefined })} />
  }
}

/** how often a page whose code could not be fetched asks whether the service is back */
const PROBE_EVERY_MS = 5_000

function PageFailed ({ error, retry }: { error: unknown, retry: () => void }) {
  const { t } = useTranslation()
  const chunk = isChunkFailure(error)
  const [unreachable, setUnreachable] = useState(false)
  const tryAgain = () => { if (chunk) void reloadPage(error, { asked: true }).then((reloading) => setUnreachable(!reloading)); else retry() }
  // offline, the page's code is fetched again as soon as the service answers: on the browser's
  // `online`, and every few seconds (the network may come back without the browser noticing)
  useEffect(() => {
    if (!chunk) return
    let answered = false
    const probe = async () => {
      if (answered || !(await serverAnswers())) return
      answered = true
      await reloadPage(error)
    }
    const onOnline = () => { void probe() }
    const timer = setInterval(onOnline, PROBE_EVERY_MS)
    window.addEventListener('online', onOnline)
    return () => { clearInterval(timer); window.removeEventListener('online', onOnline) }
  }, [chunk, error])
  return (
    <Result
      status='warning' data-testid='page-failed'
      title={t(chunk ? 'failure.notLoaded' : 'failure.broken')}
      subTitle={t(unreachable ? 'failure.unreachable' : chunk ? 'failure.notLoadedHint' : 'failure.brokenHint')}
      extra={<Button type='primary' onClick={tryAgain}>{t('failure.retry')}</Button>}
    />
  )
}
