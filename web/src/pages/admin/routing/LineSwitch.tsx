import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Popconfirm, Select, Space, Tag, Tooltip } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { keys } from '../../../api/keys'
import { closeLine, openLine, type LineSwitchState } from '../../../api/lineSwitch'
import { promptsQuery } from '../../../api/routing'
import { useFormat } from '../../../i18n/format'
import { FormModal, useAction, useFormSave } from '../kit'

/** how long a closing lasts: hours from now (an instant, whatever the browser's zone), or until opened */
const DURATIONS = [1, 2, 4, 8, 24] as const
interface Values { reason: string, hours: number | 'opened', prompt_id?: number | null }

type SwitchedLine = Pick<LineSwitchState, 'number' | 'name'> & { id: number }

/** a line's state at the switch and the switch itself: closed (why, until when) with "open", or open (also before its state is read) with "close now" */
export function LineSwitch ({ tenant, line, state }: { tenant: number, line: SwitchedLine, state?: LineSwitchState }) {
  const { t } = useTranslation()
  const format = useFormat()
  const [closing, setClosing] = useState(false)
  const open = useAction(keys.lineSwitches.all, () => openLine(tenant, line.id), () => t('lineSwitch.opened'))
  if (!state?.closed) {
    return (
      <>
        <Button size='small' danger onClick={() => setClosing(true)}>{t('lineSwitch.close')}</Button>
        {closing && <CloseLineForm tenant={tenant} line={line} onClose={() => setClosing(false)} />}
      </>
    )
  }
  const said = state.until ? t('lineSwitch.closedUntil', { until: format.dateTime(state.until) }) : t('lineSwitch.closedUntilOpened')
  return (
    <Space wrap>
      <Tooltip title={[state.reason, state.by?.name].filter(Boolean).join(' · ')}>
        <Tag color='red' data-testid={`line-closed-${state.number}`}>{said}</Tag>
      </Tooltip>
      <Popconfirm title={t('lineSwitch.openConfirm', { number: state.number })} onConfirm={() => open.mutate(undefined)} okText={t('common.yes')} cancelText={t('common.no')}>
        <Button size='small' type='primary' loading={open.isPending}>{t('lineSwitch.open')}</Button>
      </Popconfirm>
    </Space>
  )
}

function CloseLineForm ({ tenant, line, onClose }: { tenant: number, line: SwitchedLine, onClose: () => void }) {
  const { t } = useTranslation()
  const prompts = useQuery(promptsQuery(tenant)).data ?? []
  const submit = useFormSave(keys.lineSwitches.all, ({ reason, hours, prompt_id: promptId }: Values) => closeLine(tenant, line.id, {
    reason, prompt_id: promptId ?? null, until: hours === 'opened' ? null : new Date(Date.now() + hours * 3_600_000).toISOString(),
  }), onClose)
  const required = { required: true, message: t('common.required') }
  return (
    <FormModal title={t('lineSwitch.title', { number: line.number, name: line.name })} state={submit} onClose={onClose} okText={t('lineSwitch.close')} initialValues={{ hours: 'opened' } as Partial<Values>}>
      <Form.Item name='reason' label={t('lineSwitch.reason')} rules={[required, { max: 200 }]}>
        <Input list='line-switch-reasons' />
      </Form.Item>
      <datalist id='line-switch-reasons'>
        {(['emergency', 'event', 'technical'] as const).map((r) => <option key={r} value={t(`lineSwitch.reasons.${r}`)} />)}
      </datalist>
      <Form.Item name='hours' label={t('lineSwitch.until')}>
        <Select options={[{ value: 'opened', label: t('lineSwitch.untilOpened') }, ...DURATIONS.map((h) => ({ value: h, label: t('lineSwitch.forHours', { count: h }) }))]} />
      </Form.Item>
      <Form.Item name='prompt_id' label={t('lineSwitch.announcement')} extra={t('lineSwitch.announcementHint')}>
        <Select allowClear options={prompts.filter((p) => p.recordings.length > 0).map((p) => ({ value: p.id, label: p.name }))} />
      </Form.Item>
    </FormModal>
  )
}
