import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Badge, Button, Card, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd'
import { useState } from 'react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { bulkAssign, inboxQuery, type InboxState } from '../../api/appeals'
import type { ApiProblem, Schemas } from '../../api/client'
import { employeesOfQuery } from '../../api/employees'
import { keys } from '../../api/keys'
import { problemText } from '../../forms/problems'
import { useFormat } from '../../i18n/format'
import { useNow } from '../../live/use-now'
import { useLocalName, useNames, useOrganizations, useSubcategories } from '../../references/references'
import { useSession } from '../../session/session'
import { useWorkplace } from '../../session/workplace'
import { markOwnChange, useNoticeSound } from '../../shell/assignment-notice'
import { StatusTag } from './StatusTag'

type Appeal = Schemas['AppealResponse']
type Counts = Schemas['AppealInbox']['counts']

const STATES: InboxState[] = ['open', 'assigned', 'in_work', 'answered', 'overdue', 'mine']
const PAGE = 50
/** what asks for attention stands out: the overdue in red, the new in blue, the rest and every zero in grey */
const badgeColor = (state: InboxState, count: number | undefined) => !count ? '#8c8c8c' : state === 'overdue' ? '#cf1322' : state === 'assigned' || state === 'open' ? '#1454a0' : '#595959'
const countOf = (counts: Counts | undefined, state: InboxState) => counts === undefined ? undefined : state === 'open' ? counts.assigned + counts.in_work : counts[state]

/**
 * An executor's inbox: its appeals in hand by state, counted, the nearest answer deadline first; a
 * manager selects several and hands them to one employee. The centre's staff and admins pick whose.
 */
export function Inbox () {
  const { t } = useTranslation()
  const { user } = useSession()
  const workplace = useWorkplace().data
  const [params, setParams] = useSearchParams()
  const state = (STATES as string[]).includes(params.get('state') ?? '') ? params.get('state') as InboxState : 'open'
  const ownOrganization = workplace && !workplace.centre_staff ? workplace.organization_id ?? undefined : undefined
  const picked = Number(params.get('organization')) || undefined
  const organizationId = ownOrganization ?? picked
  const [cursors, setCursors] = useState<string[]>([])
  const cursor = cursors.at(-1)
  const page = useQuery({ ...inboxQuery(state, organizationId, cursor, PAGE), enabled: workplace !== undefined })
  const manages = user !== null && organizationId !== undefined && (user.role === 'admin' || (user.role === 'manager' && user.organization_id === organizationId))

  const show = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams(params)
    for (const [k, v] of Object.entries(next)) { if (v === undefined) merged.delete(k); else merged.set(k, v) }
    setCursors([])
    setParams(merged)
  }

  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('inbox.title')}</Typography.Title>
        <SoundSwitch />
      </Space>
      {ownOrganization === undefined && <OrganizationFilter value={picked} onChange={(id) => show({ organization: id === undefined ? undefined : String(id) })} />}
      <Tabs
        activeKey={state}
        onChange={(key) => show({ state: key === 'open' ? undefined : key })}
        items={STATES.map((s) => ({
          key: s,
          label: <Space size={6}>{t(`inbox.states.${s}`)}<Badge count={countOf(page.data?.counts, s)} showZero overflowCount={9999} color={badgeColor(s, countOf(page.data?.counts, s))} /></Space>,
        }))}
        data-testid='inbox-states'
      />
      {page.isError && <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void page.refetch() }}>{t('common.retry')}</Button>} />}
      <InboxTable items={page.data?.items} loading={page.isFetching} emptyText={page.isLoading ? t('common.loading') : t(`inbox.empty.${state}`)} organizationId={organizationId} manages={manages} />
      <Space>
        <Button disabled={cursors.length === 0} onClick={() => setCursors([])}>{t('appeals.first')}</Button>
        <Button disabled={!page.data?.next_cursor} onClick={() => setCursors([...cursors, page.data!.next_cursor!])}>{t('appeals.next')}</Button>
      </Space>
    </Space>
  )
}

function OrganizationFilter ({ value, onChange }: { value: number | undefined, onChange: (id: number | undefined) => void }) {
  const { t } = useTranslation()
  const organizations = useOrganizations()
  return (
    <Select
      allowClear showSearch optionFilterProp='label' style={{ width: 360, maxWidth: '100%' }} aria-label={t('appeals.executor')} placeholder={t('inbox.everyExecutor')}
      value={value} onChange={onChange} loading={organizations.isLoading} options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
    />
  )
}

function SoundSwitch () {
  const { t } = useTranslation()
  const [on, setOn] = useNoticeSound()
  return <Space><Switch checked={on} onChange={setOn} aria-label={t('inbox.sound')} id='inbox-sound' /><label htmlFor='inbox-sound'>{t('inbox.sound')}</label></Space>
}

