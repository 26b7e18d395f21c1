import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Checkbox, Col, Empty, Form, Input, Modal, Popconfirm, Radio, Row, Select, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { Schemas } from '../../api/client'
import { employeesOfQuery } from '../../api/employees'
import { keys } from '../../api/keys'
import { createEndpoint, endpointStatusQuery, endpointsQuery, removeEndpoint, setEndpointPassword, updateEndpoint } from '../../api/telephony'
import { useFormSubmit } from '../../forms/useFormSubmit'
import { useSession } from '../../session/session'
import { OrganizationPicker } from './OrganizationPicker'
import { OrganizationApplyTag } from './PbxApply'
import { PhoneSettings } from './PhoneSettings'
import { WholeNumberItem } from '../../forms/WholeNumberItem'

type Endpoint = Schemas['EndpointResponse']
type EndpointValues = Partial<Schemas['EndpointCreate']>

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** a SIP password as the service requires it: 20 characters of A-Z, a-z, 0-9 from the browser's CSPRNG */
export function generatePassword (): string {
  const bytes = crypto.getRandomValues(new Uint8Array(40))
  // rejection sampling keeps the characters uniform (256 is not a multiple of 62)
  const chars = [...bytes].filter((b) => b < 248).map((b) => ALPHABET[b % 62])
  return chars.length >= 20 ? chars.slice(0, 20).join('') : generatePassword()
}

// as the service checks a terminal's name: no control characters, brackets or semicolons
const safeName = (name: string) => ![...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || '[];'.includes(c))

const FORWARDS = ['unconditional', 'busy', 'noanswer', 'unavailable'] as const

