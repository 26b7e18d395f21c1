import { useQuery } from '@tanstack/react-query'
import { AutoComplete, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { onlineOperatorsQuery } from '../../api/calls'
import { useSession } from '../../session/session'

/** a terminal's extension: its id is the organization's prefix and the extension's three digits */
const extensionOf = (terminal: string) => terminal.slice(-3)

/**
 * A colleague to pass the call to, by name or by extension: the operators of the user's organization
 * online now (console open or phone registered) offered with whether they are free; any three digits
 * may still be typed (a colleague whose phone is not online is rung all the same).
 */
export function ColleagueField ({ value, onChange }: { value?: string, onChange?: (value: string) => void }) {
  const { t } = useTranslation()
  const { user } = useSession()
  const online = useQuery(onlineOperatorsQuery)
  const options = (online.data ?? [])
    .filter((o) => o.organization_id === user?.organization_id && o.employee_id !== user?.id && o.employee_id !== null)
    .map((o) => ({ value: extensionOf(o.operator_num), label: `${o.name} · ${extensionOf(o.operator_num)} · ${t(`board.states.${o.state}`)}` }))
  return (
    <AutoComplete
      value={value} onChange={onChange} options={options} data-testid='colleague-field'
      filterOption={(typed, option) => (option?.label ?? '').toLowerCase().includes(typed.trim().toLowerCase())}
    >
      <Input maxLength={64} autoFocus aria-label={t('transfer.extension')} placeholder={t('transfer.colleagueHint')} />
    </AutoComplete>
  )
}
