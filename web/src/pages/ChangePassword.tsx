import { Alert, Button, Card, Form, Input, message } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { api, problemOf } from '../api/client'
import { NewPasswordFields } from '../forms/PasswordFields'
import { showProblems } from '../forms/problems'
import { useSubmit } from '../forms/useSubmit'
import { useSession } from '../session/session'

interface Values { current_password: string, new_password: string }

/** the voluntary change, and the forced one before a first day's work (`must_change_password`) */
export function ChangePassword () {
  const { t } = useTranslation()
  const session = useSession()
  const navigate = useNavigate()
  const [form] = Form.useForm<Values>()
  const { busy, error, run } = useSubmit()
  const forced = session.mustChangePassword

  const submit = ({ current_password: current, new_password: next }: Values) => run(async () => {
    const { data, error: failure, response } = await api.POST('/api/auth/change-password', { body: { current_password: current, new_password: next } })
    if (!data) return showProblems(form, problemOf(failure, response), t)
    session.replaceToken(data.access_token)
    void message.success(t('changePassword.done'))
    form.resetFields()
    if (forced) navigate('/', { replace: true })
    return undefined
  })

  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('changePassword.title')}</h1>} style={{ maxWidth: 480 }}>
      {forced && <Alert type='info' showIcon message={t('changePassword.forced')} style={{ marginBottom: 16 }} />}
      {error && <Alert type='error' showIcon message={error} style={{ marginBottom: 16 }} role='alert' />}
      <Form form={form} layout='vertical' onFinish={submit} requiredMark={false}>
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
