import { PhoneOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Space, Tag } from 'antd'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem } from '../../api/client'
import { keys } from '../../api/keys'
import { isLive, newerOf, placeCall, type PlacedCall } from '../../api/placedCalls'
import { problemText } from '../../forms/problems'
import { useLiveEvents } from '../../live/live'
import { useNow } from '../../live/use-now'
import { clock } from '../board/LineBoard'

const STATUS_COLORS: Record<PlacedCall['status'], string> = {
  ringing_you: 'gold', ringing_citizen: 'gold', connected: 'green', ended: 'default', no_answer: 'orange', busy: 'orange', failed: 'red',
}

/**
 * "Call" on an appeal or a citizen's card: the user's own phone rings first, then the citizen's.
 * The call's progress comes live (`call.placed`); a refusal is said in words beside the button.
 */
export function CallButton ({ number, appealId }: { number: string, appealId?: number }) {
  const { t } = useTranslation()
  const queries = useQueryClient()
  const [call, setCall] = useState<PlacedCall>()
  const [problem, setProblem] = useState<string>()
  const [placing, setPlacing] = useState(false)
  // the call shown, and the events of a call whose POST is not answered yet (this user's calls),
  // both kept in refs: an event between the answer and the next render is routed by them
  const shownId = useRef<number | undefined>(undefined)
  const early = useRef<Map<number, PlacedCall> | undefined>(undefined)
  useLiveEvents((event) => {
    if (event.type !== 'call.placed') return
    if (event.call.id !== shownId.current) {
      early.current?.set(event.call.id, newerOf(early.current.get(event.call.id), event.call))
      return
    }
    setCall((shown) => newerOf(shown, event.call))
    if (!isLive(event.call) && appealId !== undefined) void queries.invalidateQueries({ queryKey: keys.placedCalls.ofAppeal(appealId) })
  })
  const start = async () => {
    setProblem(undefined)
    setPlacing(true)
    early.current = new Map()
    try {
      const placed = await placeCall({ number, ...(appealId === undefined ? {} : { appeal_id: appealId }) })
      // its events may have come before this answer
      const told = early.current.get(placed.id)
      shownId.current = placed.id
      setCall(told ? newerOf(placed, told) : placed)
    } catch (err) {
      setProblem(problemText(t, err as ApiProblem))
    } finally {
      early.current = undefined
      setPlacing(false)
    }
  }
  const live = call !== undefined && isLive(call)
  return (
    <Space direction='vertical' size={4} data-testid='call-citizen'>
      <Space wrap>
        <Button icon={<PhoneOutlined />} loading={placing} disabled={live} onClick={() => { void start() }} aria-label={t('placedCall.call', { number })}>{t('placedCall.callShort')}</Button>
        {call && <CallProgress call={call} />}
      </Space>
      {problem && <Alert type='error' showIcon message={problem} data-testid='call-problem' />}
    </Space>
  )
}

/** where the call has got to, in words, the talk's time ticking while connected */
function CallProgress ({ call }: { call: PlacedCall }) {
  const { t } = useTranslation()
  const now = useNow(1000)
  const talk = call.status === 'connected' && call.connected_at ? clock((now - Date.parse(call.connected_at)) / 1000) : call.talk_seconds !== null ? clock(call.talk_seconds) : undefined
  const failed = call.failed_side ? t(`placedCall.failed.${call.status}.${call.failed_side}`, { defaultValue: t(`placedCall.status.${call.status}`) }) : undefined
  return (
    <span role='status' aria-live='polite' data-testid='call-progress'>
      <Tag color={STATUS_COLORS[call.status]}>{failed ?? t(`placedCall.status.${call.status}`)}{talk && ` · ${talk}`}</Tag>
    </span>
  )
}
