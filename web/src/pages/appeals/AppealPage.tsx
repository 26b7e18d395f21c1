import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Card, Col, Descriptions, Row, Skeleton, Space, Tag, Timeline, Typography } from 'antd'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { appealQuery, transcriptQuery } from '../../api/appeals'
import type { ApiProblem, Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { useFormat } from '../../i18n/format'
import { useLiveEvents } from '../../live/live'
import { useLocalName, useNames, useOrganizations, useRegionNames, useResponseMethods, useSources, useSubcategories } from '../../references/references'
import { CallRecordings } from '../calls/RecordingPlayer'
import { CallButton } from '../calls/CallButton'
import { clock } from '../board/LineBoard'
import { AnswerCheckView } from './AnswerCheck'
import { AppealActions } from './AppealActions'
import { StatusTag } from './StatusTag'

/** one appeal: its facts, the actions allowed now, the answer and its review, the history, the call's transcript */
export function AppealPage () {
  const { t } = useTranslation()
  const format = useFormat()
  const id = Number(useParams().id)
  const queries = useQueryClient()
  const [changedElsewhere, setChangedElsewhere] = useState(false)
  // the event of the user's own action is not news (it may come before or after the action's answer)
  const ownEvent = useRef<string | undefined>(undefined)
  const appeal = useQuery({ ...appealQuery(id), enabled: Number.isInteger(id) && id > 0 })
  const transcript = useQuery({ ...transcriptQuery(id), enabled: appeal.data?.call_row_id != null })
  const subcategories = useNames(useSubcategories().data, useLocalName('subcategories'))
  const regions = useRegionNames()
  const organizations = useNames(useOrganizations().data)
  const sources = useNames(useSources().data, useLocalName('sources'))
  const methods = useNames(useResponseMethods().data, useLocalName('response-methods'))

  // the list's queries are refetched by the live provider; here the user is also told
  useLiveEvents((event) => {
    if (!('appeal_id' in event) || event.appeal_id !== id) return
    if (event.type === ownEvent.current) ownEvent.current = undefined
    // a review of the answer or a call's line in the history changes nothing the page holds
    else if (event.type !== 'appeal.answer_checked' && event.type !== 'appeal.call') setChangedElsewhere(true)
  })

  if (appeal.isLoading) return <Card><Skeleton active /></Card>
  if (appeal.isError || !appeal.data) {
    const missing = (appeal.error as ApiProblem | null)?.status === 404 || !Number.isInteger(id)
    return (
      <Alert
        type={missing ? 'warning' : 'error'} showIcon message={missing ? t('appeal.notFound') : t('common.networkError')}
        action={missing ? <Link to='/appeals'>{t('appeal.toList')}</Link> : <Button onClick={() => { void appeal.refetch() }}>{t('common.retry')}</Button>}
      />
    )
  }
  const a = appeal.data
  const done = (updated: Schemas['AppealResponse']) => {
    setChangedElsewhere(false)
    queries.setQueryData(keys.appeals.one(id), { ...a, ...updated })
    void queries.invalidateQueries({ queryKey: keys.appeals.all })
  }
  const check = a.answer?.check
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Space align='center' wrap>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('appeal.title', { number: a.number })}</Typography.Title>
        <StatusTag status={a.status} />
        {a.is_overdue && <Tag color='red'>{t('appeals.overdue')}</Tag>}
        {a.is_repeat && <Tag color='purple'>{t('appeals.repeat')}</Tag>}
      </Space>
      {changedElsewhere && (
        <Alert type='info' showIcon message={t('appeal.changedElsewhere')} closable onClose={() => setChangedElsewhere(false)} data-testid='changed-elsewhere' />
      )}
      <AppealActions appeal={a} onStart={(action) => { ownEvent.current = `appeal.${action}` }} onDone={done} onFailed={() => { ownEvent.current = undefined }} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Space direction='vertical' size='middle' style={{ width: '100%' }}>
            <Card size='small' title={t('appeal.text')}><Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{a.text}</Typography.Paragraph></Card>
            {a.answer && (
              <Card size='small' title={t('appeal.answer', { date: format.dateTime(a.answer.answered_at) })} data-testid='appeal-answer'>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{a.answer.text}</Typography.Paragraph>
                {check?.status === 'pending' && <Alert type='info' message={t('appeal.checkPending')} />}
                {check?.status === 'unavailable' && <Alert type='info' message={t('desk.assistant.unavailable')} />}
                {check?.status === 'failed' && <Alert type='warning' message={t('desk.assistant.failed', { error: check.error ?? '' })} />}
                {check?.status === 'done' && check.result && <AnswerCheckView result={check.result} />}
              </Card>
            )}
            <Descriptions bordered size='small' column={{ xs: 1, md: 2 }}>
              <Descriptions.Item label={t('appeals.received')}>{format.dateTime(a.received_at)}</Descriptions.Item>
              <Descriptions.Item label={t('appeals.citizen')}>
                {[a.citizen_name, a.citizen_phone, a.citizen_email].filter(Boolean).join(' · ')}
                {a.citizen_phone && a.status !== 'closed' && a.status !== 'rejected' && <div style={{ marginTop: 8 }}><CallButton number={a.citizen_phone} appealId={a.id} /></div>}
              </Descriptions.Item>
              <Descriptions.Item label={t('appeals.classification')}>{subcategories.get(a.subcategory_id) ?? `#${a.subcategory_id}`}</Descriptions.Item>
              <Descriptions.Item label={t('appeal.priority')}>{a.priority}</Descriptions.Item>
              <Descriptions.Item label={t('appeals.region')}>{(a.region_id && regions.get(a.region_id)) ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('desk.form.address')}>{a.address ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('desk.form.source')}>{sources.get(a.source_id) ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('desk.form.responseMethod')}>{methods.get(a.response_method_id) ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('appeals.executor')}>{(a.executor_organization_id && organizations.get(a.executor_organization_id)) ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('desk.form.language')}>{t(`appealLanguage.${a.language}`)}</Descriptions.Item>
              <Descriptions.Item label={t('appeal.workDue')}>{format.dateTime(a.work_due_at)}</Descriptions.Item>
              <Descriptions.Item label={t('appeal.closeDue')}>
                {format.dateTime(a.extended_until ?? a.close_due_at)}
                {a.extended_until && <Typography.Text type='secondary'> ({t('appeal.extended', { reason: a.extension_reason ?? '' })})</Typography.Text>}
              </Descriptions.Item>
            </Descriptions>
          </Space>
        </Col>
        <Col xs={24} xl={10}>
          <Space direction='vertical' size='middle' style={{ width: '100%' }}>
            <Card size='small' title={t('appeal.history')}>
              <Timeline
                items={a.history.map((e) => ({
                  color: e.action === 'overdue' || e.action === 'reject' ? 'red' : e.action === 'close' ? 'green' : 'blue',
                  children: (
                    <>
                      <b>{t(`appeal.events.${e.action}`)}</b> · {format.dateTime(e.at)}
                      <div data-testid='history-actor' style={{ color: '#555' }}>{e.actor_name ?? t(e.actor_id === null ? 'appeal.byService' : 'appeal.byFormerEmployee')}</div>
                      {e.reason && <div style={{ color: '#555' }}>{e.reason}</div>}
                      {e.action === 'call' && <CallLine payload={e.payload} />}
                    </>
                  ),
                }))} data-testid='appeal-history'
              />
            </Card>
            {transcript.data?.line_call && <LineCallCard call={transcript.data.line_call} />}
            {transcript.data?.call_id && (
              <Card size='small' title={t('recording.title')} data-testid='appeal-recording'>
                <CallRecordings linkedid={transcript.data.call_id} />
              </Card>
            )}
            {a.call_row_id != null && (
              <Card size='small' title={t('desk.transcript')} loading={transcript.isLoading}>
                {transcript.isError && <Alert type='error' message={t('common.networkError')} />}
                {transcript.data?.chunks.map((c) => (
                  <p key={c.seq} style={{ margin: '4px 0' }}><Typography.Text type='secondary'>{t(`desk.channels.${c.channel}`, { defaultValue: c.channel })}: </Typography.Text>{c.chunk_text}</p>
                ))}
              </Card>
            )}
          </Space>
        </Col>
      </Row>
    </Space>
  )
}

