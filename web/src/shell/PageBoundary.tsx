import { Button, Result } from 'antd'
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { isChunkFailure, reloadPage, reloadWhenServiceReturns } from './reload'

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

function PageFailed ({ error, retry }: { error: unknown, retry: () => void }) {
  const { t } = useTranslation()
  const chunk = isChunkFailure(error)
  const [unreachable, setUnreachable] = useState(false)
  const tryAgain = () => { if (chunk) void reloadPage(error, { asked: true }).then((reloading) => setUnreachable(!reloading)); else retry() }
  useEffect(() => chunk ? reloadWhenServiceReturns(error) : undefined, [chunk, error])
  return (
    <Result
      status='warning' data-testid='page-failed'
      title={t(chunk ? 'failure.notLoaded' : 'failure.broken')}
      subTitle={t(unreachable ? 'failure.unreachable' : chunk ? 'failure.notLoadedHint' : 'failure.brokenHint')}
      extra={<Button type='primary' onClick={tryAgain}>{t('failure.retry')}</Button>}
    />
  )
}
