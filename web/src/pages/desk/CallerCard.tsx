import { useQuery } from '@tanstack/react-query'
import { Alert, Card, Descriptions, List, Skeleton, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { callerAppealsQuery } from '../../api/appeals'
import { useFormat } from '../../i18n/format'
import { StatusTag } from '../appeals/StatusTag'
import type { DeskCall } from './call'
import { useNow } from '../../live/use-now'

/** DESIGN 7.1: an appeal of the same citizen within 30 days may be a repeat */
const REPEAT_WINDOW_MS = 30 * 24 * 60 * 60_000

/** who is calling: the phone, the matched person with the masked IIN, their previous appeals */
export function CallerCard ({ call }: { call: DeskCall }) {
  const { t } = useTranslation()
  const format = useFormat()
  const now = useNow()
  const query = call.person ? { person_id: call.person.id } : call.phone ? { phone: call.phone } : undefined
  const previous = useQuery({ ...callerAppealsQuery(query ?? {}), enabled: query !== undefined })
  // an appeal registered from this very call is no repeat of it
  const recent = previous.data?.items.filter((a) => a.call_row_id !== call.id && now - new Date(a.received_at).getTime() < REPEAT_WINDOW_MS) ?? []
  return (
    <Card size='small' title={t('desk.caller')} data-testid='caller'>
      <Descriptions column={1} size='small'>
        <Descriptions.Item label={t('desk.phone')}>{call.phone ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('desk.person')}>
          {call.person ? `${call.person.full_name}${call.person.iin_masked ? ` · ${t('desk.iin')} ${call.person.iin_masked}` : ''}` : t('desk.unknownCaller')}
        </Descriptions.Item>
        <Descriptions.Item label={t('desk.previousCalls')}>{format.number(call.previousCalls)}</Descriptions.Item>
      </Descriptions>
      {recent.length > 0 && <Alert type='warning' showIcon message={t('desk.repeat', { count: recent.length })} style={{ marginBottom: 8 }} />}
      {previous.isLoading && <Skeleton active paragraph={{ rows: 2 }} />}
      {previous.isError && <Alert type='error' message={t('desk.previousFailed')} />}
      {previous.data && previous.data.items.length > 0 && (
        <List
          size='small' header={t('desk.previousAppeals')} dataSource={previous.data.items}
          renderItem={(a) => (
            <List.Item>
              <Link to={`/appeals/${a.id}`}>{a.number}</Link> · {format.date(a.received_at)} <StatusTag status={a.status} />
              {a.is_overdue && <Tag color='red'>{t('appeals.overdue')}</Tag>}
            </List.Item>
          )}
        />
      )}
    </Card>
  )
}
