import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Card, Col, Descriptions, Form, Input, Rate, Row, Space, Table, Tabs, Tag, Timeline, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem, Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { callTranscriptQuery, lineCallsQuery, PAGE_SIZE, reviewCall, reviewsQuery } from '../../api/recordings'
import { useFormat } from '../../i18n/format'
import { clock } from '../board/LineBoard'
import { CallRecordings } from './RecordingPlayer'

type Call = Schemas['LineCallView']
const OUTCOME_COLORS: Partial<Record<Call['outcome'], string>> = { answered: 'green', abandoned: 'red', timed_out: 'orange', waiting: 'blue', unobserved: 'default' }

/** the supervisors' calls of the line: every call as kept, with its recording; and the calls scored 1 or 2 awaiting review */
export function LineCalls () {
  const { t } = useTranslation()
  const reviews = useQuery(reviewsQuery(0))
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('calls.title')}</Typography.Title>
      <Tabs
        items={[
          { key: 'all', label: t('calls.all'), children: <AllCalls /> },
          { key: 'review', label: <span data-testid='review-tab'>{t('calls.review', { count: reviews.data?.total ?? 0 })}</span>, children: <ReviewList /> },
        ]}
      />
    </Space>
  )
}

function useColumns () {
  const { t } = useTranslation()
  const format = useFormat()
  return [
    { title: t('calls.started'), dataIndex: 'started_at', render: (v: string) => format.dateTime(v) },
    { title: t('line.caller'), dataIndex: 'caller_number', render: (v: string | null) => v ?? t('line.hidden') },
    { title: t('line.lineNumber'), dataIndex: 'line', render: (v: string | null) => v ?? '—' },
    { title: t('line.queue'), dataIndex: 'queue', render: (v: string | null) => v ?? '—' },
    { title: t('line.outcome'), dataIndex: 'outcome', render: (v: Call['outcome']) => <Tag color={OUTCOME_COLORS[v]}>{t(`line.outcomes.${v}`, { defaultValue: v })}</Tag> },
    { title: t('line.answeredBy'), dataIndex: 'answered_by', render: (v: string | null) => v ?? '—' },
    { title: t('line.talk'), dataIndex: 'talk_seconds', render: (v: number | null) => (v === null ? '—' : clock(v)) },
    { title: t('calls.rating'), dataIndex: 'rating', render: (v: number | null) => (v === null ? '—' : <span data-testid='call-rating' aria-label={t('calls.ratingOf', { rating: v })}><Rate disabled count={5} value={v} style={{ fontSize: 12 }} /></span>) },
  ]
}

/** a call opened in the list: what the line kept of it, and its recording */
function CallDetail ({ call }: { call: Call }) {
  const { t } = useTranslation()
  const format = useFormat()
  return (
    <Space direction='vertical' style={{ width: '100%' }} data-testid='call-detail'>
      <Descriptions size='small' column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('line.joined')}>{call.joined_at ? format.dateTime(call.joined_at) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('line.held')}>{call.hold_seconds === null ? '—' : clock(call.hold_seconds)}</Descriptions.Item>
        <Descriptions.Item label={t('calls.language')}>{call.language ? t(`appealLanguage.${call.language as 'ru' | 'kk'}`) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('calls.endedBy')}>{call.ended_by ? t(`calls.endedBys.${call.ended_by}`, { defaultValue: call.ended_by }) : '—'}</Descriptions.Item>
        {call.review_comment && <Descriptions.Item label={t('calls.reviewed', { at: call.reviewed_at ? format.dateTime(call.reviewed_at) : '' })}>{call.review_comment}</Descriptions.Item>}
      </Descriptions>
      {call.legs.length > 0 && <CallPath legs={call.legs} />}
      <Row gutter={[16, 8]}>
        <Col xs={24} xl={12}><CallRecordings linkedid={call.linkedid} /></Col>
        <Col xs={24} xl={12}><CallTranscript linkedid={call.linkedid} /></Col>
      </Row>
    </Space>
  )
}

