import { Alert, Button, Form } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { api, problemOf } from '../api/client'
import { NewPasswordFields } from '../forms/PasswordFields'
import { showProblems } from '../forms/problems'
import { useSubmit } from '../forms/useSubmit'
import { EntryCard } from './EntryCard'

/** the reset mail's link */
export function ResetPassword () {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [form] = Form.useForm<{ new_password: string }>()
  const [done, setDone] = useState(false)
  const { busy, error, run } = useSubmit(token === '' ? t('reset.invalid') : undefined)

  const submit = ({ new_password: newPassword }: { new_password: string }) => run(async () => {
    const { data, error: failure, response } = await api.POST('/api/auth/reset-password', { body: { token, new_password: newPassword } })
    if (data) { setDone(true); return undefined }
    const problem = problemOf(failure, response)
    return problem.status === 400 ? t('reset.invalid') : showProblems(form, problem, t)
  })

  return (
    <EntryCard title={t('reset.title')}>
      {done
        ? <Alert type='success' showIcon message={t('reset.done')} role='status' />
        : (
          <>
            {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
            <Form form={form} layout='vertical' onFinish={submit} requiredMark={false} disabled={token === ''}>
              <NewPasswordFields name='new_password' />
              <Button type='primary' htmlType='submit' block loading={busy}>{t('reset.submit')}</Button>
            </Form>
          </>
          )}
      <div style={{ marginTop: 16, textAlign: 'center' }}><Link to='/signin'>{t('invite.toSignIn')}</Link></div>
    </EntryCard>
  )
}
