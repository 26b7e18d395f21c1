import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Form, Skeleton, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { api, problemOf } from '../api/client'
import { NewPasswordFields } from '../forms/PasswordFields'
import { showProblems } from '../forms/problems'
import { useSubmit } from '../forms/useSubmit'
import { useFormat } from '../i18n/format'
import { useSession } from '../session/session'
import { EntryCard } from './EntryCard'

/** the invitation mail's link: who is invited, then the password; the first sign-in follows at once */
export function Invite () {
  const { t } = useTranslation()
  const format = useFormat()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [form] = Form.useForm<{ password: string }>()
  const { busy, error, run } = useSubmit()
  const session = useSession()
  const navigate = useNavigate()
  const invite = useQuery({
    queryKey: ['invite', token],
    enabled: token !== '',
    retry: false,
    queryFn: async () => {
      const { data, error: failure, response } = await api.GET('/api/auth/invite/{token}', { params: { path: { token } } })
      if (data) return data
      if (response.status === 404 || response.status === 422) return null
      throw problemOf(failure, response)
    },
  })

  const submit = ({ password }: { password: string }) => run(async () => {
    const activated = await api.POST('/api/auth/invite/activate', { body: { token, password } })
    if (!activated.data) return showProblems(form, problemOf(activated.error, activated.response), t)
    const login = await api.POST('/api/auth/login', { body: { email: invite.data!.email, password } })
    if (login.data) session.signIn(login.data)
    navigate(login.data ? '/' : '/signin', { replace: true })
    return undefined
  })

  const info = invite.data
  const unusable = token === '' || info === null ? t('invite.invalid') : info && !info.valid ? t(info.reason === 'used' ? 'invite.used' : 'invite.expired') : undefined
  return (
    <EntryCard title={t('invite.title')}>
      {invite.isLoading && <Skeleton active />}
      {invite.isError && <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void invite.refetch() }}>{t('common.retry')}</Button>} />}
      {unusable && (
        <>
          <Alert type='warning' showIcon message={unusable} role='alert' style={{ marginBottom: 16 }} />
          <Link to='/signin'>{t('invite.toSignIn')}</Link>
        </>
      )}
      {info?.valid && (
        <>
          <Typography.Paragraph>{t('invite.intro', { name: info.full_name, email: info.email })}</Typography.Paragraph>
          <Typography.Paragraph type='secondary'>{t('invite.validUntil', { date: format.dateTime(info.expires_at) })}</Typography.Paragraph>
          {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
          <Form form={form} layout='vertical' onFinish={submit} requiredMark={false}>
            <input type='email' name='username' value={info.email} autoComplete='username' readOnly hidden />
            <NewPasswordFields name='password' />
            <Button type='primary' htmlType='submit' block loading={busy}>{t('invite.submit')}</Button>
          </Form>
        </>
      )}
    </EntryCard>
  )
}