/** the call's path: who talked with the citizen, in order, how the call came to them and for how long */
function CallPath ({ legs }: { legs: Call['legs'] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const terminal = (iface: string) => iface.replace(/^PJSIP\//, '')
  return (
    <Card size='small' title={t('calls.path')} data-testid='call-path'>
      <Timeline
        style={{ marginBottom: -16 }}
        items={legs.map((leg) => ({
          color: leg.how === 'queue' || leg.how === 'dial' ? 'blue' : 'green',
          children: (
            <span data-testid='call-leg'>
              <Typography.Text strong>{leg.number ?? terminal(leg.interface)}</Typography.Text>{' · '}
              {t(`calls.legWays.${leg.how}`, { from: leg.from ? terminal(leg.from) : '' })}{' · '}
              {format.time(leg.started_at)}{leg.talk_seconds === null ? ` · ${t('calls.legTalking')}` : ` · ${clock(leg.talk_seconds)}`}
            </span>
          ),
        }))}
      />
    </Card>
  )
}

/** what was said, beside the recording: the transcript's chunks, when the call had one */
function CallTranscript ({ linkedid }: { linkedid: string }) {
  const { t } = useTranslation()
  const transcript = useQuery({ ...callTranscriptQuery(linkedid), retry: false })
  if (transcript.isLoading) return null
  if (transcript.isError) {
    const none = (transcript.error as unknown as ApiProblem).status === 404
    return none ? <Typography.Text type='secondary' data-testid='no-transcript'>{t('calls.noTranscript')}</Typography.Text> : <Alert type='error' message={t('common.networkError')} />
  }
  return (
    <Card size='small' title={t('desk.transcript')} data-testid='call-transcript' styles={{ body: { maxHeight: 240, overflowY: 'auto' } }}>
      {transcript.data?.chunks.map((c) => (
        <p key={c.seq} style={{ margin: '4px 0' }}><Typography.Text type='secondary'>{t(`desk.channels.${c.channel}`, { defaultValue: c.channel })}: </Typography.Text>{c.chunk_text}</p>
      ))}
    </Card>
  )
}

function AllCalls () {
  const { t } = useTranslation()
  const [page, setPage] = useState(0)
  const calls = useQuery(lineCallsQuery(page))
  const columns = useColumns()
  if (calls.isError) return <Alert type='error' showIcon message={(calls.error as unknown as ApiProblem).status === 403 ? t('calls.supervisorsOnly') : t('common.networkError')} />
  return (
    <Table<Call>
      size='small' rowKey='linkedid' loading={calls.isLoading} dataSource={calls.data?.items} columns={columns} scroll={{ x: true }} data-testid='line-calls'
      locale={{ emptyText: t('calls.none') }}
      // `fixed`: an opened call is as wide as the screen shows the table, not as the table scrolls
      expandable={{ expandedRowRender: (call) => <CallDetail call={call} />, expandRowByClick: true, fixed: 'left' }}
      pagination={{ current: page + 1, pageSize: PAGE_SIZE, total: calls.data?.total ?? 0, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
    />
  )
}

/** the calls the citizen scored 1 or 2: each heard, then marked reviewed with what was found */
function ReviewList () {
  const { t } = useTranslation()
  const [page, setPage] = useState(0)
  const reviews = useQuery(reviewsQuery(page))
  const columns = useColumns()
  if (reviews.isError) return <Alert type='error' showIcon message={(reviews.error as unknown as ApiProblem).status === 403 ? t('calls.supervisorsOnly') : t('common.networkError')} />
  return (
    <Table<Call>
      size='small' rowKey='linkedid' loading={reviews.isLoading} dataSource={reviews.data?.items} columns={columns} scroll={{ x: true }} data-testid='review-list'
      locale={{ emptyText: t('calls.nothingToReview') }}
      expandable={{ expandedRowRender: (call) => <Space direction='vertical' style={{ width: '100%' }}><CallDetail call={call} /><ReviewForm call={call} /></Space>, defaultExpandAllRows: true, fixed: 'left' }}
      pagination={{ current: page + 1, pageSize: PAGE_SIZE, total: reviews.data?.total ?? 0, showSizeChanger: false, hideOnSinglePage: true, onChange: (p) => setPage(p - 1) }}
    />
  )
}

function ReviewForm ({ call }: { call: Call }) {
  const { t } = useTranslation()
  const queries = useQueryClient()
  const [form] = Form.useForm<{ comment: string }>()
  const review = useMutation({
    mutationFn: ({ comment }: { comment: string }) => reviewCall(call.linkedid, comment),
    onSuccess: () => { void queries.invalidateQueries({ queryKey: keys.lineCalls.all }) },
    onError: (problem: ApiProblem) => {
      const words = problem.code === 'already_reviewed' ? t('calls.alreadyReviewed') : problem.status === 422 ? t('calls.commentRequired') : t('common.networkError')
      form.setFields([{ name: 'comment', errors: [words] }])
    },
  })
  return (
    <Card size='small' title={t('calls.reviewTitle')}>
      <Form form={form} layout='vertical' onFinish={(values) => review.mutate(values)} data-testid='review-form'>
        <Form.Item name='comment' label={t('calls.comment')} rules={[{ required: true, whitespace: true, message: t('calls.commentRequired') }, { max: 2000, message: t('calls.commentTooLong') }]}>
          <Input.TextArea rows={2} maxLength={2000} showCount />
        </Form.Item>
        <Button type='primary' htmlType='submit' loading={review.isPending}>{t('calls.markReviewed')}</Button>
      </Form>
    </Card>
  )
}
