import { useQuery } from '@tanstack/react-query'
import { Card, Empty, List, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { latestCallsQuery } from '../../api/calls'
import { useFormat } from '../../i18n/format'
import { useLiveEvents } from '../../live/live'
import { useNow } from '../../live/use-now'

interface Line { seq: number, channel: string, text: string }
const RECENT_MS = 2 * 60 * 60_000
const LINES_SHOWN = 4

/** calls in progress, each with the last lines of its transcript as they are spoken */
export function LiveCalls () {
  const { t } = useTranslation()
  const now = useNow()
  const format = useFormat()
  const [lines, setLines] = useState<Map<number, Line[]>>(new Map())
  const calls = useQuery({ ...latestCallsQuery, refetchInterval: 60_000 })
  useLiveEvents((event) => {
    // a call of the line ends with the caller's hang-up (line.changed), before its transcript closes
    if (event.type === 'call.answered' || event.type === 'call.final' || event.type === 'line.changed') void calls.refetch()
    if (event.type !== 'call.transcription' && event.type !== 'call.final') return
    const id = event.call_row_id
    setLines((current) => {
      const next = new Map(current)
      const mine = [...(next.get(id) ?? []), { seq: event.seq, channel: event.channel, text: event.chunk_text }]
      next.set(id, mine.sort((a, b) => a.seq - b.seq).slice(-LINES_SHOWN))
      return next
    })
  })
  const open = (calls.data ?? []).filter((c) => !c.is_final && c.hung_up_at === null && now - new Date(c.answered_at ?? c.created_at).getTime() < RECENT_MS)
  return (
    <Card size='small' title={t('board.calls')} loading={calls.isLoading} data-testid='live-calls'>
      {open.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('board.noCalls')} />}
      {open.length > 0 && <List
        size='small' dataSource={open}
        renderItem={(c) => (
          <List.Item>
            <div style={{ width: '100%' }}>
              <Tag color='red'>{c.operator_num}</Tag> {c.caller_phone ?? '—'} <Typography.Text type='secondary'>{format.time(c.answered_at ?? c.created_at)}</Typography.Text>
              {(lines.get(c.id) ?? []).map((l) => (
                <div key={l.seq} style={{ fontSize: 13 }}><Typography.Text type='secondary'>{t(`desk.channels.${l.channel}`, { defaultValue: l.channel })}: </Typography.Text>{l.text}</div>
              ))}
            </div>
          </List.Item>
        )}
                          />}
    </Card>
  )
}
