import { SwapOutlined } from '@ant-design/icons'
import { useMutation, useQuery } from '@tanstack/react-query'
import { App, Button, Form, Input, Popover, Radio, Select, Space, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cancelTransfer, completeTransfer, joinTransfer, transferCall, transferQueuesQuery, type TransferRequest } from '../../api/calls'
import type { ApiProblem } from '../../api/client'
import { problemText, showProblems } from '../../forms/problems'
import { ColleagueField } from './ColleagueField'

/**
 * Passing the call on (DESIGN 11), for a desk phone and a browser phone alike: at once, or after
 * consulting with the caller on hold; to a colleague, the organization's queue, or an organization's
 * line (an executor's dispatcher). While consulting: connect and leave, talk the three together, or go
 * back to the caller; talking three, leave the other two talking.
 */
type Finish = 'complete' | 'cancel' | 'conference'
const finishing: Record<Finish, () => Promise<unknown>> = { complete: completeTransfer, cancel: cancelTransfer, conference: joinTransfer }
export function TransferCall () {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [open, setOpen] = useState(false)
  /** the attended transfer under way: consulting with the caller on hold, or the three talking */
  const [consulting, setConsulting] = useState<'consulting' | 'three' | undefined>()
  const [form] = Form.useForm<TransferRequest>()
  // undefined until the popover's form first shows: its initial value
  const to = Form.useWatch('to', form) ?? 'terminal'
  const failed = (problem: ApiProblem) => { void message.error(problemText(t, problem)) }
  const send = useMutation({
    mutationFn: transferCall,
    onSuccess: (_, body) => {
      setOpen(false)
      form.resetFields()
      if (body.mode === 'attended') setConsulting('consulting')
      else void message.success(t('transfer.passed'))
    },
    // a refusal of the number or the extension is said on its field, the rest above the desk
    onError: (problem: ApiProblem) => {
      const rest = showProblems(form, problem, t)
      if (rest !== undefined) void message.error(rest)
    },
  })
  const finish = useMutation({
    mutationFn: (how: Finish) => finishing[how](),
    onSuccess: (_, how) => {
      setConsulting(how === 'conference' ? 'three' : undefined)
      if (how === 'complete') void message.success(t('transfer.passed'))
    },
    onError: failed,
  })

  if (consulting) {
    const three = consulting === 'three'
    return (
      <Space data-testid='transfer-consulting' data-state={consulting} wrap>
        <Typography.Text type='warning'>{t(three ? 'transfer.three' : 'transfer.consulting')}</Typography.Text>
        <Button type='primary' loading={finish.isPending} onClick={() => finish.mutate('complete')}>{t(three ? 'transfer.leave' : 'transfer.complete')}</Button>
        {!three && <Button loading={finish.isPending} onClick={() => finish.mutate('conference')}>{t('transfer.conference')}</Button>}
        {!three && <Button loading={finish.isPending} onClick={() => finish.mutate('cancel')}>{t('transfer.cancel')}</Button>}
      </Space>
    )
  }
  const content = (
    <Form form={form} name='transfer' preserve={false} layout='vertical' style={{ width: 300 }} initialValues={{ mode: 'blind', to: 'terminal' }} onFinish={(body) => send.mutate(body)} data-testid='transfer-form'>
      <Form.Item name='mode'>
        <Radio.Group optionType='button' options={[{ value: 'blind', label: t('transfer.blind') }, { value: 'attended', label: t('transfer.attended') }]} />
      </Form.Item>
      <Form.Item name='to' label={t('transfer.to')}>
        <Radio.Group options={[{ value: 'terminal', label: t('transfer.colleague') }, { value: 'queue', label: t('transfer.queue') }, { value: 'line', label: t('transfer.line') }, { value: 'outside', label: t('transfer.outside') }]} style={{ display: 'flex', flexDirection: 'column' }} />
      </Form.Item>
      {to === 'terminal' && (
        <Form.Item name='extension' label={t('transfer.extension')} rules={[{ required: true, pattern: /^[0-9]{3}$/, message: t('transfer.badExtension') }]}>
          <ColleagueField />
        </Form.Item>
      )}
      {to === 'queue' && <QueueField />}
      {to === 'line' && (
        <Form.Item name='number' label={t('transfer.number')} rules={[{ required: true, pattern: /^[0-9]{1,20}$/, message: t('transfer.badNumber') }]}>
          <Input maxLength={20} inputMode='numeric' aria-label={t('transfer.number')} />
        </Form.Item>
      )}
      {to === 'outside' && (
        <Form.Item name='number' label={t('transfer.phone')} extra={t('transfer.phoneHint')} rules={[{ required: true, pattern: /^\+?[\d\s\-()]{3,32}$/, message: t('transfer.badPhone') }]}>
          <Input maxLength={32} inputMode='tel' aria-label={t('transfer.phone')} />
        </Form.Item>
      )}
      <Button type='primary' htmlType='submit' loading={send.isPending} block>{t('transfer.send')}</Button>
    </Form>
  )
  return (
    <Popover trigger='click' open={open} onOpenChange={setOpen} content={content} title={t('transfer.open')}>
      <Button icon={<SwapOutlined aria-hidden />}>{t('transfer.open')}</Button>
    </Popover>
  )
}

/** which of the organization's queues (none chosen: its own); the first of its operators ready answers */
function QueueField () {
  const { t } = useTranslation()
  const queues = useQuery(transferQueuesQuery)
  if (queues.isError) return <Typography.Text type='warning'>{t('transfer.queuesFailed')}</Typography.Text>
  const options = (queues.data ?? []).map((q) => ({ value: q.id, label: q.is_default ? t('transfer.ownQueue', { name: q.name }) : q.name }))
  return (
    <Form.Item name='queue_id' label={t('transfer.whichQueue')}>
      <Select options={options} loading={queues.isPending} placeholder={options[0]?.label} allowClear aria-label={t('transfer.whichQueue')} showSearch optionFilterProp='label' />
    </Form.Item>
  )
}
