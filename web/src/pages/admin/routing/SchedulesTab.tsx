import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Radio, Select, Space, Table } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { keys } from '../../../api/keys'
import { removeSchedule, saveSchedule, schedulesQuery, type Schedule } from '../../../api/routing'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'

type Kind = 'calendar' | 'always' | 'weekly'
interface Hours { weekday: number, opens: string, closes: string }
interface Values { name: string, kind: Kind, hours?: Hours[] }
const CLOCK = /^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$/
const DEFAULT_HOURS = { opens: '09:00', closes: '18:00' }

/** a new row: the day after the last row's, with its hours (Monday, 09:00-18:00 for the first) */
function nextHours (rows: Hours[]): Hours {
  const last = rows.at(-1)
  return last ? { weekday: (last.weekday % 7) + 1, opens: last.opens, closes: last.closes } : { weekday: 1, ...DEFAULT_HOURS }
}

/** Monday to Friday at once: the days without hours yet, with the last row's hours */
function workdayHours (rows: Hours[]): Hours[] {
  const last = rows.at(-1)
  const { opens, closes } = last ?? DEFAULT_HOURS
  return [1, 2, 3, 4, 5].filter((day) => !rows.some((r) => r.weekday === day)).map((weekday) => ({ weekday, opens, closes }))
}

/** when a line is open: the centre's working calendar, always, or weekly hours */
export function SchedulesTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const schedules = useQuery(schedulesQuery(tenant))
  const [editing, setEditing] = useState<Schedule | 'new'>()
  const remove = useAction(keys.admin.routing.all, (s: Schedule) => removeSchedule(tenant, s.id))
  const hours = (s: Schedule) => s.kind !== 'weekly' ? t(`routing.schedules.kinds.${s.kind}`) : s.hours.map((h) => `${t(`routing.weekdays.${h.weekday}`)} ${h.opens}-${h.closes}`).join(', ')
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.schedules.add')}</Button>
      <LoadError query={schedules} />
      <Table<Schedule>
        rowKey='id' size='small' loading={schedules.isLoading} dataSource={schedules.data} pagination={false} locale={{ emptyText: t('routing.schedules.empty') }}
        columns={[
          { title: t('routing.name'), dataIndex: 'name' },
          { title: t('routing.schedules.hours'), key: 'hours', render: (_, s) => hours(s) },
          {
            title: '', key: 'actions', render: (_, s) => <RowActions name={s.name} onEdit={() => setEditing(s)} onDelete={() => remove.mutate(s)} />,
          },
        ]}
      />
      {editing && <ScheduleForm tenant={tenant} schedule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function ScheduleForm ({ tenant, schedule, onClose }: { tenant: number, schedule?: Schedule, onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(keys.admin.routing.all, (v: Values) => saveSchedule(tenant, schedule?.id, { name: v.name, kind: v.kind, hours: v.kind === 'weekly' ? v.hours ?? [] : [] }), onClose)
  const kind = Form.useWatch('kind', state.form) as Kind | undefined
  const required = { required: true, message: t('common.required') }
  const clock = [required, { pattern: CLOCK, message: t('routing.schedules.badTime') }]
  const currentHours = () => (state.form.getFieldValue('hours') ?? []) as Hours[]
  return (
    <FormModal title={schedule ? schedule.name : t('routing.schedules.add')} state={state} onClose={onClose} width={640} initialValues={(schedule ?? { kind: 'calendar', hours: [] }) as Partial<Values>}>
      <Form.Item name='name' label={t('routing.name')} rules={[required, { max: 100 }]}><Input /></Form.Item>
      <Form.Item name='kind' label={t('routing.schedules.kind')} extra={kind && t(`routing.schedules.hints.${kind}`)}>
        <Radio.Group options={(['calendar', 'always', 'weekly'] as const).map((k) => ({ value: k, label: t(`routing.schedules.kinds.${k}`) }))} />
      </Form.Item>
      {kind === 'weekly' && (
        <Form.List name='hours'>
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align='start'>
                  <Form.Item name={[field.name, 'weekday']} label={t('routing.schedules.weekday')} rules={[required]}>
                    <Select style={{ width: 150 }} options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`routing.weekdays.${d}`) }))} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'opens']} label={t('routing.schedules.opens')} rules={clock}><Input style={{ width: 90 }} placeholder='09:00' /></Form.Item>
                  <Form.Item name={[field.name, 'closes']} label={t('routing.schedules.closes')} rules={clock}><Input style={{ width: 90 }} placeholder='18:00' /></Form.Item>
                  <Button type='text' icon={<MinusCircleOutlined />} onClick={() => remove(field.name)} aria-label={t('routing.schedules.removeHours')} style={{ marginTop: 30 }} />
                </Space>
              ))}
              <Space wrap>
                <Button type='dashed' icon={<PlusOutlined />} onClick={() => add(nextHours(currentHours()))}>{t('routing.schedules.addHours')}</Button>
                <Button type='dashed' icon={<PlusOutlined />} onClick={() => { for (const row of workdayHours(currentHours())) add(row) }}>{t('routing.schedules.addWorkdays')}</Button>
              </Space>
            </>
          )}
        </Form.List>
      )}
    </FormModal>
  )
}
