import { Alert, Button, Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { signIn } from '../api/auth'
import { useFormSubmit } from '../forms/useFormSubmit'
import { useSession } from '../session/session'
import { EntryCard } from './EntryCard'

export function SignIn () {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const session = useSession()
  const navigate = useNavigate()
  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: signIn,
    onDone: (answer) => {
      session.signIn(answer)
      navigate(answer.must_change_password ? '/change-password' : params.get('next') ?? '/', { replace: true })
    },
    explain: (problem) => problem.status === 401
      ? t('signIn.invalid')
      : problem.status === 429 ? t('signIn.throttled', { minutes: Math.ceil((problem.retryAfter ?? 60) / 60) }) : undefined,
    initialError: session.expired ? t('signIn.expired') : undefined,
  })

  return (
    <EntryCard title={t('signIn.title')}>
      {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
      <Form form={form} layout='vertical' onFinish={handleSubmit} requiredMark={false}>
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
