import { useState } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * One form's sending: busy while it runs, and the message to show above the form. `work` answers
 * that message (undefined when all went well); a request that never reached the service says so.
 */
export function useSubmit (initialError?: string) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState(initialError)
  async function run (work: () => Promise<string | undefined>): Promise<void> {
    setBusy(true)
    setError(undefined)
    try {
      setError(await work())
    } catch {
      setError(t('common.networkError'))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, run }
}
