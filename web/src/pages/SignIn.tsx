import { Alert, Button, Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { api, problemOf } from '../api/client'
import { showProblems } from '../forms/problems'
import { useSubmit } from '../forms/useSubmit'
import { useSession } from '../session/session'
import { EntryCard } from './EntryCard'

export function SignIn () {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ email: string, password: string }>()
  const [params] = useSearchParams()
  const session = useSession()
  const navigate = useNavigate()
  const { busy, error, run } = useSubmit(session.expired ? t('signIn.expired') : undefined)

  const submit = (values: { email: string, password: string }) => run(async () => {
    const { data, error: failure, response } = await api.POST('/api/auth/login', { body: values })
    if (data) {
      session.signIn(data)
      navigate(data.must_change_password ? '/change-password' : params.get('next') ?? '/', { replace: true })
      return undefined
    }
    const problem = problemOf(failure, response)
    if (problem.status === 401) return t('signIn.invalid')
    if (problem.status === 429) return t('signIn.throttled', { minutes: Math.ceil((problem.retryAfter ?? 60) / 60) })
    return showProblems(form, problem, t)
  })

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
