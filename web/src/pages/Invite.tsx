import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Form, Skeleton, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { activateInvite, inviteQuery, signIn } from '../api/auth'
import { NewPasswordFields } from '../forms/PasswordFields'
import { useFormSubmit } from '../forms/useFormSubmit'
import { useFormat } from '../i18n/format'
import { useSession } from '../session/session'
import { EntryCard } from './EntryCard'

/** the invitation mail's link: who is invited, then the password; the first sign-in follows at once */
export function Invite () {
  const { t } = useTranslation()
  const format = useFormat()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const session = useSession()
  const navigate = useNavigate()
  const invite = useQuery({ ...inviteQuery(token), enabled: token !== '', retry: false })
  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: async ({ password }: { password: string }) => {
      await activateInvite({ token, password })
      // the first sign-in follows at once; should it fail, the sign-in page is the way in
      return signIn({ email: invite.data!.email, password }).catch(() => undefined)
    },
    onDone: (login) => {
      if (login) session.signIn(login)
      navigate(login ? '/' : '/signin', { replace: true })
    },
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
          <Form form={form} layout='vertical' onFinish={handleSubmit} requiredMark={false}>
            <input type='email' name='username' value={info.email} autoComplete='username' readOnly hidden />
            <NewPasswordFields name='password' />
            <Button type='primary' htmlType='submit' block loading={busy}>{t('invite.submit')}</Button>
          </Form>
        </>
      )}
    </EntryCard>
  )
}
