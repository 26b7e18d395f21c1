import { Alert, Button, Form, Input } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { api, problemOf } from '../api/client'
import { showProblems } from '../forms/problems'
import { useSession } from '../session/session'
import { EntryCard } from './EntryCard'

export function SignIn () {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ email: string, password: string }>()
  const [params] = useSearchParams()
  const session = useSession()
  const navigate = useNavigate()
  const [error, setError] = useState<string | undefined>(session.expired ? t('signIn.expired') : undefined)
  const [busy, setBusy] = useState(false)

  async function submit (values: { email: string, password: string }) {
    setBusy(true)
    setError(undefined)
    try {
      const { data, error: failure, response } = await api.POST('/api/auth/login', { body: values })
      if (data) {
        session.signIn(data)
        navigate(data.must_change_password ? '/change-password' : params.get('next') ?? '/', { replace: true })
        return
      }
      const problem = problemOf(failure, response)
      if (problem.status === 401) setError(t('signIn.invalid'))
      else if (problem.status === 429) setError(t('signIn.throttled', { minutes: Math.ceil((problem.retryAfter ?? 60) / 60) }))
      else setError(showProblems(form, problem, t))
    } catch {
      setError(t('common.networkError'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <EntryCard title={t('signIn.title')}>
      {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
      <Form form={form} layout='vertical' onFinish={submit} requiredMark={false}>
        <Form.Item name='email' label={t('signIn.email')} rules={[{ required: true, message: t('common.required') }]}>
          <Input type='email' autoComplete='username' autoFocus />
        </Form.Item>
        <Form.Item name='password' label={t('signIn.password')} rules={[{ required: true, message: t('common.required') }]}>
          <Input.Password autoComplete='current-password' />
        </Form.Item>
        <Button type='primary' htmlType='submit' block loading={busy}>{t('signIn.submit')}</Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}><Link to='/forgot-password'>{t('signIn.forgot')}</Link></div>
    </EntryCard>
  )
}
