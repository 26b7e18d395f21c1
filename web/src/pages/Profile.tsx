import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Card, Descriptions, Form, Input, Skeleton, Space, message } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { api, problemOf, type ApiProblem } from '../api/client'
import { showProblems } from '../forms/problems'

interface Values { phone: string, position: string }

export function Profile () {
  const { t } = useTranslation()
  const [form] = Form.useForm<Values>()
  const [error, setError] = useState<string>()
  const queries = useQueryClient()
  const profile = useQuery({
    queryKey: ['profile'],
    queryFn: async () => {
      const { data, error: failure, response } = await api.GET('/api/auth/profile')
      if (!data) throw problemOf(failure, response)
      return data
    },
  })
  const save = useMutation({
    mutationFn: async (values: Values) => {
      const { data, error: failure, response } = await api.PUT('/api/auth/profile', { params: { query: values } })
      if (!data) throw problemOf(failure, response)
      return data
    },
    onSuccess: async () => {
      setError(undefined)
      void message.success(t('common.saved'))
      await queries.invalidateQueries({ queryKey: ['profile'] })
    },
    onError: (problem: ApiProblem) => setError(showProblems(form, problem, t)),
  })

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
          <Form form={form} layout='vertical' initialValues={{ phone: p.phone ?? '', position: p.position ?? '' }} onFinish={(v) => save.mutate(v)} style={{ maxWidth: 420 }}>
            <Form.Item name='position' label={t('profile.position')} rules={[{ max: 255 }]}><Input /></Form.Item>
            <Form.Item name='phone' label={t('profile.phone')} rules={[{ max: 32 }]}><Input type='tel' placeholder='+7 701 123 45 67' /></Form.Item>
            <Space>
              <Button type='primary' htmlType='submit' loading={save.isPending}>{t('common.save')}</Button>
              <Link to='/change-password'>{t('nav.changePassword')}</Link>
            </Space>
          </Form>
        </Space>
      )}
    </Card>
  )
}
