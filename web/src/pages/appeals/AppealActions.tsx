import { useMutation, useQuery } from '@tanstack/react-query'
import { Alert, Button, Col, DatePicker, Form, Input, Modal, Radio, Row, Select, Space, Spin } from 'antd'
import type { Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { actOnAppeal, type AppealAction } from '../../api/appeals'
import type { ApiProblem, Schemas } from '../../api/client'
import { checkResponse } from '../../api/llm'
import { LanguageField } from '../../forms/LanguageField'
import { useFormSubmit } from '../../forms/useFormSubmit'
import { useOrganizations } from '../../references/references'
import { AnswerCheckView } from './AnswerCheck'
import { centreInstant } from '../../i18n/centre-time'
import { useFormat } from '../../i18n/format'
import { appealCallsQuery } from '../../api/placedCalls'
import { clock } from '../board/LineBoard'

type Appeal = Schemas['AppealResponse']
type Action = AppealAction
const ORDER: Action[] = ['take', 'answer', 'assign', 'redirect', 'extend', 'return', 'close', 'reject']
const CONFIRM_ONLY = new Set<Action>(['take', 'close'])

/** the actions the appeal's state and the user's role allow, each with its form */
interface Callbacks { onStart: (action: Action) => void, onDone: (appeal: Appeal) => void, onFailed: () => void }

export function AppealActions ({ appeal, ...callbacks }: { appeal: Appeal } & Callbacks) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<Action>()
  const allowed = ORDER.filter((a) => appeal.allowed_actions.includes(a))
  if (allowed.length === 0) return null
  return (
    <>
      <Space wrap data-testid='appeal-actions'>
        {allowed.map((action) => (
          <Button key={action} type={action === 'take' || action === 'answer' || action === 'close' ? 'primary' : 'default'} danger={action === 'reject'} onClick={() => setOpen(action)}>
            {t(`appeal.actions.${action}`)}
          </Button>
        ))}
      </Space>
      {open && <ActionForm action={open} appeal={appeal} onClose={() => setOpen(undefined)} {...callbacks} onDone={(a) => { setOpen(undefined); callbacks.onDone(a) }} />}
    </>
  )
}

interface Values {
  executor_organization_id?: number
  reason?: string
  until?: Dayjs
  text?: string
  language?: 'kk' | 'ru'
  kind?: 'not_an_appeal' | 'duplicate' | 'out_of_competence'
  call_id?: number
}

