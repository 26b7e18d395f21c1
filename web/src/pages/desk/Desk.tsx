import { Badge, Card, Col, Empty, Row, Space, Tag, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { callDetail, latestCall } from '../../api/calls'
import { useLiveEvents, useLiveStatus, type LiveEvent } from '../../live/live'
import { AgentSwitch } from './AgentSwitch'
import { AppealForm } from './AppealForm'
import { Assistant, type Suggestion } from './Assistant'
import { answeredCall, recordedCall, withChunk, type DeskCall } from './call'
import { CallerCard } from './CallerCard'
import { Transcript } from './Transcript'

/** a call left open this long ago is not restored on a reload */
const RESTORE_WITHIN_MS = 2 * 60 * 60_000

/**
 * The operator's desk: an answered call pops the caller, the transcript streams in as it is spoken,
 * the LLM helps, and the appeal is registered from the call with one action.
 */
export function Desk () {
  const { t } = useTranslation()
  const [call, setCall] = useState<DeskCall | null>(null)
  const [suggestion, setSuggestion] = useState<Suggestion>({})

  // a reload in the middle of a call finds it again
  useEffect(() => {
    let cancelled = false
    void (async () => {
      const last = await latestCall().catch(() => undefined)
      if (!last || last.is_final || Date.now() - new Date(last.answered_at ?? last.created_at).getTime() > RESTORE_WITHIN_MS) return
      const detail = last.call_id ? await callDetail(last.call_id).catch(() => undefined) : undefined
      if (!cancelled) setCall((current) => current ?? recordedCall(detail ?? { ...last, transcript: '', chunks: [] }))
    })()
    return () => { cancelled = true }
  }, [])

  useLiveEvents((event: LiveEvent) => {
    if (event.type === 'call.answered') {
      setCall(answeredCall(event))
      // a call of the line was taken in the language the caller chose in its menu
      setSuggestion(event.language ? { language: event.language } : {})
    } else if (event.type === 'call.transcription' || event.type === 'call.final') {
      setCall((current) => {
        if (current && current.id === event.call_row_id) return withChunk(current, event)
        // a transcript of a call whose answer this console did not see
        if (!current || current.final) {
          return withChunk({ id: event.call_row_id, callId: event.call_id, phone: null, person: null, previousCalls: 0, answeredAt: null, chunks: [], final: false }, event)
        }
        return current
      })
    }
  })

  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Space align='center' wrap>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('desk.title')}</Typography.Title>
        <Presence onCall={call !== null && !call.final} />
        <AgentSwitch />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <Space direction='vertical' size='middle' style={{ width: '100%' }}>
            {call ? <CallerCard call={call} /> : <Card><Empty description={t('desk.waiting')} /></Card>}
            {call && <Transcript call={call} />}
            <Assistant key={call?.id ?? 'none'} call={call} onSuggestion={(s) => setSuggestion((prev) => ({ ...prev, ...s }))} />
          </Space>
        </Col>
        <Col xs={24} xl={14}>
          <AppealForm call={call} suggestion={suggestion} onRegistered={() => setSuggestion({})} />
        </Col>
      </Row>
    </Space>
  )
}

function Presence ({ onCall }: { onCall: boolean }) {
  const { t } = useTranslation()
  const status = useLiveStatus()
  if (status !== 'open') return <Badge status={status === 'connecting' ? 'processing' : 'error'} text={t(`desk.presence.${status}`)} data-testid='presence' />
  return (
    <Tag color={onCall ? 'red' : 'green'} data-testid='presence' style={{ fontSize: 14, padding: '2px 10px' }}>
      {t(onCall ? 'desk.presence.onCall' : 'desk.presence.online')}
    </Tag>
  )
}
