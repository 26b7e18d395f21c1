import { Card, Empty, Tag, Typography } from 'antd'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { DeskCall } from './call'

/** the transcript as it is spoken, newest at the bottom and kept in view */
export function Transcript ({ call }: { call: DeskCall }) {
  const { t } = useTranslation()
  const end = useRef<HTMLDivElement>(null)
  useEffect(() => { end.current?.scrollIntoView({ block: 'nearest' }) }, [call.chunks.length])
  return (
    <Card
      size='small' title={t('desk.transcript')}
      extra={call.final ? <Tag>{t('desk.callEnded')}</Tag> : <Tag color='processing'>{t('desk.live')}</Tag>}
    >
      <div role='log' aria-live='polite' aria-label={t('desk.transcript')} data-testid='transcript' style={{ maxHeight: 280, overflowY: 'auto' }}>
        {call.chunks.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('desk.noTranscript')} />}
        {call.chunks.map((c) => (
          <p key={c.seq} style={{ margin: '4px 0' }}>
            <Typography.Text type='secondary'>{t(`desk.channels.${c.channel}`, { defaultValue: c.channel })}: </Typography.Text>
            {c.text}
          </p>
        ))}
        <div ref={end} />
      </div>
    </Card>
  )
}
