import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert, Button, Card, Col, Empty, Row, Space, Statistic, Table, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { ApiProblem, Schemas } from '../../api/client'
import { spyOnCall, type SpyMode } from '../../api/placedCalls'
import { problemText } from '../../forms/problems'
import { keys } from '../../api/keys'
import { breakReasonsQuery, reasonName } from '../../api/agents'
import { lineBoardQuery } from '../../api/line'
import { useQueueName } from '../admin/routing/choices'
import { useLiveEvents } from '../../live/live'
import { useNow } from '../../live/use-now'

type Board = Schemas['LineBoard']
type Agent = Board['agents'][number]
type QueueRow = Board['queues'][number]
type LineRow = Board['lines'][number]

const STATE_COLORS: Record<Agent['state'], string> = { ready: 'green', ringing: 'gold', on_call: 'red', wrap_up: 'blue', break: 'orange', offline: 'default' }
const STATE_ORDER: Agent['state'][] = ['ready', 'ringing', 'on_call', 'wrap_up', 'break', 'offline']

/** seconds as m:ss (h:mm:ss past an hour) */
export function clock (seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  const mmss = `${Math.floor(s / 60) % 60}:${String(s % 60).padStart(2, '0')}`
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, '0')}` : mmss
}

/** the line's board, read again on each line.changed (and every 30 s): its queues, who waits, the agents */
export function useLineBoard () {
  const queries = useQueryClient()
  useLiveEvents((event) => { if (event.type === 'line.changed') void queries.invalidateQueries({ queryKey: keys.board.line }) })
  return useQuery({ ...lineBoardQuery, refetchInterval: 30_000 })
}

/** a supervisor joins an operator's call on their own phone: listen, whisper to the operator, or barge in */
function ListenIn ({ terminalId, name }: { terminalId: string, name: string }) {
  const { t } = useTranslation()
  const [said, setSaid] = useState<{ ok: boolean, text: string }>()
  const join = useMutation({
    mutationFn: (mode: SpyMode) => spyOnCall({ terminal_id: terminalId, mode }),
    onSuccess: () => setSaid({ ok: true, text: t('placedCall.spy.ringing', { name }) }),
    onError: (err) => setSaid({ ok: false, text: problemText(t, err as unknown as ApiProblem) }),
  })
  return (
    <span data-testid={`listen-${terminalId}`}>
      {' '}
      {(['listen', 'whisper', 'barge'] as const).map((mode) => (
        <Button key={mode} size='small' type='link' style={{ padding: '0 4px' }} loading={join.isPending && join.variables === mode} onClick={() => join.mutate(mode)}>{t(`placedCall.spy.${mode}`)}</Button>
      ))}
      {said && <Typography.Text type={said.ok ? 'success' : 'danger'} role='status' style={{ display: 'block', whiteSpace: 'normal' }}>{said.text}</Typography.Text>}
    </span>
  )
}

const percent = (v: number | null) => (v === null ? '—' : `${v}%`)

/** the supervisor's queue panel: callers waiting with their wait ticking, agents by state, today's figures per queue */
export function LineBoard () {
  const { t, i18n } = useTranslation()
  const board = useLineBoard()
  const reasons = useQuery(breakReasonsQuery)
  const queueName = useQueueName()
  const now = useNow(1000)
  const data = board.data
  const waited = (joinedAt: string) => clock((now - Date.parse(joinedAt)) / 1000)
  // the longest wait as the service saw it, ticking on since it was read
  const longestNow = (seconds: number) => clock(seconds + (now - board.dataUpdatedAt) / 1000)
  return (
    <Card size='small' title={t('line.title')} data-testid='line-board' extra={<Link to='/board/hall' data-testid='hall-link'>{t('line.hall')}</Link>}>
      {board.isError && <Alert type='error' message={t('common.networkError')} />}
      {data && data.pbx !== 'connected' && <Alert type='warning' showIcon style={{ marginBottom: 16 }} message={t(`line.pbx.${data.pbx}`)} description={t('line.pbx.what')} data-testid='board-pbx' />}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <Typography.Title level={2} style={{ fontSize: 16 }}>{t('line.waiting', { count: data?.waiting.length ?? 0 })}</Typography.Title>
          {data && data.waiting.length === 0
            ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('line.nobodyWaits')} />
            : (
              <Table<Board['waiting'][number]>
                size='small' rowKey='linkedid' pagination={false} loading={board.isLoading} dataSource={data?.waiting} data-testid='line-waiting'
                columns={[
                  { title: t('line.caller'), dataIndex: 'caller_number', render: (v: string | null) => v ?? t('line.hidden') },
                  { title: t('line.queue'), dataIndex: 'queue' },
                  { title: t('line.wait'), dataIndex: 'joined_at', render: (v: string) => <b data-testid='wait'>{waited(v)}</b> },
                ]}
              />)}
          {data && data.callbacks.length > 0 && (
            <>
              <Typography.Title level={3} style={{ fontSize: 15, marginTop: 16 }}>{t('line.callbacks', { n: data.callbacks.filter((c) => c.status !== 'failed').length })}</Typography.Title>
              <Table<Board['callbacks'][number]>
                rowKey='id' size='small' pagination={false} dataSource={data.callbacks} data-testid='line-callbacks'
                columns={[
                  { title: t('line.callbackNumber'), dataIndex: 'number' },
                  { title: t('line.queue'), dataIndex: 'queue', render: (q: string) => { const known = data.queues.find((x) => x.queue === q); return known?.name ? queueName({ name: known.name, is_default: known.is_default }) : q } },
                  { title: t('line.callbackSince'), dataIndex: 'joined_at', render: (v: string, c) => (c.status === 'failed' ? '—' : waited(v)) },
                  {
                    title: t('line.callbackState'), dataIndex: 'status',
                    render: (v: string, c) => <Tag color={v === 'failed' ? 'red' : v === 'placing' ? 'gold' : 'blue'}>{t(`line.callbackStates.${v}`)}{c.attempts > 0 ? ` · ${t('line.callbackAttempts', { n: c.attempts })}` : ''}</Tag>,
                  },
                ]}
              />
            </>
          )}
        </Col>
        <Col xs={24} xl={16}>
          <Typography.Title level={2} style={{ fontSize: 16 }}>{t('line.agents')}</Typography.Title>
          <Space wrap data-testid='line-agents'>
            {(data?.agents ?? []).slice().sort((a, b) => STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state)).map((a) => (
              <Tag key={a.interface} color={STATE_COLORS[a.state]} style={{ padding: '4px 8px', fontSize: 13 }} data-testid={`agent-${a.terminal_id ?? a.interface}`}>
                {a.name}: {t(`line.states.${a.state}`)}{a.state === 'break' && a.reason && a.reason !== 'break' ? ` (${reasonName(reasons.data, a.reason, i18n.language) ?? a.reason})` : ''} · {waited(a.since)}
                {a.browser && <span data-testid='in-browser' title={t('line.inBrowser')}> · {t('line.inBrowser')}</span>}
                {a.break_over_seconds !== null && <b data-testid='break-over' style={{ color: '#cf1322' }}> · {t('line.breakOver', { minutes: Math.ceil(a.break_over_seconds / 60) })}</b>}
                {a.state === 'on_call' && a.terminal_id && <ListenIn terminalId={a.terminal_id} name={a.name} />}
              </Tag>
            ))}
            {data && data.agents.length === 0 && <Typography.Text type='secondary'>{t(data.pbx === 'connected' ? 'line.noAgents' : 'line.agentsUnknown')}</Typography.Text>}
          </Space>
        </Col>
      </Row>
      <Table<QueueRow>
        style={{ marginTop: 16 }} size='small' rowKey='queue' pagination={false} dataSource={data?.queues} data-testid='line-queues'
        locale={{ emptyText: t('line.noCalls') }}
        columns={[
          { title: t('line.queue'), dataIndex: 'queue', render: (queue: string, q) => (q.name === null ? queue : <span title={queue}>{queueName({ name: q.name, is_default: q.is_default })}</span>) },
          { title: t('line.offered'), dataIndex: 'offered' },
          { title: t('line.answered'), dataIndex: 'answered' },
          { title: t('line.abandoned'), dataIndex: 'abandoned', render: (v: number, q) => <>{v}{q.short_abandoned > 0 && <Typography.Text type='secondary' title={t('line.shortAbandoned')}> +{q.short_abandoned}</Typography.Text>}</> },
          { title: t('line.serviceLevel'), dataIndex: 'service_level', render: percent },
          { title: t('line.asa'), dataIndex: 'average_speed_of_answer', render: (v: number | null) => (v === null ? '—' : clock(v)) },
          { title: t('line.aht'), dataIndex: 'average_handling', render: (v: number | null) => (v === null ? '—' : clock(v)) },
          { title: t('line.rating'), dataIndex: 'average_rating', render: (v: number | null, q) => (v === null ? '—' : <span data-testid='queue-rating'>{v.toFixed(2)} <Typography.Text type='secondary'>({q.ratings})</Typography.Text></span>) },
          { title: t('line.waitingNow'), dataIndex: 'waiting_now' },
          { title: t('line.longestWait'), dataIndex: 'longest_wait_now', render: (v: number | null) => (v === null ? '—' : longestNow(v)) },
        ]}
      />
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 16 }}>{t('line.lines')}</Typography.Title>
      <Table<LineRow>
        size='small' rowKey='line' pagination={false} dataSource={data?.lines} data-testid='line-lines' scroll={{ x: true }}
        locale={{ emptyText: t('line.noLineCalls') }}
        columns={[
          { title: t('line.lineNumber'), dataIndex: 'line', render: (v: string, l) => (l.refused > 0 && l.calls === l.refused ? <span title={t('line.lineRefused')}>{v || '—'} ✕</span> : v) },
          { title: t('line.lineCalls'), dataIndex: 'calls' },
          { title: t('line.lineClosed'), dataIndex: 'closed' },
          { title: t('line.lineMenuHangup'), dataIndex: 'menu_hangup' },
          { title: t('line.lineMenuTimeout'), dataIndex: 'menu_timeout' },
          { title: t('line.lineMenuInvalid'), dataIndex: 'menu_invalid' },
          { title: t('line.lineKk'), dataIndex: 'language_kk' },
          { title: t('line.lineRu'), dataIndex: 'language_ru' },
          { title: t('line.lineToQueue'), dataIndex: 'to_queue' },
        ]}
      />
    </Card>
  )
}

type HallFigure = 'waitingNow' | 'longestWait' | 'serviceLevel' | 'answered' | 'abandoned' | 'ready' | 'onCall' | 'onBreak'

/** the hall's screen: the day's figures of the whole line in large type, readable across the room */
export function Hall () {
  const { t } = useTranslation()
  const board = useLineBoard()
  const now = useNow(1000)
  const data = board.data
  const longest = data?.waiting[0] ? clock((now - Date.parse(data.waiting[0].joined_at)) / 1000) : '0:00'
  const byState = (state: Agent['state']) => data?.agents.filter((a) => a.state === state).length ?? 0
  const big = { fontSize: 72, fontWeight: 700 }
  const figures: [HallFigure, string | number, string?][] = [
    ['waitingNow', data?.waiting.length ?? 0, (data?.waiting.length ?? 0) > 0 ? '#cf1322' : undefined],
    ['longestWait', longest],
    ['serviceLevel', percent(data?.totals.service_level ?? null)],
    ['answered', data?.totals.answered ?? 0],
    ['abandoned', (data?.totals.abandoned ?? 0) + (data?.totals.short_abandoned ?? 0)],
    ['ready', byState('ready')],
    ['onCall', byState('on_call') + byState('ringing')],
    ['onBreak', byState('break') + byState('wrap_up')],
  ]
  return (
    <div data-testid='hall' style={{ background: '#001529', minHeight: '100vh', padding: 32 }}>
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 24 }}>
        <Typography.Title level={1} style={{ color: '#fff', fontSize: 36, flex: 1 }}>{t('line.hallTitle')}</Typography.Title>
        {document.fullscreenEnabled && <Button ghost onClick={() => { void document.documentElement.requestFullscreen().catch(() => {}) }} data-testid='hall-fullscreen'>{t('line.fullScreen')}</Button>}
        <Link to='/board' style={{ color: '#c8d6e5', fontSize: 16 }} data-testid='hall-back'>{t('line.backToBoard')}</Link>
      </div>
      <Row gutter={[24, 24]}>
        {figures.map(([key, value, color]) => (
          <Col xs={12} lg={6} key={key}>
            <Card style={{ background: '#0b2540', borderColor: '#1f3f60' }}>
              <Statistic title={<span style={{ color: '#c8d6e5', fontSize: 22 }}>{t(`line.${key}`)}</span>} value={value} valueStyle={{ ...big, color: color ?? '#fff' }} data-testid={`hall-${key}`} />
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  )
}
