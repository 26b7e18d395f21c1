import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Radio, Select, Space, Table } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { keys } from '../../../api/keys'
import { lineSwitchesQuery } from '../../../api/lineSwitch'
import { linesQuery, removeLine, saveLine, schedulesQuery, type Line } from '../../../api/routing'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'
import { useRoutingChoices } from './choices'
import { cleanDestination, DestinationField, useDestinationText } from './Destination'
import { LineSwitch } from './LineSwitch'

type Values = Omit<Line, 'id' | 'tenant_id' | 'created_at' | 'updated_at'>

/** the numbers the organization answers: each to its destination, by its schedule */
export function LinesTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const lines = useQuery(linesQuery(tenant))
  const switches = new Map((useQuery(lineSwitchesQuery(tenant)).data ?? []).map((s) => [s.line_id, s]))
  const schedules = useQuery(schedulesQuery(tenant)).data ?? []
  const choices = useRoutingChoices(tenant)
  const destination = useDestinationText(choices)
  const [editing, setEditing] = useState<Line | 'new'>()
  const remove = useAction(keys.admin.routing.all, (l: Line) => removeLine(tenant, l.id))
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.lines.add')}</Button>
      <LoadError query={lines} />
      <Table<Line>
        rowKey='id' size='small' loading={lines.isLoading} dataSource={lines.data} pagination={false} scroll={{ x: 'max-content' }} locale={{ emptyText: t('routing.lines.empty') }} data-testid='lines'
        columns={[
          { title: t('routing.lines.number'), dataIndex: 'number' },
          { title: t('routing.name'), dataIndex: 'name' },
          { title: t('routing.lines.schedule'), dataIndex: 'schedule_id', render: (id: number | null) => (id === null ? t('routing.lines.always') : schedules.find((s) => s.id === id)?.name) },
          { title: t('routing.lines.destination'), key: 'destination', render: (_, l) => destination(l.destination) },
          { title: t('routing.lines.closed'), key: 'closed', render: (_, l) => (l.schedule_id === null ? '—' : destination(l.closed_destination)) },
          { title: t('lineSwitch.column'), key: 'switch', render: (_, l) => <LineSwitch tenant={tenant} line={l} state={switches.get(l.id)} /> },
          {
            title: '', key: 'actions', render: (_, l) => <RowActions name={l.number} onEdit={() => setEditing(l)} onDelete={() => remove.mutate(l)} />,
          },
        ]}
      />
      {editing && <LineForm tenant={tenant} line={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function LineForm ({ tenant, line, onClose }: { tenant: number, line?: Line, onClose: () => void }) {
  const { t } = useTranslation()
  const schedules = useQuery(schedulesQuery(tenant)).data ?? []
  const choices = useRoutingChoices(tenant)
  const state = useFormSave(keys.admin.routing.all, (v: Values) => saveLine(tenant, line?.id, {
    number: v.number, name: v.name, schedule_id: v.schedule_id ?? null, destination: cleanDestination(v.destination), closed_destination: cleanDestination(v.closed_destination), language: v.language,
  }), onClose)
  const scheduleId = Form.useWatch('schedule_id', state.form)
  const required = { required: true, message: t('common.required') }
  return (
    <FormModal title={line ? line.number : t('routing.lines.add')} state={state} onClose={onClose} width={640} initialValues={(line ?? { destination: { kind: 'hangup' }, closed_destination: { kind: 'hangup' }, language: 'ru' }) as Partial<Values>}>
      <Form.Item name='number' label={t('routing.lines.number')} extra={t('routing.lines.numberHint')} rules={[required, { pattern: /^\+?[0-9]{2,19}$/, message: t('routing.lines.badNumber') }]}><Input /></Form.Item>
      <Form.Item name='name' label={t('routing.name')} rules={[required, { max: 100 }]}><Input /></Form.Item>
      <Form.Item name='language' label={t('routing.lines.language')} extra={t('routing.lines.languageHint')}>
        <Radio.Group optionType='button' options={(['ru', 'kk'] as const).map((l) => ({ value: l, label: t(`routing.languages.${l}`) }))} />
      </Form.Item>
      <Form.Item name='schedule_id' label={t('routing.lines.schedule')} extra={t('routing.lines.scheduleHint')}>
        <Select allowClear options={schedules.map((s) => ({ value: s.id, label: s.name }))} placeholder={t('routing.lines.always')} />
      </Form.Item>
      <DestinationField name='destination' label={t('routing.lines.destination')} choices={choices} />
      {scheduleId != null && <DestinationField name='closed_destination' label={t('routing.lines.closed')} choices={choices} />}
    </FormModal>
  )
}
