import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Popconfirm, Select, Space, Table, Tag } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { actOnTenant, createTenant, tenantsQuery } from '../../api/tenants'
import { useFormat } from '../../i18n/format'
import { FormModal, LoadError, PageTitle, useAction, useFormSave } from './kit'

type Tenant = Schemas['TenantResponse']
type Status = Tenant['status']
const KEY = keys.admin.tenants.all
// the service's own rule for tenant and cell ids
const TENANT_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/
const STATUS_COLOR: Record<Status, string> = { active: 'green', suspended: 'orange', deleted: 'default' }

/** the platform's tenants in this cell: place, suspend, activate, delete (platform administrators) */
export function Tenants () {
  const { t } = useTranslation()
  const format = useFormat()
  const [status, setStatus] = useState<Status>()
  const [creating, setCreating] = useState(false)
  const tenants = useQuery(tenantsQuery(status))
  const act = useAction(KEY, ({ tenant, action }: { tenant: Tenant, action: 'suspend' | 'activate' | 'delete' }) => actOnTenant(tenant.tenant_id, action))
  const busy = (tenant: Tenant) => act.isPending && act.variables?.tenant.tenant_id === tenant.tenant_id
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.tenants')}</PageTitle>
      <Space wrap>
        <Button type='primary' onClick={() => setCreating(true)}>{t('tenants.add')}</Button>
        <Select
          allowClear placeholder={t('tenants.status')} aria-label={t('tenants.status')} style={{ width: 200 }} value={status} onChange={setStatus}
          options={(['active', 'suspended', 'deleted'] as const).map((s) => ({ value: s, label: t(`tenants.statuses.${s}`) }))}
        />
      </Space>
      <LoadError query={tenants} />
      <Table<Tenant>
        rowKey='tenant_id' size='small' loading={tenants.isLoading} dataSource={tenants.data} pagination={{ pageSize: 50, hideOnSinglePage: true }} locale={{ emptyText: t('tenants.empty') }}
        columns={[
          { title: t('tenants.id'), dataIndex: 'tenant_id' },
          { title: t('classifiers.name'), dataIndex: 'name' },
          { title: t('tenants.cell'), dataIndex: 'cell_id' },
          { title: t('tenants.status'), dataIndex: 'status', render: (s: Status) => <Tag color={STATUS_COLOR[s]}>{t(`tenants.statuses.${s}`)}</Tag> },
          { title: t('tenants.updated'), dataIndex: 'updated_at', render: (v: string) => format.dateTime(v) },
          {
            title: '', key: 'actions', render: (_, tenant) => tenant.status !== 'deleted' && (
              <Space>
                {tenant.status === 'active'
                  ? <Button size='small' loading={busy(tenant)} onClick={() => act.mutate({ tenant, action: 'suspend' })}>{t('tenants.suspend')}</Button>
                  : <Button size='small' loading={busy(tenant)} onClick={() => act.mutate({ tenant, action: 'activate' })}>{t('tenants.activate')}</Button>}
                <Popconfirm title={t('tenants.deleteConfirm', { name: tenant.name })} onConfirm={() => act.mutate({ tenant, action: 'delete' })} okText={t('common.yes')} cancelText={t('common.no')}>
                  <Button size='small' danger>{t('terminals.delete')}</Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {creating && <TenantCreate onClose={() => setCreating(false)} />}
    </Space>
  )
}

function TenantCreate ({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(KEY, createTenant, onClose)
  const required = { required: true, message: t('common.required') }
  return (
    <FormModal title={t('tenants.add')} state={state} onClose={onClose}>
      <Form.Item name='tenant_id' label={t('tenants.id')} extra={t('tenants.idHint')} rules={[required, { pattern: TENANT_ID, message: t('tenants.badId') }]}><Input autoFocus /></Form.Item>
      <Form.Item name='name' label={t('classifiers.name')} rules={[required, { max: 255 }]}><Input /></Form.Item>
      <Form.Item name='cell_id' label={t('tenants.cell')} rules={[required, { pattern: TENANT_ID, message: t('tenants.badId') }]}><Input /></Form.Item>
    </FormModal>
  )
}