/** the call the appeal was registered on, as the line kept it: when it queued, how long the caller waited, who answered, the talk */
function LineCallCard ({ call }: { call: Schemas['LineCallView'] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const seconds = (s: number | null) => (s === null ? '—' : t('line.seconds', { count: Math.round(s) }))
  return (
    <Card size='small' title={t('line.call')} data-testid='appeal-line-call'>
      <Descriptions size='small' column={1}>
        <Descriptions.Item label={t('line.joined')}>{call.joined_at ? format.dateTime(call.joined_at) : '—'}{call.queue && ` · ${call.queue}`}</Descriptions.Item>
        <Descriptions.Item label={t('line.held')}>{seconds(call.hold_seconds)}</Descriptions.Item>
        <Descriptions.Item label={t('line.answeredBy')}>{call.answered_by ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('line.talk')}>{seconds(call.talk_seconds)}</Descriptions.Item>
        <Descriptions.Item label={t('line.outcome')}>{t(`line.outcomes.${call.outcome}`, { defaultValue: call.outcome })}</Descriptions.Item>
      </Descriptions>
    </Card>
  )
}

/** a call placed for the appeal, as its history keeps it: to whom, how it ended, the talk and its recording */
function CallLine ({ payload }: { payload: Record<string, unknown> }) {
  const { t } = useTranslation()
  const status = String(payload.status ?? '')
  const side = typeof payload.failed_side === 'string' ? payload.failed_side : undefined
  const talk = typeof payload.talk_seconds === 'number' ? payload.talk_seconds : undefined
  const outcome = side ? t(`placedCall.failed.${status}.${side}`, { defaultValue: t(`placedCall.status.${status}`) }) : t(`placedCall.status.${status}`)
  return (
    <div data-testid='history-call'>
      <div style={{ color: '#555' }}>{t('placedCall.history', { number: String(payload.number ?? '') })} · {outcome}{talk !== undefined && ` · ${t('placedCall.talked', { time: clock(talk) })}`}</div>
      {talk !== undefined && typeof payload.linkedid === 'string' && <CallRecordings linkedid={payload.linkedid} />}
    </div>
  )
}
