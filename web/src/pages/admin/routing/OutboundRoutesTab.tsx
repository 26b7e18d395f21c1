import { useQuery } from '@tanstack/react-query'
import { Button, Col, Form, Input, Row, Select, Space, Switch, Table, Tag } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { keys } from '../../../api/keys'
import { outboundRoutesQuery, removeOutboundRoute, saveOutboundRoute, trunksQuery, type OutboundRoute } from '../../../api/trunks'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'

interface Values { name: string, patterns: string[], long_distance: boolean, trunk_ids: number[] }
const PATTERN = /^\+?(?:[0-9XNZ]|\[[0-9-]{1,20}\])+\.?$/

/** the patterns a new route usually starts from, which the administrator then edits */
const PRESETS: Record<string, { patterns: string[], long_distance: boolean }> = {
  local: { patterns: ['XXXXXX'], long_distance: false },
  longDistance: { patterns: ['87XXXXXXXXX', '+77XXXXXXXXX'], long_distance: true },
  mobile: { patterns: ['87[0-7]XXXXXXXX', '+77[0-7]XXXXXXXX'], long_distance: true },
  emergency: { patterns: ['10[1-4]', '112'], long_distance: false },
}

/** how the organization's terminals reach the public network: which numbers go through which trunks */
export function OutboundRoutesTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const routes = useQuery(outboundRoutesQuery(tenant))
  const [editing, setEditing] = useState<OutboundRoute | 'new'>()
  const remove = useAction(keys.admin.routing.all, (r: OutboundRoute) => removeOutboundRoute(tenant, r.id))
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.outbound.add')}</Button>
      <LoadError query={routes} />
      <Table<OutboundRoute>
        rowKey='id' size='small' loading={routes.isLoading} dataSource={routes.data} pagination={false} scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('routing.outbound.empty') }}
        columns={[
          { title: t('routing.name'), dataIndex: 'name', render: (name: string, r) => <>{name} {r.long_distance && <Tag>{t('routing.outbound.longDistanceTag')}</Tag>}</> },
          { title: t('routing.outbound.patterns'), key: 'patterns', render: (_, r) => r.patterns.join(', ') },
          { title: t('routing.outbound.trunks'), key: 'trunks', render: (_, r) => r.trunks.map((x, i) => `${i + 1}. ${x.name}`).join('  ') },
          { title: '', key: 'actions', render: (_, r) => <RowActions name={r.name} onEdit={() => setEditing(r)} onDelete={() => remove.mutate(r)} /> },
        ]}
      />
      {editing && <RouteForm tenant={tenant} route={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function RouteForm ({ tenant, route, onClose }: { tenant: number, route?: OutboundRoute, onClose: () => void }) {
  const { t } = useTranslation()
  const trunks = useQuery(trunksQuery).data ?? []
  const state = useFormSave(keys.admin.routing.all, (v: Values) => saveOutboundRoute(tenant, route?.id, v), onClose)
  const required = { required: true, message: t('common.required') }
  const initial: Partial<Values> = route ?? { patterns: [], long_distance: false, trunk_ids: [] }
  const preset = (name: string) => {
    const p = PRESETS[name]!
    state.form.setFieldsValue({ patterns: p.patterns, long_distance: p.long_distance, ...(state.form.getFieldValue('name') ? {} : { name: t(`routing.outbound.presets.${name}`) }) })
  }
  return (
    <FormModal title={route ? route.name : t('routing.outbound.add')} state={state} onClose={onClose} width={680} initialValues={initial}>
      <Space wrap style={{ marginBottom: 12 }}>
        {Object.keys(PRESETS).map((name) => <Button key={name} size='small' onClick={() => preset(name)}>{t(`routing.outbound.presets.${name}`)}</Button>)}
      </Space>
      <Row gutter={12}>
        <Col xs={24} md={16}><Form.Item name='name' label={t('routing.name')} rules={[required, { max: 100 }]}><Input /></Form.Item></Col>
        <Col xs={24} md={8}><Form.Item name='long_distance' label={t('routing.outbound.longDistance')} valuePropName='checked' extra={t('routing.outbound.longDistanceHint')}><Switch /></Form.Item></Col>
        <Col xs={24}>
          <Form.Item
            name='patterns' label={t('routing.outbound.patterns')} extra={t('routing.outbound.patternsHint')}
            rules={[required, { validator: async (_, list?: string[]) => { const bad = (list ?? []).find((p) => !PATTERN.test(p)); if (bad) throw new Error(t('routing.outbound.badPattern', { value: bad })) } }]}
          >
            <Select mode='tags' tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name='trunk_ids' label={t('routing.outbound.trunks')} extra={t('routing.outbound.trunksHint')} rules={[required]}>
            <Select mode='multiple' options={trunks.map((x) => ({ value: x.id, label: x.name }))} optionFilterProp='label' />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  )
}