function InboxTable ({ items, loading, emptyText, organizationId, manages }: { items: Appeal[] | undefined, loading: boolean, emptyText: string, organizationId: number | undefined, manages: boolean }) {
  const { t } = useTranslation()
  const format = useFormat()
  const navigate = useNavigate()
  const now = useNow()
  const { user } = useSession()
  const [selected, setSelected] = useState<number[]>([])
  const subcategoryNames = useNames(useSubcategories().data, useLocalName('subcategories'))
  const employees = useQuery({ ...employeesOfQuery(organizationId ?? 0), enabled: manages })
  const employeeNames = new Map((employees.data ?? []).map((e) => [e.id, e.full_name]))
  const whose = (id: number | null) => id === null ? t('inbox.nobody') : id === user?.id ? t('inbox.me') : employeeNames.get(id) ?? t('inbox.colleague')

  const columns = [
    { title: t('appeals.number'), dataIndex: 'number', render: (n: string, a: Appeal) => <Link to={`/appeals/${a.id}`}>{n}</Link> },
    { title: t('appeal.closeDue'), dataIndex: 'close_due_at', render: (due: string, a: Appeal) => <DueCell due={due} appeal={a} now={now} /> },
    { title: t('appeals.status'), dataIndex: 'status', render: (s: string, a: Appeal) => <Space size={4} wrap><StatusTag status={s} />{a.is_overdue && <Tag color='red'>{t('appeals.overdue')}</Tag>}</Space> },
    { title: t('appeals.citizen'), dataIndex: 'citizen_name' },
    { title: t('appeals.classification'), dataIndex: 'subcategory_id', render: (id: number) => subcategoryNames.get(id) ?? `#${id}` },
    { title: t('inbox.employee'), dataIndex: 'executor_employee_id', render: whose },
    { title: t('appeals.received'), dataIndex: 'received_at', render: (v: string) => format.dateTime(v) },
  ]
  return (
    <>
      {manages && <HandOver selected={(items ?? []).filter((a) => selected.includes(a.id))} employees={employees.data ?? []} loading={employees.isLoading} onDone={() => setSelected([])} />}
      <Table<Appeal>
        rowKey='id' size='small' columns={columns} dataSource={items} loading={loading} pagination={false} data-testid='inbox-table'
        rowClassName={(a) => (a.is_overdue ? 'row-overdue' : '')}
        rowSelection={manages ? { selectedRowKeys: selected, onChange: (ids) => setSelected(ids as number[]), columnTitle: undefined } : undefined}
        locale={{ emptyText }}
        onRow={(a) => ({ onDoubleClick: () => navigate(`/appeals/${a.id}`) })}
        scroll={{ x: 900 }}
      />
    </>
  )
}

/** the answer deadline and how far it is: time left, or how long ago it passed */
function DueCell ({ due, appeal, now }: { due: string, appeal: Appeal, now: number }) {
  const { t } = useTranslation()
  const format = useFormat()
  const left = new Date(due).getTime() - now
  const hours = Math.floor(Math.abs(left) / 3_600_000)
  const span = hours >= 48 ? t('inbox.days', { count: Math.floor(hours / 24) }) : t('inbox.hours', { hours, minutes: Math.floor(Math.abs(left) / 60_000) % 60 })
  const pending = appeal.status === 'assigned' || appeal.status === 'in_work'
  return (
    <Space direction='vertical' size={0}>
      <span>{format.dateTime(due)}</span>
      {pending && <Typography.Text type={left < 0 ? 'danger' : left < 4 * 3_600_000 ? 'warning' : 'secondary'} style={{ fontSize: 12 }}>{left < 0 ? t('inbox.late', { span }) : t('inbox.left', { span })}</Typography.Text>}
    </Space>
  )
}

/** the selected appeals to one employee, or back to the organization: all or none, the refusal said naming the appeal */
function HandOver ({ selected, employees, loading, onDone }: { selected: Appeal[], employees: Schemas['EmployeeResponse'][], loading: boolean, onDone: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const queries = useQueryClient()
  const [employee, setEmployee] = useState<number | 'nobody'>()
  const [error, setError] = useState<string>()
  const send = useMutation({
    mutationFn: () => {
      markOwnChange(selected.map((a) => a.id))
      return bulkAssign({ appeal_ids: selected.map((a) => a.id), executor_employee_id: employee === 'nobody' ? null : employee })
    },
    onSuccess: (done) => {
      setError(undefined)
      void message.success(t('inbox.handedOver', { count: done.items.length }))
      onDone()
    },
    onError: (problem: ApiProblem) => setError(handOverProblem(t, problem, selected)),
    onSettled: () => queries.invalidateQueries({ queryKey: keys.appeals.all }),
  })
  return (
    <Card size='small'>
      <Space wrap>
        <Typography.Text>{t('inbox.selected', { count: selected.length })}</Typography.Text>
        <Select
          showSearch optionFilterProp='label' style={{ width: 280 }} aria-label={t('inbox.handTo')} placeholder={t('inbox.handTo')} loading={loading} value={employee} onChange={setEmployee}
          options={[{ value: 'nobody' as const, label: t('inbox.toOrganization') }, ...employees.map((e) => ({ value: e.id, label: e.full_name }))]}
        />
        <Button type='primary' disabled={selected.length === 0 || employee === undefined} loading={send.isPending} onClick={() => send.mutate()}>{t('inbox.handOver')}</Button>
      </Space>
      {error && <Alert type='error' showIcon role='alert' message={error} style={{ marginTop: 8 }} data-testid='hand-over-error' />}
    </Card>
  )
}

/** which appeal could not be handed over, and why, in the console's words */
function handOverProblem (t: TFunction, problem: ApiProblem, selected: Appeal[]): string {
  if (Array.isArray(problem.detail)) {
    const at = problem.detail[0]?.loc
    if (at?.[1] === 'appeal_ids' && typeof at[2] === 'number') return t('inbox.unavailable', { number: selected[at[2]]?.number ?? '' })
    return problemText(t, problem)
  }
  const number = typeof problem.detail === 'string' ? /109-\d{4}-\d+/.exec(problem.detail)?.[0] : undefined
  return number ? `${number}: ${problemText(t, problem)}` : problemText(t, problem)
}
