import { Alert, Badge, Button, Card, Col, Empty, Result, Row, Space, Tag, Typography } from 'antd'
import { Link } from 'react-router'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { currentCall } from '../../api/calls'
import type { Schemas } from '../../api/client'
import { newerOf } from '../../api/placedCalls'
import { useLiveEvents, useLiveStatus, type LiveEvent } from '../../live/live'
import { useWorkplace } from '../../session/workplace'
import { AgentSwitch } from './AgentSwitch'
import { AppealForm } from './AppealForm'
import { Assistant, type Suggestion } from './Assistant'
import { answeredCall, currentDeskCall, refreshedCall, withChunk, type DeskCall } from './call'
import { CallerCard } from './CallerCard'
import { Transcript } from './Transcript'
import { TransferCall } from './TransferCall'

/**
 * The operator's desk: an answered call pops the caller, the transcript streams in as it is spoken,
 * the LLM helps, and the appeal is registered from the call with one action.
 */
export function Desk () {
  const { t } = useTranslation()
  const [call, setCall] = useState<DeskCall | null>(null)
  const [suggestion, setSuggestion] = useState<Suggestion>({})
  const workplace = useWorkplace()

  // a reload in the middle of a call finds it again, with its caller
  useEffect(() => {
    let cancelled = false
    currentCall().then((told) => {
      if (!cancelled && told) setCall((current) => current ?? currentDeskCall(told))
    }, () => {})
    return () => { cancelled = true }
  }, [])

  const [callback, setCallback] = useState<Schemas['PlacedCall']>()

  /** an appeal registered from the call: its citizen is the caller now, as the service confirms */
  const registered = (appeal: Schemas['AppealResponse']) => {
    setSuggestion({})
    if (appeal.person_id !== null) {
      const person = { id: appeal.person_id, full_name: appeal.citizen_name, iin_masked: null }
      setCall((current) => current && current.id === appeal.call_row_id && !current.person ? { ...current, person } : current)
    }
    currentCall().then((told) => {
      if (told) setCall((current) => current && refreshedCall(current, currentDeskCall(told)))
    }, () => {})
  }

  useLiveEvents((event: LiveEvent) => {
    // a callback the service places through this operator: whom, and how far it has got
    if (event.type === 'call.placed' && event.call.kind === 'callback') setCallback((shown) => newerOf(shown, event.call))
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

  // an executor's staff (or a link followed) reach the desk: they register nothing, their work is elsewhere
  if (workplace.data && !workplace.data.registers) {
    return <Result status='info' title={t('desk.notCentre')} subTitle={t('desk.notCentreHint')} extra={<Link to='/appeals'><Button type='primary'>{t('desk.toAppeals')}</Button></Link>} />
  }

  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Space align='center' wrap>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('desk.title')}</Typography.Title>
        <Presence onCall={call !== null && !call.final} />
        {call !== null && !call.final && <TransferCall />}
        <AgentSwitch />
      </Space>
      {callback && (
        <Alert
          type={callback.status === 'connected' || callback.status === 'ended' ? 'success' : callback.failed_side ? 'warning' : 'info'} showIcon data-testid='desk-callback'
          message={t('placedCall.callbackTo', { number: callback.number })}
          description={callback.failed_side ? t(`placedCall.failed.${callback.status}.${callback.failed_side}`, { defaultValue: t(`placedCall.status.${callback.status}`) }) : t(`placedCall.status.${callback.status}`)}
          closable onClose={() => setCallback(undefined)}
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <Space direction='vertical' size='middle' style={{ width: '100%' }}>
            {call ? <CallerCard call={call} /> : <Card><Empty description={t('desk.waiting')} /></Card>}
            {call && <Transcript call={call} />}
            <Assistant key={call?.id ?? 'none'} call={call} onSuggestion={(s) => setSuggestion((prev) => ({ ...prev, ...s }))} />
          </Space>
        </Col>
        <Col xs={24} xl={14}>
          <AppealForm call={call} suggestion={suggestion} onRegistered={registered} />
        </Col>
      </Row>
    </Space>
  )
}

function Presence ({ onCall }: { onCall: boolean }) {
  const { t } = useTranslation()
  const status = useLiveStatus()
  if (status !== 'open') return <Badge status={status === 'connecting' ? 'processing' : 'error'} text={t(`desk.presence.${status}`)} data-testid='presence' data-live={status} />
  // connected and free: the availability switch beside it says the operator's state (ready, break...), once
  if (!onCall) return <span data-testid='presence' data-live='open' />
  return (
    <Tag color='red' data-testid='presence' data-live='open' style={{ fontSize: 14, padding: '2px 10px' }}>
      {t('desk.presence.onCall')}
    </Tag>
  )
}
