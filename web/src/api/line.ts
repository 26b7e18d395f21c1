import { saveExport } from './appeals'
import { api } from './client'
import { keys } from './keys'
import { load } from './load'

// The line as Asterisk's events tell it (/api/line-calls): the live board's queues, callers and agents.

export const lineBoardQuery = { queryKey: keys.board.line, queryFn: () => load(api.GET('/api/line-calls/board')) }

/** a report of the line over a period as a file: its calls, or the queue figures by day, queue, interval or operator */
export type LineReport = 'calls' | 'day' | 'queue' | 'interval' | 'operator' | 'line' | 'line_day' | 'line_interval'
export async function downloadLineReport (report: LineReport, period: { date_from: string, date_to: string }, format: 'xlsx' | 'csv', lang: 'kk' | 'ru') {
  if (report === 'calls') return saveExport(await api.GET('/api/line-calls/export', { params: { query: { ...period, format, lang } }, parseAs: 'blob' }), `line-calls.${format}`)
  return saveExport(await api.GET('/api/line-calls/kpis/export', { params: { query: { ...period, by: report, format, lang } }, parseAs: 'blob' }), `line-${report}.${format}`)
}
