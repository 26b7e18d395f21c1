import { BarElement, CategoryScale, Chart, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js'
import { Bar, Line } from 'react-chartjs-2'
import type { Schemas } from '../../api/client'
import type { LocalName } from '../../references/references'

// Chart.js is registered once, with only the parts the board draws (it tree-shakes the rest).
Chart.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, Tooltip, Legend)

const BLUE = '#1454a0'
const GREEN = '#389e0d'
const RED = '#cf1322'

export function ByDayChart ({ days, labels }: { days: Schemas['AppealStats']['by_day'], labels: { title: string, received: string, closed: string, day: (d: string) => string } }) {
  const rows = days.map((d) => ({ key: d.day, name: labels.day(d.day), values: [d.received, d.closed] }))
  return (
    <Line
      aria-label={labels.title}
      fallbackContent={<ChartTable caption={labels.title} columns={[labels.received, labels.closed]} rows={rows} />}
      data={{
        labels: rows.map((r) => r.name),
        datasets: [
          { label: labels.received, data: rows.map((r) => r.values[0]!), borderColor: BLUE, backgroundColor: BLUE, tension: 0.2 },
          { label: labels.closed, data: rows.map((r) => r.values[1]!), borderColor: GREEN, backgroundColor: GREEN, tension: 0.2 },
        ],
      }}
      options={{ responsive: true, maintainAspectRatio: false, animation: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }}
    />
  )
}

/** received and overdue per group (region, executor, classification), the most received first */
export function GroupsChart ({ groups, labels, name }: { groups: Schemas['AppealStatsGroup'][], labels: { title: string, received: string, overdue: string, none: string }, name?: LocalName }) {
  const nameOf = (g: Schemas['AppealStatsGroup']) => (g.id === null || g.name === null ? labels.none : name ? name({ id: g.id, name: g.name }) : g.name)
  const rows = groups.slice(0, 12).map((g) => ({ key: String(g.id), name: nameOf(g), values: [g.received, g.overdue] }))
  return (
    <Bar
      aria-label={labels.title}
      fallbackContent={<ChartTable caption={labels.title} columns={[labels.received, labels.overdue]} rows={rows} />}
      data={{
        labels: rows.map((r) => shorten(r.name)),
        datasets: [
          { label: labels.received, data: rows.map((r) => r.values[0]!), backgroundColor: BLUE },
          { label: labels.overdue, data: rows.map((r) => r.values[1]!), backgroundColor: RED },
        ],
      }}
      options={{ indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }}
    />
  )
}

interface ChartRow { key: string, name: string, values: number[] }

/** a chart's figures as a table inside its canvas: what a screen reader reads, the names whole */
function ChartTable ({ caption, columns, rows }: { caption: string, columns: string[], rows: ChartRow[] }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead><tr><th scope='col' />{columns.map((c) => <th scope='col' key={c}>{c}</th>)}</tr></thead>
      <tbody>{rows.map((r) => <tr key={r.key}><th scope='row'>{r.name}</th>{r.values.map((v, i) => <td key={i}>{v}</td>)}</tr>)}</tbody>
    </table>
  )
}

const shorten = (s: string) => (s.length > 32 ? `${s.slice(0, 31)}…` : s)