/** the SIP terminals of an organization: create (password shown once), forwarding, password change, registration */
export function Terminals () {
  const { t } = useTranslation()
  const { user } = useSession()
  const [params, setParams] = useSearchParams()
  const tenant = Number(params.get('organization')) || user?.organization_id || undefined
  const [editing, setEditing] = useState<Endpoint | 'new'>()
  const [shown, setShown] = useState<{ name: string, password: string, id?: string, transport?: string, phone?: Endpoint['phone'] }>()
  const [phoneOf, setPhoneOf] = useState<Endpoint>()
  const queries = useQueryClient()
  const { message } = App.useApp()

  const endpoints = useQuery({ ...endpointsQuery(tenant!), enabled: tenant !== undefined })
  const status = useQuery({ ...endpointStatusQuery(tenant!), enabled: tenant !== undefined })
  const employees = useQuery({ ...employeesOfQuery(tenant!), enabled: tenant !== undefined })
  const employeeName = new Map((employees.data ?? []).map((e) => [e.id, e.full_name]))
  const registered = new Map(status.data?.endpoints.map((e) => [e.id, e]) ?? [])
  const refresh = () => queries.invalidateQueries({ queryKey: keys.admin.endpoints.all })

  const newPassword = useMutation({
    mutationFn: async (e: Endpoint) => {
      const password = generatePassword()
      await setEndpointPassword(tenant!, e.id, password)
      return { name: e.name, password, id: e.id, transport: e.transport, phone: e.phone }
    },
    onSuccess: setShown,
    onError: () => { void message.error(t('common.networkError')) },
  })
  const remove = useMutation({
    mutationFn: (e: Endpoint) => removeEndpoint(tenant!, e.id),
    onSuccess: () => { void message.success(t('terminals.deleted')); void refresh() },
    onError: () => { void message.error(t('common.networkError')) },
  })

  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('admin.pages.terminals')}</Typography.Title>
      <Space wrap>
        <OrganizationPicker value={tenant} onChange={(id) => setParams({ organization: String(id) })} />
        <Button type='primary' disabled={tenant === undefined} onClick={() => setEditing('new')}>{t('terminals.add')}</Button>
        {status.data && <Tag color={status.data.ami_connected ? 'green' : 'orange'}>{status.data.ami_connected ? t('terminals.amiUp') : t('terminals.amiDown')}</Tag>}
      </Space>
      {tenant === undefined ? <Empty description={t('admin.pickOrganization')} /> : <OrganizationApplyTag tenant={tenant} />}
      {endpoints.isError && <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void endpoints.refetch() }}>{t('common.retry')}</Button>} />}
      {tenant !== undefined && (
        <Table<Endpoint>
          rowKey='id' size='small' loading={endpoints.isLoading} dataSource={endpoints.data} pagination={{ pageSize: 50, hideOnSinglePage: true }} scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('terminals.empty') }} data-testid='terminals'
          columns={[
            { title: t('terminals.id'), dataIndex: 'id' },
            { title: t('terminals.name'), dataIndex: 'name' },
            { title: t('terminals.extension'), dataIndex: 'extension' },
            { title: t('terminals.employee'), dataIndex: 'employee_id', render: (id: number | null) => (id === null ? '—' : employeeName.get(id) ?? '—') },
            { title: t('terminals.phone'), dataIndex: 'phone', render: (phone: Endpoint['phone']) => <Tag color={phone === 'browser' ? 'blue' : 'default'}>{t(`terminals.phones.${phone}`)}</Tag> },
            {
              title: t('terminals.registration'), key: 'registered', render: (_, e) => {
                const s = registered.get(e.id)
                if (!s || s.registered === null) return <Tag>{t('terminals.unknown')}</Tag>
                return s.registered ? <Tag color='green'>{t('terminals.registered')}</Tag> : <Tag color='default'>{t('terminals.notRegistered')}</Tag>
              },
            },
            { title: t('terminals.forwarding'), key: 'cf', render: (_, e) => FORWARDS.filter((f) => e[`cf_${f}_enabled`]).map((f) => <Tag key={f}>{t(`terminals.cf.${f}`)} → {e[`cf_${f}_dest`]}</Tag>) },
            {
              title: '', key: 'actions', render: (_, e) => (
                <Space wrap>
                  <Button size='small' onClick={() => setEditing(e)}>{t('terminals.edit')}</Button>
                  <Button size='small' onClick={() => setPhoneOf(e)}>{t('phone.open')}</Button>
                  <Popconfirm title={t('terminals.newPasswordConfirm')} onConfirm={() => newPassword.mutate(e)} okText={t('common.yes')} cancelText={t('common.no')}>
                    <Button size='small'>{t('terminals.newPassword')}</Button>
                  </Popconfirm>
                  <Popconfirm title={t('terminals.deleteConfirm', { name: e.name })} onConfirm={() => remove.mutate(e)} okText={t('common.yes')} cancelText={t('common.no')}>
                    <Button size='small' danger>{t('terminals.delete')}</Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
      {editing && tenant !== undefined && (
        <EndpointForm
          tenant={tenant} endpoint={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)}
          onSaved={(created) => { setEditing(undefined); void refresh(); if (created) setShown(created) }}
        />
      )}
      <Modal open={shown !== undefined} title={t('terminals.passwordTitle', { name: shown?.name })} onCancel={() => setShown(undefined)} footer={<Button type='primary' onClick={() => setShown(undefined)}>{t('terminals.passwordSaved')}</Button>}>
        <Alert type='warning' showIcon message={t('terminals.passwordOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: shown?.password }} code style={{ fontSize: 18 }} data-testid='terminal-password'>{shown?.password}</Typography.Paragraph>
        {shown?.id && tenant !== undefined && <PhoneSettings tenant={tenant} terminal={{ id: shown.id, transport: shown.transport ?? 'transport-udp', phone: shown.phone }} password={shown.password} />}
      </Modal>
      <Modal open={phoneOf !== undefined} title={t('phone.title', { name: phoneOf?.name })} onCancel={() => setPhoneOf(undefined)} footer={<Button onClick={() => setPhoneOf(undefined)}>{t('phone.close')}</Button>} width={560}>
        {phoneOf && tenant !== undefined && <PhoneSettings tenant={tenant} terminal={phoneOf} />}
      </Modal>
    </Space>
  )
}

function EndpointForm ({ tenant, endpoint, onClose, onSaved }: { tenant: number, endpoint?: Endpoint, onClose: () => void, onSaved: (created?: { name: string, password: string, id: string, transport: string, phone: Endpoint['phone'] }) => void }) {
  const { t } = useTranslation()
  const employees = useQuery(employeesOfQuery(tenant))
  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: async (values: EndpointValues) => {
      const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? null : v])) as EndpointValues
      if (endpoint) {
        // the extension is part of the terminal's id: shown, never sent again (the service refuses it)
        const { extension: _extension, ...changes } = body
        await updateEndpoint(tenant, endpoint.id, changes)
        return undefined
      }
      const password = generatePassword()
      const created = await createEndpoint(tenant, { ...body, password } as Schemas['EndpointCreate'])
      return { name: values.name!, password, id: created.id, transport: created.transport, phone: created.phone }
    },
    onDone: onSaved,
  })
  const required = { required: true, message: t('common.required') }
  const number = { pattern: /^\+?[0-9]{3,15}$/, message: t('terminals.badNumber') }
  return (
    <Modal
      open title={endpoint ? t('terminals.editTitle', { name: endpoint.name }) : t('terminals.add')} width={720} onCancel={onClose} destroyOnHidden
      okText={t('common.save')} cancelText={t('common.cancel')} onOk={() => form.submit()} okButtonProps={{ loading: busy }}
    >
      {error && <Alert type='error' showIcon message={error} role='alert' style={{ marginBottom: 12 }} />}
      <Form form={form} layout='vertical' onFinish={handleSubmit} initialValues={endpoint ?? { allow_long_distance: false, cf_noanswer_timeout: 20, phone: 'desk' }}>
        <Row gutter={12}>
          <Col span={14}><Form.Item name='name' label={t('terminals.name')} rules={[required, { max: 100 }, { validator: async (_, v?: string) => { if (v && !safeName(v)) throw new Error(t('terminals.badName')) } }]}><Input /></Form.Item></Col>
          <Col span={10}>
            <Form.Item name='extension' label={t('terminals.extension')} rules={[required, { pattern: /^[0-9]{3}$/, message: t('terminals.badExtension') }]} extra={t('terminals.extensionHint')}>
              <Input maxLength={3} inputMode='numeric' disabled={endpoint !== undefined} />
            </Form.Item>
          </Col>
          <Col span={14}>
            <Form.Item name='employee_id' label={t('terminals.employee')}>
              <Select allowClear showSearch optionFilterProp='label' loading={employees.isLoading} options={(employees.data ?? []).map((e) => ({ value: e.id, label: e.full_name }))} />
            </Form.Item>
          </Col>
          <Col span={10}><Form.Item name='outgoing_cli' label={t('terminals.outgoingCli')} rules={[number]}><Input /></Form.Item></Col>
          <Col span={24}>
            <Form.Item name='phone' label={t('terminals.phone')} extra={t('terminals.phoneHint')}>
              <Radio.Group options={[{ value: 'desk', label: t('terminals.phones.desk') }, { value: 'browser', label: t('terminals.phones.browser') }]} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name='allow_long_distance' valuePropName='checked'><Checkbox>{t('terminals.longDistance')}</Checkbox></Form.Item>
        <Typography.Title level={5}>{t('terminals.forwarding')}</Typography.Title>
        {FORWARDS.map((f) => (
          <Row gutter={12} key={f} align='middle'>
            <Col span={9}><Form.Item name={`cf_${f}_enabled`} valuePropName='checked'><Checkbox>{t(`terminals.cf.${f}`)}</Checkbox></Form.Item></Col>
            <Col span={9}>
              <Form.Item name={`cf_${f}_dest`} rules={[number, ({ getFieldValue }) => ({ validator: async (_, v) => { if (getFieldValue(`cf_${f}_enabled`) && !v) throw new Error(t('terminals.destRequired')) } })]}>
                <Input placeholder={t('terminals.destination')} aria-label={`${t(`terminals.cf.${f}`)}: ${t('terminals.destination')}`} />
              </Form.Item>
            </Col>
            {f === 'noanswer' && <Col span={6}><WholeNumberItem name='cf_noanswer_timeout' label={undefined} min={5} max={120} unit={t('terminals.seconds')} required /></Col>}
          </Row>
        ))}
      </Form>
    </Modal>
  )
}
