import { Alert, Button, Card, Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { changePassword } from '../api/auth'
import { NewPasswordFields } from '../forms/PasswordFields'
import { useFormSubmit } from '../forms/useFormSubmit'
import { useSession } from '../session/session'

interface Values { current_password: string, new_password: string }

/** the voluntary change, and the forced one before a first day's work (`must_change_password`) */
export function ChangePassword () {
  const { t } = useTranslation()
  const session = useSession()
  const navigate = useNavigate()
  const forced = session.mustChangePassword
  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: (values: Values) => changePassword(values),
    saidOnDone: t('changePassword.done'),
    onDone: (answer) => {
      session.replaceToken(answer.access_token)
      form.resetFields()
      if (forced) navigate('/', { replace: true })
    },
  })

  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('changePassword.title')}</h1>} style={{ maxWidth: 480 }}>
      {forced && <Alert type='info' showIcon message={t('changePassword.forced')} style={{ marginBottom: 16 }} />}
      {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
      <Form form={form} layout='vertical' onFinish={handleSubmit} requiredMark={false}>
        <input type='email' name='username' value={session.user?.email ?? ''} autoComplete='username' readOnly hidden />
        <Form.Item name='current_password' label={t('password.current')} rules={[{ required: true, message: t('common.required') }]}>
          <Input.Password autoComplete='current-password' autoFocus />
        </Form.Item>
        <NewPasswordFields name='new_password' />
        <Button type='primary' htmlType='submit' loading={busy}>{t('changePassword.submit')}</Button>
      </Form>
    </Card>
  )
}
