import type { TFunction } from 'i18next'
import { useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem, Schemas } from '../api/client'
import { signIn } from '../api/auth'
import { messageOf, problemText } from '../forms/problems'
import { LANGUAGES, rememberLanguage, type Language } from '../i18n'
import './SignIn.css'

// The first page most users open, on an office PC with nothing cached: it is drawn with React
// and plain CSS only, so that it can be used before Ant Design and the console have loaded
// (issue 35: within 1 s of a cold load). It looks like the console's other entry pages.

type Field = 'email' | 'password'
type FieldErrors = Partial<Record<Field, string>>

export interface SignInProps {
  /** the session ended by the service (a 401): said above the form */
  expired?: boolean
  /** what follows a sign-in the service accepted; a rejection (the console could not load) is said above the form */
  onSignedIn: (answer: Schemas['LoginResponse']) => void | Promise<void>
  onForgot: () => void
}

export function SignIn ({ expired = false, onSignedIn, onForgot }: SignInProps) {
  const { t } = useTranslation()
  const [values, setValues] = useState({ email: '', password: '' })
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({})
  const [error, setError] = useState(expired ? t('signIn.expired') : undefined)
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setFieldErrors((e) => ({ ...e, [field]: value.trim() === '' ? t('common.required') : undefined }))
  }

  async function submit (event: FormEvent) {
    event.preventDefault()
    const missing: FieldErrors = { email: values.email.trim() === '' ? t('common.required') : undefined, password: values.password === '' ? t('common.required') : undefined }
    setFieldErrors(missing)
    if (missing.email || missing.password || busy) return
    setBusy(true)
    setError(undefined)
    try {
      const answer = await signIn({ email: values.email.trim(), password: values.password })
      await onSignedIn(answer)
    } catch (failure) {
      setBusy(false)
      if (!isProblem(failure)) { setError(t('common.networkError')); return }
      const onFields = fieldsOf(failure, t)
      if (onFields) setFieldErrors(onFields)
      else setError(explain(failure, t))
    }
  }

  return (
    <main className='entry'>
      <div className='entry-top'>
        <strong>{t('app.centre')}</strong>
        <LanguageChoice />
      </div>
      <section className='entry-card' aria-labelledby='sign-in-title'>
        <h1 id='sign-in-title'>{t('signIn.title')}</h1>
        <div className='entry-body'>
          {error && <div className='entry-alert' role='alert'><span aria-hidden='true' className='entry-alert-icon'>!</span>{error}</div>}
          <form noValidate onSubmit={(e) => { void submit(e) }}>
            <FormField id='sign-in-email' label={t('signIn.email')} error={fieldErrors.email}>
              <input
                id='sign-in-email' type='email' autoComplete='username' autoFocus value={values.email}
                aria-invalid={fieldErrors.email ? true : undefined} aria-describedby={fieldErrors.email ? 'sign-in-email-error' : undefined}
                onChange={(e) => change('email', e.target.value)}
              />
            </FormField>
            <FormField id='sign-in-password' label={t('signIn.password')} error={fieldErrors.password}>
              <span className='entry-password'>
                <input
                  id='sign-in-password' type={shown ? 'text' : 'password'} autoComplete='current-password' value={values.password}
                  aria-invalid={fieldErrors.password ? true : undefined} aria-describedby={fieldErrors.password ? 'sign-in-password-error' : undefined}
                  onChange={(e) => change('password', e.target.value)}
                />
                <button type='button' className='entry-reveal' aria-pressed={shown} title={t(shown ? 'signIn.hide' : 'signIn.show')} aria-label={t(shown ? 'signIn.hide' : 'signIn.show')} onClick={() => setShown(!shown)}>
                  <EyeIcon crossed={!shown} />
                </button>
              </span>
            </FormField>
            <button type='submit' className='entry-submit' disabled={busy} aria-busy={busy}>
              {busy && <span className='entry-spinner' aria-hidden='true' />}{t('signIn.submit')}
            </button>
          </form>
          <p className='entry-more'><a href='/console/forgot-password' onClick={(e) => { e.preventDefault(); onForgot() }}>{t('signIn.forgot')}</a></p>
        </div>
      </section>
    </main>
  )
}

function FormField ({ id, label, error, children }: { id: string, label: string, error?: string, children: ReactNode }) {
  return (
    <div className={error ? 'entry-field entry-field-error' : 'entry-field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && <div id={`${id}-error`} className='entry-error'>{error}</div>}
    </div>
  )
}

/** Русский / Қазақша, as the console's switch: the page at once, remembered for the next visit */
function LanguageChoice () {
  const { t, i18n } = useTranslation()
  const current: Language = i18n.language === 'kk' ? 'kk' : 'ru'
  return (
    <div className='entry-languages' role='group' aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language} type='button' aria-pressed={language === current} className={language === current ? 'entry-language entry-language-on' : 'entry-language'}
          onClick={() => { rememberLanguage(language); void i18n.changeLanguage(language) }}
        >{t(`language.${language}`)}
        </button>
      ))}
    </div>
  )
}

function EyeIcon ({ crossed }: { crossed: boolean }) {
  return (
    <svg viewBox='0 0 24 24' width='16' height='16' aria-hidden='true' fill='none' stroke='currentColor' strokeWidth='2' strokeLinecap='round'>
      <path d='M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z' />
      <circle cx='12' cy='12' r='3' />
      {crossed && <path d='M4 4l16 16' />}
    </svg>
  )
}

const isProblem = (value: unknown): value is ApiProblem => typeof value === 'object' && value !== null && 'status' in value

/** a 422 on the email or the password, said under it */
function fieldsOf (problem: ApiProblem, t: TFunction): FieldErrors | undefined {
  if (problem.status !== 422 || !Array.isArray(problem.detail)) return undefined
  const errors: FieldErrors = {}
  for (const p of problem.detail) {
    const field = p.loc[1]
    if (field !== 'email' && field !== 'password') return undefined
    errors[field] = p.type === 'missing' ? t('common.required') : messageOf(t, p.msg)
  }
  return errors
}

function explain (problem: ApiProblem, t: TFunction): string {
  if (problem.status === 401) return t('signIn.invalid')
  if (problem.status === 429) return t('signIn.throttled', { minutes: Math.ceil((problem.retryAfter ?? 60) / 60) })
  return problemText(t, problem)
}
