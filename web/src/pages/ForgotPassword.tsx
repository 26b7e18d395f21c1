import { Alert, Button, Form, Input } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { api, problemOf } from '../api/client'
import { showProblems } from '../forms/problems'
import { useSubmit } from '../forms/useSubmit'
import { EntryCard } from './EntryCard'

export function ForgotPassword () {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ email: string }>()
  const [sent, setSent] = useState(false)
  const { busy, error, run } = useSubmit()

  const submit = (body: { email: string }) => run(async () => {
    const { data, error: failure, response } = await api.POST('/api/auth/forgot-password', { body })
    if (!data) return showProblems(form, problemOf(failure, response), t)
    setSent(true)
    return undefined
  })

  return (
    <EntryCard title={t('forgot.title')}>
      {sent
        ? <Alert type='success' showIcon message={t('forgot.sent')} role='status' />
        : (
          <>
            <p>{t('forgot.intro')}</p>
            {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
            <Form form={form} layout='vertical' onFinish={submit} requiredMark={false}>
              <Form.Item name='email' label={t('signIn.email')} rules={[{ required: true, message: t('common.required') }]}>
                <Input type='email' autoComplete='username' autoFocus />
              </Form.Item>
              <Button type='primary' htmlType='submit' block loading={busy}>{t('forgot.submit')}</Button>
            </Form>
          </>
          )}
      <div style={{ marginTop: 16, textAlign: 'center' }}><Link to='/signin'>{t('invite.toSignIn')}</Link></div>
    </EntryCard>
  )
}
