import { Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'

/** a new password twice, checked as the service checks it (at least 10 characters) before it is sent */
export function NewPasswordFields ({ name }: { name: string }) {
  const { t } = useTranslation()
  return (
    <>
      <Form.Item
        name={name} label={t('password.newPassword')} extra={t('password.rules')} hasFeedback
        rules={[{ required: true, message: t('common.required') }, { min: 10, message: t('password.tooShort') }]}
      >
        <Input.Password autoComplete='new-password' />
      </Form.Item>
      <Form.Item
        name='repeat' label={t('password.repeat')} dependencies={[name]} hasFeedback
        rules={[{ required: true, message: t('common.required') }, ({ getFieldValue }) => ({
          validator: async (_, value) => { if (value && value !== getFieldValue(name)) throw new Error(t('password.mismatch')) },
        })]}
      >
        <Input.Password autoComplete='new-password' />
      </Form.Item>
    </>
  )
}
