import { useQuery } from '@tanstack/react-query'
import { Button, Checkbox, Col, Descriptions, Drawer, Form, Input, List, Popconfirm, Row, Select, Space, Switch, Table, Tabs, Tag, Tooltip } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import {
  createGroup, createOrganization, groupsQuery, notificationSettingsQuery, organizationListQuery, organizationQuery, removeGroup, removeOrganization,
  retryAllExtSync, retryExtSync, saveNotificationSettings, updateGroup, updateOrganization,
} from '../../api/organizations'
import { SearchTreeSelect } from '../../forms/SearchTreeSelect'
import { orNull } from '../../forms/values'
import { useFormat } from '../../i18n/format'
import { regionOptions, useLocalName, useRegionNames, useRegionTree } from '../../references/references'
import { FormModal, FormPanel, LoadError, PageTitle, useAction, useFormSave } from './kit'
import { WholeNumberItem } from '../../forms/WholeNumberItem'

type Organization = Schemas['SharedOrganizationResponse']
type Detail = Schemas['OrganizationDetailResponse']
const KEY = keys.admin.organizations.all
/** the modules offered (others can be typed in); `call_center` makes an organization's staff the centre's */
const MODULES = ['call_center', 'appeals', 'telephony'] as const
const SYNC_COLOR: Record<string, string> = { synced: 'green', pending: 'blue', failed: 'red', disabled: 'default' }

/** the organization's oblast and, below it, its city or district, named in the console's language */
function placeOf (o: Organization, names: Map<number, string>): string {
  const named = (id: number | null, name: string | null) => (id === null ? null : names.get(id)) ?? name
  const parts = [named(o.oblast_id, o.oblast_name), named(o.region_id, o.city_name ?? o.region_name)].filter((v): v is string => Boolean(v))
  return [...new Set(parts)].join(', ') || '—'
}

