import { useQuery } from '@tanstack/react-query'
import { Button, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Table, Tag } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../../api/client'
import { keys } from '../../../api/keys'
import { queuesQuery, removeQueue, saveQueue, type Destination, type Queue } from '../../../api/routing'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'
import { useQueueName, useRoutingChoices } from './choices'
import { cleanDestination, DestinationField, useDestinationText } from './Destination'

const STRATEGIES = ['rrmemory', 'ringall', 'leastrecent', 'fewestcalls', 'random', 'rrordered', 'linear', 'wrandom'] as const
interface Values {
  name: string, strategy: Schemas['QueueCreate']['strategy'], members?: string[], all_terminals: boolean, ring_timeout: number, wrapup_time: number, max_callers: number,
  service_level: number, music_class: string, announce_position: boolean, announce_holdtime: boolean, max_wait?: number | null, overflow: Destination,
}

/** the organization's queues: who rings, how, and where a caller goes after the longest wait */
export function QueuesTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const queues = useQuery(queuesQuery(tenant))
  const choices = useRoutingChoices(tenant)
  const destination = useDestinationText(choices)
  const [editing, setEditing] = useState<Queue | 'new'>()
  const remove = useAction(keys.admin.routing.all, (q: Queue) => removeQueue(tenant, q.id))
  const queueName = useQueueName()
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.queues.add')}</Button>
      <LoadError query={queues} />
      <Table<Queue>
        rowKey='id' size='small' loading={queues.isLoading} dataSource={queues.data} pagination={false}
        columns={[
          { title: t('routing.name'), dataIndex: 'name', render: (_: string, q) => <>{queueName(q)} {q.is_default && <Tag>{t('routing.queues.default')}</Tag>}</> },
          { title: 'Asterisk', dataIndex: 'asterisk_name' },
          { title: t('routing.queues.members'), key: 'members', render: (_, q) => (q.all_terminals ? t('routing.queues.allTerminals') : q.members.map((m) => m.terminal_id).join(', ') || '—') },
          { title: t('routing.queues.serviceLevel'), dataIndex: 'service_level', render: (s: number) => t('routing.queues.seconds', { count: s }) },
          { title: t('routing.queues.overflow'), key: 'overflow', render: (_, q) => (q.max_wait ? `${t('routing.queues.seconds', { count: q.max_wait })} → ${destination(q.overflow)}` : '—') },
          {
            title: '', key: 'actions', render: (_, q) => <RowActions name={q.name} onEdit={() => setEditing(q)} onDelete={q.is_default ? undefined : () => remove.mutate(q)} />,
          },
        ]}
      />
      {editing && <QueueForm tenant={tenant} queue={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function QueueForm ({ tenant, queue, onClose }: { tenant: number, queue?: Queue, onClose: () => void }) {
  const { t } = useTranslation()
  const choices = useRoutingChoices(tenant)
  const state = useFormSave(keys.admin.routing.all, ({ members, overflow, max_wait: maxWait, ...v }: Values) => saveQueue(tenant, queue?.id, {
    ...v, max_wait: maxWait ?? null, overflow: cleanDestination(overflow), members: (members ?? []).map((id) => ({ terminal_id: id, penalty: queue?.members.find((m) => m.terminal_id === id)?.penalty ?? 0 })),
  }), onClose)
  const required = { required: true, message: t('common.required') }
  const initial = queue
    ? { ...queue, members: queue.members.map((m) => m.terminal_id) }
    : { strategy: 'rrmemory', all_terminals: false, ring_timeout: 20, wrapup_time: 5, max_callers: 0, service_level: 20, music_class: 'default', announce_position: false, announce_holdtime: false, overflow: { kind: 'hangup' } }
  const seconds = t('terminals.seconds')
  return (
    <FormModal title={queue ? queue.name : t('routing.queues.add')} state={state} onClose={onClose} width={760} initialValues={initial as Partial<Values>}>
      <Row gutter={12}>
        <Col span={14}><Form.Item name='name' label={t('routing.name')} rules={[required, { max: 100 }]}><Input /></Form.Item></Col>
        <Col span={10}><Form.Item name='strategy' label={t('routing.queues.strategy')}><Select options={STRATEGIES.map((s) => ({ value: s, label: t(`routing.queues.strategies.${s}`) }))} /></Form.Item></Col>
        <Col span={18}>
          <Form.Item name='members' label={t('routing.queues.members')}>
            <Select mode='multiple' allowClear optionFilterProp='label' options={choices.terminals.map((e) => ({ value: e.id, label: `${e.id} · ${e.name}` }))} />
          </Form.Item>
        </Col>
        <Col span={6}><Form.Item name='all_terminals' label={t('routing.queues.allTerminals')} valuePropName='checked'><Switch /></Form.Item></Col>
        <Col span={8}><Form.Item name='ring_timeout' label={t('routing.queues.ringTimeout')}><InputNumber min={5} max={300} addonAfter={seconds} /></Form.Item></Col>
        <Col span={8}><Form.Item name='wrapup_time' label={t('routing.queues.wrapup')}><InputNumber min={0} max={3600} addonAfter={seconds} /></Form.Item></Col>
        <Col span={8}><Form.Item name='service_level' label={t('routing.queues.serviceLevel')}><InputNumber min={1} max={3600} addonAfter={seconds} /></Form.Item></Col>
        <Col span={8}><Form.Item name='max_callers' label={t('routing.queues.maxCallers')} extra={t('routing.queues.maxCallersHint')}><InputNumber min={0} max={10000} /></Form.Item></Col>
        <Col span={8}><Form.Item name='music_class' label={t('routing.queues.music')} rules={[{ pattern: /^[A-Za-z0-9_-]{1,40}$/, message: t('routing.queues.badMusic') }]}><Input /></Form.Item></Col>
        <Col span={8}><Form.Item name='max_wait' label={t('routing.queues.maxWait')} extra={t('routing.queues.maxWaitHint')}><InputNumber min={10} max={7200} addonAfter={seconds} /></Form.Item></Col>
        <Col span={12}><Form.Item name='announce_position' label={t('routing.queues.announcePosition')} valuePropName='checked'><Switch /></Form.Item></Col>
        <Col span={12}><Form.Item name='announce_holdtime' label={t('routing.queues.announceHoldtime')} valuePropName='checked'><Switch /></Form.Item></Col>
      </Row>
      <DestinationField name='overflow' label={t('routing.queues.overflow')} choices={{ ...choices, queues: choices.queues.filter((q) => q.id !== queue?.id) }} />
    </FormModal>
  )
}
