import { Alert, Button, Form } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { resetPassword } from '../api/auth'
import { NewPasswordFields } from '../forms/PasswordFields'
import { useFormSubmit } from '../forms/useFormSubmit'
import { EntryCard } from './EntryCard'

/** the reset mail's link */
export function ResetPassword () {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [done, setDone] = useState(false)
  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: ({ new_password: newPassword }: { new_password: string }) => resetPassword({ token, new_password: newPassword }),
    onDone: () => setDone(true),
    explain: (problem) => (problem.status === 400 ? t('reset.invalid') : undefined),
    initialError: token === '' ? t('reset.invalid') : undefined,
  })

  return (
    <EntryCard title={t('reset.title')}>
      {done
        ? <Alert type='success' showIcon message={t('reset.done')} role='status' />
        : (
          <>
            {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
            <Form form={form} layout='vertical' onFinish={handleSubmit} requiredMark={false} disabled={token === ''}>
              <NewPasswordFields name='new_password' />
              <Button type='primary' htmlType='submit' block loading={busy}>{t('reset.submit')}</Button>
            </Form>
          </>
          )}
      <div style={{ marginTop: 16, textAlign: 'center' }}><Link to='/signin'>{t('invite.toSignIn')}</Link></div>
    </EntryCard>
  )
}
