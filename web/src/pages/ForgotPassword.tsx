import { Alert, Button, Form, Input } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { forgotPassword } from '../api/auth'
import { useFormSubmit } from '../forms/useFormSubmit'
import { EntryCard } from './EntryCard'

export function ForgotPassword () {
  const { t } = useTranslation()
  const [sent, setSent] = useState(false)
  const { form, busy, error, handleSubmit } = useFormSubmit({ send: forgotPassword, onDone: () => setSent(true) })

  return (
    <EntryCard title={t('forgot.title')}>
      {sent
        ? <Alert type='success' showIcon message={t('forgot.sent')} role='status' />
        : (
          <>
            <p>{t('forgot.intro')}</p>
            {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
            <Form form={form} layout='vertical' onFinish={handleSubmit} requiredMark={false}>
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
