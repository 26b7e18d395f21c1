import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Col, Form, Input, Modal, Popconfirm, Row, Select, Space, Table, Tag, Typography } from 'antd'
import { useDeferredValue, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem, Schemas } from '../../api/client'
import { createAndInvite, employeeListQuery, sendInvite, setEmployeeActive } from '../../api/employees'
import { keys } from '../../api/keys'
import { problemText } from '../../forms/problems'
import { useFormSubmit } from '../../forms/useFormSubmit'
import { useOrganizations } from '../../references/references'
import { useFormat } from '../../i18n/format'
import { useSession } from '../../session/session'

type Employee = Schemas['EmployeeResponse']
type Invitation = Schemas['SendInviteResponse']
const ROLES = ['operator', 'manager', 'admin'] as const

/** employees: create, invite (and resend), deactivate and bring back */
export function Employees () {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { user } = useSession()
  const [search, setSearch] = useState('')
  const q = useDeferredValue(search.trim())
  const [creating, setCreating] = useState(false)
  const queries = useQueryClient()
  const employees = useQuery(employeeListQuery(q))
  const [unsent, setUnsent] = useState<Invitation>()
  const invite = useMutation({
    mutationFn: (e: Employee) => sendInvite(e.id),
    onSuccess: (invitation, e) => { if (invitation.sent) void message.success(t('employees.invited', { email: e.email })); else setUnsent(invitation) },
    onError: (problem: ApiProblem) => { void message.error(problemText(t, problem)) },
  })
  const activate = useMutation({
    mutationFn: (e: Employee) => setEmployeeActive(e.id, !e.is_active),
    onSuccess: () => queries.invalidateQueries({ queryKey: keys.admin.employees.all }),
    onError: (problem: ApiProblem) => { void message.error(problemText(t, problem)) },
  })
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('admin.pages.employees')}</Typography.Title>
      <Space wrap>
        <Input.Search allowClear placeholder={t('employees.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 320 }} aria-label={t('employees.search')} />
        <Button type='primary' onClick={() => setCreating(true)}>{t('employees.add')}</Button>
      </Space>
      {employees.isError && <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void employees.refetch() }}>{t('common.retry')}</Button>} />}
      <Table<Employee>
        rowKey='id' size='small' loading={employees.isLoading} dataSource={employees.data} pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: t('employees.empty') }} rowClassName={(e) => (e.is_active ? '' : 'row-inactive')}
        columns={[
          { title: t('profile.fullName'), dataIndex: 'full_name' },
          { title: t('profile.email'), dataIndex: 'email' },
          { title: t('profile.organization'), dataIndex: 'organization_name', render: (v: string | null) => v ?? '—' },
          { title: t('profile.role'), dataIndex: 'role', render: (r: string) => t(`roles.${r}`, { defaultValue: r }) },
          {
            title: t('employees.state'), key: 'state', render: (_, e) => !e.is_active
              ? <Tag>{t('employees.inactive')}</Tag>
              : e.has_password ? <Tag color='green'>{t('employees.active')}</Tag> : <Tag color='gold'>{t('employees.invitePending')}</Tag>,
          },
          {
            title: '', key: 'actions', render: (_, e) => (
              <Space wrap>
                {e.is_active && !e.has_password && <Button size='small' loading={invite.isPending && invite.variables?.id === e.id} onClick={() => invite.mutate(e)}>{t('employees.sendInvite')}</Button>}
                {e.id !== user?.id && (
                  <Popconfirm title={t(e.is_active ? 'employees.deactivateConfirm' : 'employees.activateConfirm', { name: e.full_name })} onConfirm={() => activate.mutate(e)} okText={t('common.yes')} cancelText={t('common.no')}>
                    <Button size='small' danger={e.is_active}>{t(e.is_active ? 'employees.deactivate' : 'employees.activate')}</Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {creating && <EmployeeForm onClose={() => setCreating(false)} onSaved={(invitation) => { setCreating(false); if (!invitation.sent) setUnsent(invitation) }} />}
      {unsent && <UnsentInvitation invitation={unsent} onClose={() => setUnsent(undefined)} />}
    </Space>
  )
}

/** without SMTP the mail is only kept: the link is handed over by the one who invites, until it expires */
function UnsentInvitation ({ invitation, onClose }: { invitation: Invitation, onClose: () => void }) {
  const { t } = useTranslation()
  const format = useFormat()
  return (
    <Modal open title={t('employees.notSent.title')} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} okText={t('aria.close')}>
      <Typography.Paragraph>{t('employees.notSent.why', { email: invitation.email })}</Typography.Paragraph>
      <Typography.Paragraph>{t('employees.notSent.handOver', { until: format.dateTime(invitation.expires_at) })}</Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: invitation.link ?? '' }} code style={{ wordBreak: 'break-all' }} data-testid='invitation-link'>{invitation.link}</Typography.Paragraph>
    </Modal>
  )
}

function EmployeeForm ({ onClose, onSaved }: { onClose: () => void, onSaved: (invitation: Invitation) => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { user } = useSession()
  const organizations = useOrganizations()
  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: (values: Schemas['EmployeeCreate']) => createAndInvite(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? undefined : v])) as Schemas['EmployeeCreate']),
    invalidates: [keys.admin.employees.all],
    onDone: (e) => { if (e.invitation.sent) void message.success(t('employees.invited', { email: e.email })); onSaved(e.invitation) },
  })
  const required = { required: true, message: t('common.required') }
  const admin = user?.role === 'admin'
  return (
    <Modal open title={t('employees.add')} width={640} onCancel={onClose} onOk={() => form.submit()} okText={t('employees.createAndInvite')} cancelText={t('common.cancel')} okButtonProps={{ loading: busy }} destroyOnHidden>
      {error && <Alert type='error' showIcon message={error} role='alert' style={{ marginBottom: 12 }} />}
      <Form form={form} layout='vertical' onFinish={handleSubmit} initialValues={{ role: 'operator', organization_id: admin ? undefined : user?.organization_id }}>
        <Row gutter={12}>
          <Col span={8}><Form.Item name='last_name' label={t('employees.lastName')} rules={[required, { max: 100 }]}><Input /></Form.Item></Col>
          <Col span={8}><Form.Item name='first_name' label={t('employees.firstName')} rules={[required, { max: 100 }]}><Input /></Form.Item></Col>
          <Col span={8}><Form.Item name='middle_name' label={t('employees.middleName')} rules={[{ max: 100 }]}><Input /></Form.Item></Col>
          <Col span={12}><Form.Item name='email' label={t('profile.email')} rules={[required, { type: 'email', message: t('desk.form.badEmail') }]}><Input type='email' /></Form.Item></Col>
          <Col span={12}><Form.Item name='phone' label={t('profile.phone')}><Input type='tel' /></Form.Item></Col>
          <Col span={12}>
            <Form.Item name='organization_id' label={t('profile.organization')} rules={admin ? [] : [required]}>
              <Select showSearch optionFilterProp='label' allowClear disabled={!admin} options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name='role' label={t('profile.role')} rules={[required]}>
              <Select options={ROLES.filter((r) => admin || r !== 'admin').map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
            </Form.Item>
          </Col>
          <Col span={24}><Form.Item name='position' label={t('profile.position')} rules={[{ max: 255 }]}><Input /></Form.Item></Col>
        </Row>
      </Form>
    </Modal>
  )
}
