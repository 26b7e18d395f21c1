import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Segmented, Select, Space, Tag, Tooltip } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { breakReasonsQuery, chooseState, myStateQuery, reasonName } from '../../api/agents'
import type { ApiProblem } from '../../api/client'
import { keys } from '../../api/keys'
import { problemText } from '../../forms/problems'

// the line board's colours and words for the same states (pages/board/LineBoard.tsx)
const COLOR: Record<string, string> = { ready: 'green', ringing: 'gold', on_call: 'red', wrap_up: 'blue', break: 'orange', offline: 'default', unknown: 'default', no_terminal: 'default', not_in_queue: 'default' }
const WORD = { ready: 'ready', ringing: 'ringing', on_call: 'onCall', wrap_up: 'wrapUp', break: 'break', offline: 'offline', unknown: 'unknown', no_terminal: 'noTerminal', not_in_queue: 'notInQueue' } as const
/** the states an unpaused terminal is in: the operator chose ready */
const AVAILABLE = new Set(['ready', 'ringing', 'on_call', 'wrap_up'])

/** the operator's availability: ready, or a break with its reason; what Asterisk says is shown beside it */
export function AgentSwitch () {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const queries = useQueryClient()
  const agent = useQuery(myStateQuery)
  const reasons = useQuery(breakReasonsQuery)
  const [reason, setReason] = useState<string>('break')
  const choose = useMutation({
    mutationFn: chooseState,
    onSuccess: (state) => queries.setQueryData(keys.agent.me, state),
    onError: (problem: ApiProblem) => { void message.error(problemText(t, problem)); void agent.refetch() },
  })
  const a = agent.data
  if (!a || a.state === 'no_terminal') return null
  // Asterisk's state when it has one; otherwise the operator's last choice, which it gets back later
  const chosen = AVAILABLE.has(a.state) ? 'ready' : a.state === 'break' ? 'break' : a.chosen?.state === 'break' ? 'break' : 'ready'
  // a reason not on the administrator's list is a pause made on the PBX
  const named = a.state === 'break' && a.reason ? reasonName(reasons.data, a.reason, i18n.language) : undefined
  const shown = a.state === 'break' && a.reason ? named ?? t('agent.supervisorPause', { reason: a.reason }) : t(`agent.${WORD[a.state]}`)
  const pbx = a.pbx === 'unreachable' ? t('agent.pbxDown') : a.pbx === 'not_configured' ? t('agent.pbxNone') : undefined
  return (
    <Space data-testid='agent-state' wrap>
      <Segmented
        aria-label={t('agent.state')} value={chosen} disabled={choose.isPending}
        options={[{ value: 'ready', label: t('agent.ready') }, { value: 'break', label: t('agent.break') }]}
        onChange={(v) => choose.mutate(v === 'ready' ? { state: 'ready' } : { state: 'break', reason })}
      />
      {chosen === 'break' && (
        <Select
          aria-label={t('agent.reason')} value={reason} style={{ width: 150 }} disabled={choose.isPending}
          options={(reasons.data ?? []).map((r) => ({ value: r.code, label: reasonName(reasons.data, r.code, i18n.language) }))}
          onChange={(r) => { setReason(r); choose.mutate({ state: 'break', reason: r }) }}
        />
      )}
      <Tooltip title={pbx}>
        <Tag color={COLOR[a.state]} style={{ fontSize: 14, padding: '2px 10px' }}>{pbx ?? shown}</Tag>
      </Tooltip>
    </Space>
  )
}
