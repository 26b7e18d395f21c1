import { useInfiniteQuery } from '@tanstack/react-query'
import { Button, Select, Space, Table, Tag, Tooltip, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { notificationsQuery, retryNotification } from '../../api/appeals'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { useFormat } from '../../i18n/format'
import { LoadError, PageTitle, useAction } from './kit'

type Notification = Schemas['Notification']
type Status = Notification['status']
type Channel = Notification['channel']
const KEY = keys.admin.notifications.all
const STATUS_COLOR: Record<Status, string> = { pending: 'blue', sent: 'green', failed: 'red' }

/** the outbox of mails and SMS to citizens and executors: what was sent, what waits, what failed (retry) */
export function Notifications () {
  const { t } = useTranslation()
  const format = useFormat()
  const [params, setParams] = useSearchParams()
  const status = (params.get('status') ?? undefined) as Status | undefined
  const channel = (params.get('channel') ?? undefined) as Channel | undefined
  const pages = useInfiniteQuery({
    ...notificationsQuery(status, channel),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  })
  const retry = useAction(KEY, (n: Notification) => retryNotification(n.id))
  const first = pages.data?.pages[0]
  const filter = (name: string, value?: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set(name, value); else next.delete(name)
    setParams(next)
  }
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.notifications')}</PageTitle>
      <Space wrap>
        <Select
          allowClear placeholder={t('notifications.status')} aria-label={t('notifications.status')} style={{ width: 200 }} value={status} onChange={(v) => filter('status', v)}
          options={(['pending', 'sent', 'failed'] as const).map((s) => ({ value: s, label: `${t(`notifications.statuses.${s}`)}${first ? ` (${format.number(first.counts[s])})` : ''}` }))}
        />
        <Select
          allowClear placeholder={t('notifications.channel')} aria-label={t('notifications.channel')} style={{ width: 160 }} value={channel} onChange={(v) => filter('channel', v)}
          options={(['email', 'sms'] as const).map((c) => ({ value: c, label: t(`notifications.channels.${c}`) }))}
        />
        {first && (
          <Typography.Text type='secondary'>
            {first.channels.length > 0 ? t('notifications.delivers', { channels: first.channels.map((c) => t(`notifications.channels.${c}`)).join(', ') }) : t('notifications.deliversNone')}
          </Typography.Text>
        )}
      </Space>
      <LoadError query={pages} />
      <Table<Notification>
        rowKey='id' size='small' loading={pages.isLoading} dataSource={pages.data?.pages.flatMap((p) => p.items)} pagination={false} locale={{ emptyText: t('notifications.empty') }}
        expandable={{ expandedRowRender: (n) => <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{n.subject ? <strong>{n.subject}<br /></strong> : null}{n.body}</Typography.Paragraph> }}
        columns={[
          { title: t('notifications.created'), dataIndex: 'created_at', width: 190, render: (v: string) => format.dateTime(v) },
          { title: t('notifications.channel'), dataIndex: 'channel', width: 110, render: (c: Channel) => t(`notifications.channels.${c}`) },
          { title: t('notifications.kind'), dataIndex: 'kind', width: 160, render: (k: string) => t(`notifications.kinds.${k}`) },
          { title: t('notifications.recipient'), dataIndex: 'recipient' },
          { title: t('notifications.appeal'), dataIndex: 'appeal_id', width: 100, render: (id: number | null) => (id ? <Link to={`/appeals/${id}`}>{id}</Link> : '—') },
          {
            title: t('notifications.status'), key: 'status', width: 200, render: (_, n) => (
              <Space>
                <Tooltip title={n.last_error ?? undefined}><Tag color={STATUS_COLOR[n.status]}>{t(`notifications.statuses.${n.status}`)}</Tag></Tooltip>
                {n.attempts > 1 && <Typography.Text type='secondary'>×{n.attempts}</Typography.Text>}
                {n.status === 'failed' && <Button size='small' loading={retry.isPending && retry.variables?.id === n.id} onClick={() => retry.mutate(n)}>{t('organizations.retry')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      {pages.hasNextPage && <Button onClick={() => { void pages.fetchNextPage() }} loading={pages.isFetchingNextPage}>{t('notifications.more')}</Button>}
    </Space>
  )
}
