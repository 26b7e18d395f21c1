import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Card, Descriptions, Form, Input, Skeleton, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { profileQuery, saveProfile } from '../api/auth'
import { keys } from '../api/keys'
import { useFormSubmit } from '../forms/useFormSubmit'

interface Values { phone: string, position: string }

export function Profile () {
  const { t } = useTranslation()
  const profile = useQuery(profileQuery)
  const { form, busy, error, handleSubmit } = useFormSubmit({ send: (values: Values) => saveProfile(values), invalidates: [keys.profile], saidOnDone: t('common.saved') })

  const p = profile.data
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('profile.title')}</h1>} style={{ maxWidth: 720 }}>
      {profile.isLoading && <Skeleton active />}
      {profile.isError && <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void profile.refetch() }}>{t('common.retry')}</Button>} />}
      {p && (
        <Space direction='vertical' size='large' style={{ width: '100%' }}>
          <Descriptions column={1} bordered size='small'>
            <Descriptions.Item label={t('profile.fullName')}>{p.full_name}</Descriptions.Item>
            <Descriptions.Item label={t('profile.email')}>{p.email}</Descriptions.Item>
            <Descriptions.Item label={t('profile.role')}>{t(`roles.${p.role}`, { defaultValue: p.role })}</Descriptions.Item>
            <Descriptions.Item label={t('profile.organization')}>{p.organization_name ?? t('profile.noOrganization')}</Descriptions.Item>
          </Descriptions>
          {error && <Alert type='error' showIcon message={error} role='alert' />}
          <Form form={form} layout='vertical' initialValues={{ phone: p.phone ?? '', position: p.position ?? '' }} onFinish={handleSubmit} style={{ maxWidth: 420 }}>
            <Form.Item name='position' label={t('profile.position')} rules={[{ max: 255 }]}><Input /></Form.Item>
            <Form.Item name='phone' label={t('profile.phone')} rules={[{ max: 32 }]}><Input type='tel' placeholder='+7 701 123 45 67' /></Form.Item>
            <Space>
              <Button type='primary' htmlType='submit' loading={busy}>{t('common.save')}</Button>
              <Link to='/change-password'>{t('nav.changePassword')}</Link>
            </Space>
          </Form>
        </Space>
      )}
    </Card>
  )
}