/** organizations: all three shapes' fields, groups, quotas, notification settings, ext sync with retry */
export function Organizations () {
  const { t } = useTranslation()
  const format = useFormat()
  const regionNames = useRegionNames()
  const [showInactive, setShowInactive] = useState(false)
  const [open, setOpen] = useState<number | 'new'>()
  const [groupsOpen, setGroupsOpen] = useState(false)
  const organizations = useQuery({
    ...organizationListQuery(showInactive),
    // a synchronisation under way is followed until it ends
    refetchInterval: (query) => (query.state.data?.some((o) => o.ext_sync_status === 'pending') ? 2000 : false),
  })
  const retry = useAction(KEY, (o: Organization) => retryExtSync(o.id), () => t('organizations.retryQueued'))
  const retryAll = useAction(KEY, retryAllExtSync, () => t('organizations.retryQueued'))
  const failed = (organizations.data ?? []).some((o) => o.ext_sync_status === 'failed')
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.organizations')}</PageTitle>
      <Space wrap>
        <Button type='primary' onClick={() => setOpen('new')}>{t('organizations.add')}</Button>
        <Button onClick={() => setGroupsOpen(true)}>{t('organizations.groups')}</Button>
        <Button disabled={!failed} loading={retryAll.isPending} onClick={() => retryAll.mutate(undefined)}>{t('organizations.retryAll')}</Button>
        <Checkbox checked={showInactive} onChange={(e) => setShowInactive(e.target.checked)}>{t('adminKit.showInactive')}</Checkbox>
      </Space>
      <LoadError query={organizations} />
      <Table<Organization>
        rowKey='id' size='small' loading={organizations.isLoading} dataSource={organizations.data} pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: t('organizations.empty') }} rowClassName={(o) => (o.is_active ? '' : 'row-inactive')}
        columns={[
          { title: t('organizations.prefix'), dataIndex: 'prefix', width: 90 },
          { title: t('organizations.name'), dataIndex: 'name', render: (name: string, o) => <a onClick={() => setOpen(o.id)}>{name}</a> },
          { title: t('organizations.region'), key: 'region', render: (_, o) => placeOf(o, regionNames) },
          { title: t('organizations.groups'), dataIndex: 'groups', render: (groups: Organization['groups']) => groups.map((g) => <Tag key={g.id}>{g.name}</Tag>) },
          { title: t('organizations.employees'), dataIndex: 'employee_count', align: 'right', width: 110 },
          { title: t('organizations.modules'), dataIndex: 'modules', render: (modules: string[]) => modules.map((m) => <Tag key={m}>{t(`organizations.module.${m}`, { defaultValue: m })}</Tag>) },
          {
            title: t('organizations.sync'), key: 'sync', render: (_, o) => (
              <Space>
                <Tooltip title={o.ext_sync_error ?? (o.ext_synced_at ? format.dateTime(o.ext_synced_at) : undefined)}>
                  <Tag color={SYNC_COLOR[o.ext_sync_status]}>{t(`organizations.syncStatus.${o.ext_sync_status}`, { defaultValue: o.ext_sync_status })}</Tag>
                </Tooltip>
                {o.ext_sync_status === 'failed' && <Button size='small' loading={retry.isPending && retry.variables?.id === o.id} onClick={() => retry.mutate(o)}>{t('organizations.retry')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      {open === 'new' && <OrganizationCreate onClose={() => setOpen(undefined)} />}
      {typeof open === 'number' && <OrganizationDrawer id={open} onClose={() => setOpen(undefined)} />}
      {groupsOpen && <Groups onClose={() => setGroupsOpen(false)} />}
    </Space>
  )
}

const useGroups = () => useQuery(groupsQuery)

/** the fields Shape A and S share: name, region, groups, modules */
function CommonFields () {
  const { t } = useTranslation()
  const regions = useRegionTree()
  const regionName = useLocalName('regions')
  const groups = useGroups()
  const required = { required: true, message: t('common.required') }
  return (
    <>
      <Form.Item name='name' label={t('organizations.name')} rules={[required, { max: 255 }]}><Input /></Form.Item>
      <Form.Item name='region_id' label={t('organizations.region')} rules={[required]}>
        <SearchTreeSelect treeData={regionOptions(regions.data ?? [], regionName)} loading={regions.isLoading} />
      </Form.Item>
      <Form.Item name='group_ids' label={t('organizations.groups')}>
        <Select mode='multiple' optionFilterProp='label' options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
      </Form.Item>
      <Form.Item name='modules' label={t('organizations.modules')}>
        <Select mode='tags' options={MODULES.map((m) => ({ value: m, label: t(`organizations.module.${m}`) }))} />
      </Form.Item>
    </>
  )
}

function OrganizationCreate ({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(KEY, createOrganization, onClose)
  return (
    <FormModal title={t('organizations.add')} state={state} onClose={onClose} initialValues={{ modules: ['call_center'], group_ids: [] }}>
      <Form.Item name='prefix' label={t('organizations.prefix')} extra={t('organizations.prefixHint')} rules={[{ required: true, message: t('common.required') }, { pattern: /^\d{3}$/, message: t('terminals.badExtension') }]}>
        <Input inputMode='numeric' maxLength={3} style={{ width: 120 }} />
      </Form.Item>
      <CommonFields />
    </FormModal>
  )
}

function OrganizationDrawer ({ id, onClose }: { id: number, onClose: () => void }) {
  const { t } = useTranslation()
  const detail = useQuery(organizationQuery(id))
  const remove = useAction(KEY, () => removeOrganization(id), (r) => { onClose(); return r.message })
  return (
    <Drawer
      open width={640} title={detail.data?.name ?? t('common.loading')} onClose={onClose} destroyOnHidden
      extra={<Popconfirm title={t('organizations.deleteConfirm')} onConfirm={() => remove.mutate(undefined)} okText={t('common.yes')} cancelText={t('common.no')}><Button danger loading={remove.isPending}>{t('terminals.delete')}</Button></Popconfirm>}
    >
      <LoadError query={detail} />
      {detail.data && (
        <Tabs items={[
          { key: 'main', label: t('organizations.main'), children: <OrganizationForm detail={detail.data} /> },
          { key: 'notifications', label: t('organizations.notifications'), children: <NotificationSettings id={id} /> },
        ]}
        />
      )}
    </Drawer>
  )
}

function OrganizationForm ({ detail }: { detail: Detail }) {
  const { t } = useTranslation()
  const state = useFormSave(KEY, (body: Schemas['OrganizationDetailUpdate']) => updateOrganization(detail.id, body), () => undefined)
  return (
    <FormPanel state={state} initialValues={{ ...detail, region_id: detail.region_id ?? undefined, group_ids: detail.groups.map((g) => g.id) }}>
      <CommonFields />
      <Row gutter={12}>
        <Col span={8}><Form.Item label={t('organizations.prefix')}><Input value={detail.prefix} disabled /></Form.Item></Col>
        <Col span={8}><WholeNumberItem name='max_queues' label={t('organizations.maxQueues')} min={0} max={100000} /></Col>
        <Col span={8}><WholeNumberItem name='max_operators' label={t('organizations.maxOperators')} min={0} max={100000} /></Col>
      </Row>
      <Form.Item name='is_active' label={t('adminKit.active')} valuePropName='checked'><Switch /></Form.Item>
      <Descriptions
        size='small' column={2} style={{ marginBottom: 16 }} items={[
          { key: 'employees', label: t('organizations.employees'), children: detail.employee_count },
          { key: 'operators', label: t('organizations.operators'), children: detail.operators_count },
          { key: 'queues', label: t('organizations.queues'), children: detail.queues_count },
          { key: 'terminals', label: t('organizations.terminals'), children: detail.endpoints_count },
        ]}
      />
    </FormPanel>
  )
}

function NotificationSettings ({ id }: { id: number }) {
  const { t } = useTranslation()
  const settings = useQuery(notificationSettingsQuery(id))
  const state = useFormSave(keys.admin.organizations.notifications(id), (values: Schemas['NotificationSettingsSave']) =>
    saveNotificationSettings(id, { ...values, partner_uuid: orNull(values.partner_uuid) }), () => undefined)
  if (!settings.data) return <LoadError query={settings} />
  const flags = ['is_active', 'call_local', 'call_longdistance', 'call_mobile', 'sms_enabled'] as const
  return (
    <FormPanel name='notifications' state={state} initialValues={settings.data}>
      {flags.map((flag) => <Form.Item key={flag} name={flag} valuePropName='checked' style={{ marginBottom: 8 }}><Checkbox>{t(`organizations.notify.${flag}`)}</Checkbox></Form.Item>)}
      <Form.Item name='partner_uuid' label={t('organizations.notify.partner_uuid')} rules={[{ pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, message: t('organizations.badUuid') }]}><Input /></Form.Item>
      <WholeNumberItem name='cli_route_id' label={t('organizations.notify.cli_route_id')} min={1} max={999999999} />
    </FormPanel>
  )
}

/** the shared groups organizations are filed under */
function Groups ({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const groups = useGroups()
  const [editing, setEditing] = useState<Schemas['GroupResponse'] | 'new'>()
  const remove = useAction(KEY, (g: Schemas['GroupResponse']) => removeGroup(g.id))
  return (
    <Drawer open width={480} title={t('organizations.groups')} onClose={onClose} extra={<Button type='primary' onClick={() => setEditing('new')}>{t('organizations.addGroup')}</Button>}>
      <LoadError query={groups} />
      <List
        loading={groups.isLoading} dataSource={groups.data} locale={{ emptyText: t('organizations.noGroups') }} renderItem={(g) => (
          <List.Item actions={[
            <Button key='edit' size='small' onClick={() => setEditing(g)}>{t('terminals.edit')}</Button>,
            <Popconfirm key='delete' title={t('adminKit.deleteConfirm', { name: g.name })} onConfirm={() => remove.mutate(g)} okText={t('common.yes')} cancelText={t('common.no')}><Button size='small' danger>{t('terminals.delete')}</Button></Popconfirm>,
          ]}
          >{g.name}
          </List.Item>
        )}
      />
      {editing && <GroupForm group={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Drawer>
  )
}

function GroupForm ({ group, onClose }: { group?: Schemas['GroupResponse'], onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(KEY, (body: Schemas['GroupCreate']) => group ? updateGroup(group.id, body) : createGroup(body), onClose)
  return (
    <FormModal title={group ? group.name : t('organizations.addGroup')} state={state} onClose={onClose} initialValues={group}>
      <Form.Item name='name' label={t('organizations.name')} rules={[{ required: true, message: t('common.required') }, { max: 255 }]}><Input autoFocus /></Form.Item>
    </FormModal>
  )
}
