import { useQuery } from '@tanstack/react-query'
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons'
import { Button, Col, Form, Input, Row, Select, Space, Switch, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../../api/client'
import { keys } from '../../../api/keys'
import { queuesQuery, removeQueue, saveQueue, type Destination, type Queue } from '../../../api/routing'
import { WholeNumberItem } from '../../../forms/WholeNumberItem'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'
import { useQueueName, useRoutingChoices } from './choices'
import { cleanDestination, DestinationField, useDestinationText } from './Destination'

const STRATEGIES = ['rrmemory', 'ringall', 'leastrecent', 'fewestcalls', 'random', 'rrordered', 'linear', 'wrandom'] as const
interface Values {
  name: string, strategy: Schemas['QueueCreate']['strategy'], members?: { terminal_id: string, penalty: number | null }[], all_terminals: boolean, ring_timeout: number, retry: number, wrapup_time: number,
  max_callers: number, service_level: number, music_class: string, announce_position: boolean, announce_holdtime: boolean, max_wait?: number | null, overflow: Destination,
  periodic_prompt_id?: number | null, periodic_announce_seconds: number,
  callback_offer_after?: number | null, callback_prompt_id?: number | null, callback_retries: number, callback_retry_interval: number,
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
  const state = useFormSave(keys.admin.routing.all, ({ members, overflow, max_wait: maxWait, periodic_prompt_id: periodic, callback_offer_after: offerAfter, callback_prompt_id: offer, ...v }: Values) => saveQueue(tenant, queue?.id, {
    ...v, max_wait: maxWait ?? null, periodic_prompt_id: periodic ?? null, callback_offer_after: offerAfter ?? null, callback_prompt_id: offer ?? null, overflow: cleanDestination(overflow),
    members: (members ?? []).filter((m) => m.terminal_id).map((m) => ({ terminal_id: m.terminal_id, penalty: m.penalty ?? 0 })),
  }), onClose)
  const required = { required: true, message: t('common.required') }
  const initial = queue
    ? { ...queue }
    : { strategy: 'rrmemory', all_terminals: false, ring_timeout: 20, retry: 5, wrapup_time: 5, max_callers: 0, service_level: 20, music_class: 'default', announce_position: false, announce_holdtime: false, periodic_announce_seconds: 60, callback_retries: 2, callback_retry_interval: 300, members: [], overflow: { kind: 'hangup' } }
  const seconds = t('terminals.seconds')
  const recorded = choices.prompts.filter((p) => p.recordings.length > 0)
  return (
    <FormModal title={queue ? queue.name : t('routing.queues.add')} state={state} onClose={onClose} width={760} initialValues={initial as Partial<Values>}>
      <Row gutter={12}>
        <Col xs={24} md={14}><Form.Item name='name' label={t('routing.name')} rules={[required, { max: 100 }]}><Input /></Form.Item></Col>
        <Col xs={24} md={10}><Form.Item name='strategy' label={t('routing.queues.strategy')}><Select options={STRATEGIES.map((s) => ({ value: s, label: t(`routing.queues.strategies.${s}`) }))} /></Form.Item></Col>
        <Col xs={12} md={8}><WholeNumberItem name='ring_timeout' label={t('routing.queues.ringTimeout')} min={5} max={300} unit={seconds} required /></Col>
        <Col xs={12} md={8}><WholeNumberItem name='retry' label={t('routing.queues.retry')} min={0} max={300} unit={seconds} required /></Col>
        <Col xs={12} md={8}><WholeNumberItem name='wrapup_time' label={t('routing.queues.wrapup')} min={0} max={3600} unit={seconds} required /></Col>
        <Col xs={12} md={8}><WholeNumberItem name='service_level' label={t('routing.queues.serviceLevel')} min={1} max={3600} unit={seconds} required /></Col>
        <Col xs={12} md={8}><WholeNumberItem name='max_callers' label={t('routing.queues.maxCallers')} min={0} max={10000} required /></Col>
        <Col xs={12} md={8}><WholeNumberItem name='max_wait' label={t('routing.queues.maxWait')} min={10} max={7200} unit={seconds} /></Col>
        <Col xs={24} md={8}><Form.Item name='music_class' label={t('routing.queues.music')} rules={[{ pattern: /^[A-Za-z0-9_-]{1,40}$/, message: t('routing.queues.badMusic') }]}><Input /></Form.Item></Col>
        <Col xs={24} md={10}>
          <Form.Item name='periodic_prompt_id' label={t('routing.queues.periodic')} extra={t('routing.queues.periodicHint')}>
            <Select allowClear options={recorded.map((p) => ({ value: p.id, label: p.name }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}><WholeNumberItem name='periodic_announce_seconds' label={t('routing.queues.periodicEvery')} min={15} max={3600} unit={seconds} required /></Col>
        <Col xs={12}><Form.Item name='announce_position' label={t('routing.queues.announcePosition')} valuePropName='checked'><Switch /></Form.Item></Col>
        <Col xs={12}><Form.Item name='announce_holdtime' label={t('routing.queues.announceHoldtime')} valuePropName='checked'><Switch /></Form.Item></Col>
        <Col xs={24}><Form.Item name='all_terminals' label={t('routing.queues.allTerminals')} valuePropName='checked'><Switch /></Form.Item></Col>
      </Row>
      <Typography.Text strong>{t('routing.queues.callback')}</Typography.Text>
      <Row gutter={12} style={{ marginTop: 8 }} data-testid='queue-callback'>
        <Col xs={12} md={6}><WholeNumberItem name='callback_offer_after' label={t('routing.queues.callbackAfter')} min={10} max={3600} unit={seconds} /></Col>
        <Col xs={24} md={18}>
          <Form.Item name='callback_prompt_id' label={t('routing.queues.callbackPrompt')}>
            <Select allowClear options={recorded.map((p) => ({ value: p.id, label: p.name }))} />
          </Form.Item>
        </Col>
        <Col xs={24}><Typography.Paragraph type='secondary' style={{ marginTop: -8 }}>{t('routing.queues.callbackAfterHint')}</Typography.Paragraph></Col>
        <Col xs={12} md={8}><WholeNumberItem name='callback_retries' label={t('routing.queues.callbackRetries')} min={0} max={10} required /></Col>
        <Col xs={12} md={8}><WholeNumberItem name='callback_retry_interval' label={t('routing.queues.callbackInterval')} min={30} max={86_400} unit={seconds} required /></Col>
      </Row>
      <Typography.Text strong>{t('routing.queues.members')}</Typography.Text>
      <Typography.Paragraph type='secondary' style={{ marginBottom: 8 }}>{t('routing.queues.penaltyHint')}</Typography.Paragraph>
      <Form.List name='members'>
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Row gutter={8} key={field.key} align='top'>
                <Col xs={14}>
                  <Form.Item name={[field.name, 'terminal_id']} rules={[required]}>
                    <Select showSearch optionFilterProp='label' aria-label={t('routing.queues.member')} options={choices.terminals.map((e) => ({ value: e.id, label: `${e.id} · ${e.name}` }))} />
                  </Form.Item>
                </Col>
                <Col xs={7}><WholeNumberItem name={[field.name, 'penalty']} label={undefined} min={0} max={100} unit={t('routing.queues.penalty')} /></Col>
                <Col xs={3}><Button icon={<MinusCircleOutlined />} onClick={() => remove(field.name)} aria-label={t('routing.queues.removeMember')} /></Col>
              </Row>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add({ penalty: 0 })} style={{ marginBottom: 12 }}>{t('routing.queues.addMember')}</Button>
          </>
        )}
      </Form.List>
      <DestinationField name='overflow' label={t('routing.queues.overflow')} choices={{ ...choices, queues: choices.queues.filter((q) => q.id !== queue?.id) }} />
    </FormModal>
  )
}
