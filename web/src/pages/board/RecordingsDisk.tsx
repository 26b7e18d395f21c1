import { useQuery } from '@tanstack/react-query'
import { Alert, Card, Col, Row, Statistic } from 'antd'
import { useTranslation } from 'react-i18next'
import { recordingUsageQuery } from '../../api/recordings'
import { useFormat } from '../../i18n/format'

/** the disk the calls' recordings take, what arrives a day, and how long the room left lasts at that pace */
export function RecordingsDisk () {
  const { t } = useTranslation()
  const format = useFormat()
  const usage = useQuery({ ...recordingUsageQuery, refetchInterval: 5 * 60_000 })
  const units = t('disk.units', { returnObjects: true }) as string[]
  const size = (bytes: number) => {
    let value = bytes
    let unit = 0
    while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++ }
    return `${format.number(Math.round(value * 10) / 10)} ${units[unit]}`
  }
  const u = usage.data
  const left = !u ? '—' : u.max_bytes === null ? t('disk.noLimit') : u.days_left === null ? t('disk.unknown') : u.days_left === 0 ? t('disk.full') : t('disk.days', { count: u.days_left })
  return (
    <Card size='small' title={t('disk.title')} loading={usage.isLoading} data-testid='recordings-disk'>
      {usage.isError && <Alert type='error' message={t('common.networkError')} />}
      {u && (
        <Row gutter={[16, 16]}>
          <Col xs={12} md={6}><Statistic title={t('disk.taken')} value={size(u.bytes)} /></Col>
          <Col xs={12} md={6}><Statistic title={t('disk.today')} value={size(u.today_bytes)} /></Col>
          <Col xs={12} md={6}><Statistic title={t('disk.daily')} value={size(u.daily_bytes)} /></Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('disk.daysLeft')} value={left} data-testid='disk-days-left'
              // a limit not set, or no pace yet, is said in words: smaller than a figure
              valueStyle={{ ...(u.days_left === null ? { fontSize: 16 } : {}), ...(u.days_left !== null && u.days_left < 30 ? { color: '#cf1322' } : {}) }}
            />
          </Col>
        </Row>
      )}
    </Card>
  )
}
