import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'

const COLORS: Record<string, string> = { registered: 'default', assigned: 'blue', in_work: 'processing', answered: 'gold', closed: 'green', rejected: 'red' }

export function StatusTag ({ status }: { status: string }) {
  const { t } = useTranslation()
  return <Tag color={COLORS[status]}>{t(`appeals.statuses.${status}`)}</Tag>
}
