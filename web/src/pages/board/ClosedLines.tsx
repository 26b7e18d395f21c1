import { useQuery } from '@tanstack/react-query'
import { Alert } from 'antd'
import { useTranslation } from 'react-i18next'
import { closedLinesQuery } from '../../api/lineSwitch'
import { useFormat } from '../../i18n/format'

/** the lines closed at the switch now, said at the top of the board: callers of those lines hear the closing's announcement */
export function ClosedLines () {
  const { t } = useTranslation()
  const format = useFormat()
  const closed = useQuery(closedLinesQuery).data ?? []
  if (closed.length === 0) return null
  return (
    <Alert
      type='error' showIcon data-testid='closed-lines' message={t('lineSwitch.boardTitle', { count: closed.length })}
      description={closed.map((l) => (
        <div key={l.line_id}>
          {t('lineSwitch.boardLine', {
            number: l.number, name: l.name, reason: l.reason ?? '',
            until: l.until ? t('lineSwitch.closedUntil', { until: format.dateTime(l.until) }) : t('lineSwitch.closedUntilOpened'),
          })}
          {l.by && ` (${l.by.name})`}
        </div>
      ))}
    />
  )
}
