import { BarElement, CategoryScale, Chart, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js'
import { Bar, Line } from 'react-chartjs-2'
import type { Schemas } from '../../api/client'
import type { LocalName } from '../../references/references'

// Chart.js is registered once, with only the parts the board draws (it tree-shakes the rest).
Chart.register(CategoryScale, LinearScale, BarElement, LineElement, PointElement, Tooltip, Legend)

const BLUE = '#1454a0'
const GREEN = '#389e0d'
const RED = '#cf1322'

export function ByDayChart ({ days, labels }: { days: Schemas['AppealStats']['by_day'], labels: { received: string, closed: string, day: (d: string) => string } }) {
  return (
    <Line
      aria-label={labels.received}
      data={{
        labels: days.map((d) => labels.day(d.day)),
        datasets: [
          { label: labels.received, data: days.map((d) => d.received), borderColor: BLUE, backgroundColor: BLUE, tension: 0.2 },
          { label: labels.closed, data: days.map((d) => d.closed), borderColor: GREEN, backgroundColor: GREEN, tension: 0.2 },
        ],
      }}
      options={{ responsive: true, maintainAspectRatio: false, animation: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }}
    />
  )
}

/** received and overdue per group (region, executor, classification), the most received first */
export function GroupsChart ({ groups, labels, name }: { groups: Schemas['AppealStatsGroup'][], labels: { received: string, overdue: string, none: string }, name?: LocalName }) {
  const top = groups.slice(0, 12)
  const nameOf = (g: Schemas['AppealStatsGroup']) => (g.id === null || g.name === null ? labels.none : name ? name({ id: g.id, name: g.name }) : g.name)
  return (
    <Bar
      aria-label={labels.received}
      data={{
        labels: top.map((g) => shorten(nameOf(g))),
        datasets: [
          { label: labels.received, data: top.map((g) => g.received), backgroundColor: BLUE },
          { label: labels.overdue, data: top.map((g) => g.overdue), backgroundColor: RED },
        ],
      }}
      options={{ indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }}
    />
  )
}

const shorten = (s: string) => (s.length > 32 ? `${s.slice(0, 31)}…` : s)
