import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Card, Col, DatePicker, Row, Segmented, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { statsOfDayQuery, statsQuery } from '../../api/appeals'
import { onlineOperatorsQuery } from '../../api/calls'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { addDays, centreDayOf, centreToday } from '../../i18n/centre-time'
import { useNow } from '../../live/use-now'
import { useFormat } from '../../i18n/format'
import { useLiveEvents } from '../../live/live'
import { useLocalName, type NamedList } from '../../references/references'
import { useSession } from '../../session/session'
import { isAdmin } from '../../shell/access'
import { ByDayChart, GroupsChart } from './charts'
import { ClosedLines } from './ClosedLines'
import { LineBoard } from './LineBoard'
import { LineReports } from './LineReports'
import { LiveCalls } from './LiveCalls'
import { LlmUsage } from './LlmUsage'
import { RecordingsDisk } from './RecordingsDisk'

type Level = 'appeal_type' | 'category' | 'subcategory'
const levelList: Record<Level, NamedList> = { appeal_type: 'appeal-types', category: 'categories', subcategory: 'subcategories' }
const day = (d: Dayjs) => d.format('YYYY-MM-DD')

/** the supervisor's board: who is online and on which call, today's appeals, statistics, LLM usage */
export function Board () {
  const { t } = useTranslation()
  const format = useFormat()
  const queries = useQueryClient()
  // the centre's today, not the browser's: the service counts days in the centre's zone
  const [period, setPeriod] = useState<[Dayjs, Dayjs]>(() => [dayjs(addDays(centreToday(), -29)), dayjs(centreToday())])
  const [level, setLevel] = useState<Level>('category')
  const { user } = useSession()
  const regionName = useLocalName('regions')
  const classificationName = useLocalName(levelList[level])

  const operators = useQuery({ ...onlineOperatorsQuery, refetchInterval: 30_000 })
  useLiveEvents((event) => {
    if (event.type.startsWith('operator.') || event.type === 'call.answered' || event.type === 'call.final' || event.type === 'line.changed') void queries.invalidateQueries({ queryKey: keys.board.operators })
  })
  // today follows the clock: a board left open past midnight moves to the new day
  const todayInCentre = centreDayOf(useNow(60_000))
  const today = useQuery(statsOfDayQuery(todayInCentre))
  const stats = useQuery(statsQuery(day(period[0]), day(period[1]), level))
  // the LLM's usage and cost are the administrator's (the service answers 403 to a manager)
  const showUsage = user !== null && isAdmin(user)

  const groupLabels = (title: string) => ({ title, received: t('board.received'), overdue: t('board.overdue'), none: t('board.none') })
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('board.title')}</Typography.Title>
      {user && user.role !== 'operator' && <ClosedLines />}
      <Row gutter={[16, 16]}>
        {([['received', 'received'], ['overdue', 'overdue'], ['answered', 'answered'], ['closed', 'closed']] as const).map(([key, label]) => (
          <Col xs={12} md={6} key={key}>
            <Card size='small' loading={today.isLoading}>
              <Statistic title={t(`board.today.${label}`)} value={today.data?.totals[key] ?? 0} valueStyle={key === 'overdue' && (today.data?.totals.overdue ?? 0) > 0 ? { color: '#cf1322' } : undefined} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size='small' title={t('board.operators')} data-testid='online-operators'>
            {operators.isError && <Alert type='error' message={t('common.networkError')} />}
            <Table<Schemas['OnlineOperator']>
              size='small' rowKey='operator_num' pagination={false} loading={operators.isLoading} dataSource={operators.data}
              locale={{ emptyText: t('board.noOperators') }}
              columns={[
                { title: t('board.operator'), dataIndex: 'name', render: (name: string, o) => <>{name}<br /><Typography.Text type='secondary'>{o.organization_name}</Typography.Text></> },
                { title: t('board.terminal'), dataIndex: 'operator_num' },
                { title: t('board.state'), dataIndex: 'state', render: (state: string, o) => <Tag color={state === 'on_call' ? 'red' : o.console_connected ? 'green' : 'default'}>{t(`board.states.${state}`, { defaultValue: state })}</Tag> },
                { title: t('board.caller'), dataIndex: 'caller_phone', render: (v: string | null) => v ?? '—' },
                { title: t('board.since'), dataIndex: 'since', render: (v: string | null) => (v ? format.time(v) : '—') },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}><LiveCalls /></Col>
      </Row>
      <LineBoard />
      <LineReports />
      <RecordingsDisk />
      <Card
        size='small' title={t('board.statistics')}
        extra={<DatePicker.RangePicker value={period} allowClear={false} onChange={(v) => { if (v?.[0] && v[1]) setPeriod([v[0], v[1]]) }} aria-label={t('appeals.period')} />}
      >
        {stats.isLoading && <Skeleton active />}
        {stats.isError && <Alert type='error' message={t('common.networkError')} />}
        {stats.data && (
          <Space direction='vertical' size='large' style={{ width: '100%' }}>
            <Row gutter={16}>
              <Col xs={12} md={4}><Statistic title={t('board.received')} value={stats.data.totals.received} /></Col>
              <Col xs={12} md={4}><Statistic title={t('board.answered')} value={stats.data.totals.answered} /></Col>
              <Col xs={12} md={5}><Statistic title={t('board.onTime')} value={stats.data.totals.on_time_rate === null ? '—' : format.percent(stats.data.totals.on_time_rate)} /></Col>
              <Col xs={12} md={4}><Statistic title={t('board.closed')} value={stats.data.totals.closed} /></Col>
              <Col xs={12} md={3}><Statistic title={t('board.overdue')} value={stats.data.totals.overdue} /></Col>
              <Col xs={12} md={4}><Statistic title={t('board.medianHours')} value={stats.data.totals.median_hours_to_close ?? '—'} precision={1} /></Col>
            </Row>
            <div style={{ height: 260 }} data-testid='chart-by-day'>
              <ByDayChart days={stats.data.by_day} labels={{ title: t('board.byDay'), received: t('board.received'), closed: t('board.closed'), day: (d) => format.shortDay(d) }} />
            </div>
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={8}><h3>{t('board.byRegion')}</h3><div style={{ height: 320 }}><GroupsChart groups={stats.data.by_region} labels={groupLabels(t('board.byRegion'))} name={regionName} /></div></Col>
              <Col xs={24} xl={8}><h3>{t('board.byExecutor')}</h3><div style={{ height: 320 }}><GroupsChart groups={stats.data.by_executor} labels={groupLabels(t('board.byExecutor'))} /></div></Col>
              <Col xs={24} xl={8}>
                <Space style={{ marginBottom: 8 }} wrap>
                  <h3 style={{ margin: 0 }}>{t('board.byClassification')}</h3>
                  <Segmented<Level> size='small' aria-label={t('board.level')} value={level} onChange={setLevel} options={(['appeal_type', 'category', 'subcategory'] as const).map((l) => ({ value: l, label: t(`board.levels.${l}`) }))} />
                </Space>
                <div style={{ height: 320 }}><GroupsChart groups={stats.data.by_classification} labels={groupLabels(t('board.byClassification'))} name={classificationName} /></div>
              </Col>
            </Row>
          </Space>
        )}
      </Card>
      {showUsage && <LlmUsage from={day(period[0])} to={day(period[1])} />}
    </Space>
  )
}
