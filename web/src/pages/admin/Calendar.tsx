import { useQuery } from '@tanstack/react-query'
import { Button, Descriptions, Form, Input, InputNumber, Popconfirm, Radio, Space, Table, Tag } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { calendarQuery, restoreCalendarDay, saveCalendarDay } from '../../api/appeals'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { useBothNamed } from '../../references/references'
import { useFormat } from '../../i18n/format'
import { FormModal, KazakhNameItem, LoadError, PageTitle, useAction, useFormSave } from './kit'
import { centreToday } from '../../i18n/centre-time'

type Day = Schemas['CalendarDay']
const KEY = keys.admin.calendar.all

/** the working calendar deadlines count in: holidays on weekdays and worked weekend days, by year */
export function Calendar () {
  const { t } = useTranslation()
  // the day's name in the console's language: the Russian one when it has none in Kazakh
  const dayName = useBothNamed()
  const format = useFormat()
  const [params, setParams] = useSearchParams()
  const year = Number(params.get('year')) || Number(centreToday().slice(0, 4))
  const [editing, setEditing] = useState<Day | 'new'>()
  const calendar = useQuery(calendarQuery(year))
  const restore = useAction(KEY, (d: Day) => restoreCalendarDay(d.day), (r) => r.message)
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.calendar')}</PageTitle>
      <Space wrap>
        <InputNumber aria-label={t('calendar.year')} addonBefore={t('calendar.year')} min={2000} max={2100} value={year} onChange={(y) => y && setParams({ year: String(y) })} />
        <Button type='primary' onClick={() => setEditing('new')}>{t('calendar.add')}</Button>
      </Space>
      <LoadError query={calendar} />
      {calendar.data && (
        <Descriptions
          size='small' column={{ xs: 1, md: 3 }} items={[
            { key: 'days', label: t('calendar.workingDays'), children: format.number(calendar.data.working_days) },
            { key: 'hours', label: t('calendar.workHours'), children: calendar.data.work_hours },
            { key: 'zone', label: t('calendar.timeZone'), children: calendar.data.time_zone },
          ]}
        />
      )}
      <Table<Day>
        rowKey='day' size='small' loading={calendar.isLoading} dataSource={calendar.data?.exceptions} pagination={false} locale={{ emptyText: t('calendar.empty') }}
        columns={[
          { title: t('calendar.day'), dataIndex: 'day', width: 200, render: (d: string) => format.day(d) },
          { title: t('calendar.kind'), dataIndex: 'kind', width: 180, render: (k: string) => <Tag color={k === 'holiday' ? 'red' : 'blue'}>{t(`calendar.kinds.${k}`)}</Tag> },
          { title: t('calendar.name'), key: 'name', render: (_, d) => dayName(d) },
          {
            title: '', key: 'actions', width: 260, render: (_, d) => (
              <Space>
                <Button size='small' onClick={() => setEditing(d)}>{t('terminals.edit')}</Button>
                <Popconfirm title={t('calendar.restoreConfirm')} onConfirm={() => restore.mutate(d)} okText={t('common.yes')} cancelText={t('common.no')}>
                  <Button size='small'>{t('calendar.restore')}</Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <DayForm year={year} day={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function DayForm ({ year, day, onClose }: { year: number, day?: Day, onClose: () => void }) {
  const { t } = useTranslation()
  // the day's name in the console's language: the Russian one when it has none in Kazakh
  const dayName = useBothNamed()
  const state = useFormSave(KEY, saveCalendarDay, onClose)
  const required = { required: true, message: t('common.required') }
  return (
    <FormModal title={day ? dayName(day) : t('calendar.add')} state={state} onClose={onClose} initialValues={day ?? { kind: 'holiday', day: `${year}-01-01` }}>
      <Form.Item name='day' label={t('calendar.day')} rules={[required]}><Input type='date' disabled={day !== undefined} min='2000-01-01' max='2100-12-31' /></Form.Item>
      <Form.Item name='kind' label={t('calendar.kind')} rules={[required]}>
        <Radio.Group options={(['holiday', 'working'] as const).map((k) => ({ value: k, label: t(`calendar.kinds.${k}`) }))} />
      </Form.Item>
      <Form.Item name='name' label={t('common.nameRu')} rules={[required, { max: 255 }]}><Input /></Form.Item>
      <KazakhNameItem />
    </FormModal>
  )
}
