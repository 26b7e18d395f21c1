import { Alert, Button, Card, DatePicker, Form, Select } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { downloadLineReport, type LineReport } from '../../api/line'
import { centreToday } from '../../i18n/centre-time'

/** the service answers at most this many days at once */
const MAX_DAYS = 31
const REPORTS: LineReport[] = ['calls', 'day', 'queue', 'interval', 'operator', 'line', 'line_day', 'line_interval']
const day = (d: Dayjs) => d.format('YYYY-MM-DD')

/** the line's reports over a period as files: its calls, the queue figures by day, queue, half hour or operator, the lines' own by line, day or half hour */
export function LineReports () {
  const { t, i18n } = useTranslation()
  // the centre's today, not the browser's: the service counts days in the centre's zone
  const [period, setPeriod] = useState<[Dayjs, Dayjs]>(() => [dayjs(centreToday()), dayjs(centreToday())])
  const [report, setReport] = useState<LineReport>('calls')
  const [format, setFormat] = useState<'xlsx' | 'csv'>('xlsx')
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  const [picking, setPicking] = useState<Dayjs | null>(null)

  async function download () {
    setBusy(true)
    setFailed(false)
    try {
      await downloadLineReport(report, { date_from: day(period[0]), date_to: day(period[1]) }, format, i18n.language === 'kk' ? 'kk' : 'ru')
    } catch {
      setFailed(true)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card size='small' title={t('line.reports')} data-testid='line-reports'>
      <Form layout='inline' onFinish={() => { void download() }}>
        <Form.Item label={t('line.reportPeriod')}>
          <DatePicker.RangePicker
            value={period} allowClear={false} aria-label={t('line.reportPeriod')}
            onCalendarChange={(v) => setPicking(v?.[0] ?? null)}
            onChange={(v) => { if (v?.[0] && v[1]) setPeriod([v[0], v[1]]) }}
            // a period the service would refuse cannot be picked: at most 31 days
            disabledDate={(d) => picking !== null && Math.abs(d.diff(picking, 'day')) >= MAX_DAYS}
          />
        </Form.Item>
        <Form.Item>
          <Select<LineReport>
            value={report} onChange={setReport} style={{ width: 230 }} aria-label={t('line.reports')} data-testid='line-report-kind'
            options={REPORTS.map((r) => ({ value: r, label: r === 'calls' ? t('line.reportCalls') : t(`line.reportBy.${r}`) }))}
          />
        </Form.Item>
        <Form.Item>
          <Select value={format} onChange={setFormat} style={{ width: 90 }} options={[{ value: 'xlsx', label: 'XLSX' }, { value: 'csv', label: 'CSV' }]} aria-label={t('line.format')} />
        </Form.Item>
        <Form.Item>
          <Button type='primary' htmlType='submit' loading={busy} data-testid='line-report-download'>{t('line.download')}</Button>
        </Form.Item>
      </Form>
      {failed && <Alert type='error' showIcon style={{ marginTop: 8 }} message={t('line.reportFailed')} />}
    </Card>
  )
}