function ActionForm ({ action, appeal, onClose, onStart, onDone, onFailed }: { action: Action, appeal: Appeal, onClose: () => void } & Callbacks) {
  const { t } = useTranslation()
  const organizations = useOrganizations()
  const [check, setCheck] = useState<{ text: string, result: Record<string, unknown> }>()

  const { form, busy, error, handleSubmit } = useFormSubmit({
    send: (v: Values) => actOnAppeal(appeal.id, action, {
      ...v,
      until: v.until ? centreInstant(v.until.format('YYYY-MM-DD'), v.until.format('HH:mm')).toISOString() : undefined,
      check: check && check.text === v.text ? check.result : undefined,
    }),
    onSend: () => onStart(action),
    onFailed,
    saidOnDone: t(`appeal.done.${action}`),
    onDone,
  })

  // the review runs beside the form: the executor may answer without waiting for it
  const review = useMutation({
    mutationFn: (text: string) => checkResponse(appeal.text, text),
    onSuccess: (task, text) => { if (task.success && task.result) setCheck({ text, result: task.result }) },
  })
  const text = Form.useWatch('text', form)

  const required = { required: true, message: t('common.required') }
  const reason = <Form.Item name='reason' label={t('appeal.reason')} rules={[required, { max: 1000 }]}><Input.TextArea autoSize={{ minRows: 2 }} /></Form.Item>
  const executors = (organizations.data ?? []).filter((o) => o.id !== appeal.executor_organization_id).map((o) => ({ value: o.id, label: o.name }))
  const wide = action === 'answer'
  return (
    <Modal
      open title={t(`appeal.actions.${action}`)} onCancel={onClose} width={wide ? 1000 : 560} destroyOnHidden
      okText={t(`appeal.actions.${action}`)} cancelText={t('common.cancel')} okButtonProps={{ loading: busy, danger: action === 'reject' }}
      onOk={() => { CONFIRM_ONLY.has(action) ? handleSubmit({}) : form.submit() }}
    >
      {error && <Alert type='error' showIcon message={error} role='alert' style={{ marginBottom: 12 }} />}
      {CONFIRM_ONLY.has(action) && <p>{t(`appeal.confirm.${action}`, { number: appeal.number })}</p>}
      {!CONFIRM_ONLY.has(action) && (
        <Row gutter={16}>
          <Col span={wide ? 13 : 24}>
            <Form form={form} layout='vertical' onFinish={handleSubmit} initialValues={{ language: appeal.language }}>
              {(action === 'assign' || action === 'redirect') && (
                <Form.Item name='executor_organization_id' label={t('appeals.executor')} rules={action === 'redirect' || appeal.status === 'registered' ? [required] : []}>
                  <Select showSearch optionFilterProp='label' options={executors} loading={organizations.isLoading} />
                </Form.Item>
              )}
              {action === 'extend' && (
                <Form.Item name='until' label={t('appeal.until')} rules={[required]}>
                  <DatePicker showTime style={{ width: '100%' }} />
                </Form.Item>
              )}
              {action === 'reject' && (
                <Form.Item name='kind' label={t('appeal.rejectKind')} rules={[required]}>
                  <Radio.Group options={(['not_an_appeal', 'duplicate', 'out_of_competence'] as const).map((k) => ({ value: k, label: t(`appeal.rejectKinds.${k}`) }))} />
                </Form.Item>
              )}
              {action === 'answer' && (
                <>
                  <LanguageField />
                  <Form.Item name='text' label={t('appeal.answerText')} rules={[required, { max: 20_000 }]}>
                    <Input.TextArea autoSize={{ minRows: 8, maxRows: 16 }} />
                  </Form.Item>
                  <AnswerCallField appealId={appeal.id} />
                  <Button onClick={() => review.mutate(String(text ?? ''))} loading={review.isPending} disabled={!text?.trim()}>{t('appeal.check')}</Button>
                </>
              )}
              {['redirect', 'extend', 'return', 'reject'].includes(action) && reason}
            </Form>
          </Col>
          {wide && (
            <Col span={11}>
              <h3 style={{ marginTop: 0 }}>{t('appeal.checkTitle')}</h3>
              {review.isPending && <Spin />}
              {review.isError && <Alert type='error' message={(review.error as unknown as ApiProblem).status === 503 ? t('desk.assistant.unavailable') : t('common.networkError')} />}
              {review.data && !review.data.success && <Alert type='warning' message={t('desk.assistant.failed', { error: review.data.error ?? '' })} />}
              {check && <AnswerCheckView result={check.result} />}
              {check && check.text !== text && <Alert type='info' message={t('appeal.checkStale')} style={{ marginTop: 8 }} />}
              {!check && !review.isPending && <p style={{ color: '#888' }}>{t('appeal.checkHint')}</p>}
            </Col>
          )}
        </Row>
      )}
    </Modal>
  )
}

/** the call placed for the appeal that the answer was given in: offered when one reached the citizen */
function AnswerCallField ({ appealId }: { appealId: number }) {
  const { t } = useTranslation()
  const format = useFormat()
  const calls = useQuery(appealCallsQuery(appealId))
  const reached = (calls.data ?? []).filter((c) => c.connected_at !== null)
  if (reached.length === 0) return null
  return (
    <Form.Item name='call_id' label={t('placedCall.answerCall')} extra={t('placedCall.answerCallHint')}>
      <Select
        allowClear placeholder={t('placedCall.noCall')} data-testid='answer-call'
        options={reached.map((c) => ({ value: c.id, label: `${format.dateTime(c.connected_at!)} · ${c.number}${c.talk_seconds !== null ? ` · ${t('placedCall.talked', { time: clock(c.talk_seconds) })}` : ''}` }))}
      />
    </Form.Item>
  )
}
