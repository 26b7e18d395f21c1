// The queue figures from their sums (kpis.ts): each a formula of "Queue figures" in docs/telephony.md.
import type { LocalPeriod } from '../calendar/index.js'
import type { KpiGroupRow, KpiSums, LineGroupRow, LineSums, OperatorRow, StateTimeRow } from './kpis.js'
import type { LineKpis } from './schemas.js'
import { terminalOfMember } from '../../integrations/asterisk/names.js'

/** the longest period asked at once: its intervals are 48 a day */
export const MAX_KPI_DAYS = 31
const INTERVAL_MS = 30 * 60_000
const DAY_MS = 24 * 3600_000

const tenth = (x: number) => Math.round(x * 10) / 10
/** a share in percent to 0.1, as Asterisk writes its ServicelevelPerf */
const percent = (part: number, whole: number) => whole === 0 ? null : tenth(100 * part / whole)
const average = (sum: number | null, n: number) => n === 0 || sum === null ? null : tenth(sum / n)
/** the citizens' scores: how many, their average (to 0.01) and the share of the answered calls scored */
const ratingsOf = (rated: number, sum: number, answered: number) => ({
  ratings: rated,
  average_rating: rated === 0 ? null : Math.round(100 * sum / rated) / 100,
  rated_share: percent(rated, answered),
})

export function figuresOf (s: KpiSums) {
  const leftWaiting = s.abandoned + s.short_abandoned + s.timed_out
  return {
    offered: s.offered,
    answered: s.answered,
    abandoned: s.abandoned,
    short_abandoned: s.short_abandoned,
    timed_out: s.timed_out,
    answered_within_service_level: s.answered_in_sl,
    service_level: percent(s.answered_in_sl, s.answered),
    service_level_with_abandoned: percent(s.answered_in_sl + s.abandoned_in_sl, s.answered + leftWaiting),
    average_speed_of_answer: average(s.hold_sum, s.answered),
    average_talk: average(s.talk_sum, s.completed),
    average_handling: average(s.handling_sum, s.completed),
    longest_hold: s.longest_hold,
    ...ratingsOf(s.rated, s.rating_sum, s.answered),
  }
}

export const NO_CALLS: KpiSums = {
  offered: 0, answered: 0, abandoned: 0, short_abandoned: 0, timed_out: 0, answered_in_sl: 0, abandoned_in_sl: 0, completed: 0,
  hold_sum: null, talk_sum: null, handling_sum: null, longest_hold: null, rated: 0, rating_sum: 0,
}

/** the grouping sets' rows as the answer's breakdowns: every interval and day of the period, empty ones too */
export function kpiBreakdowns (period: LocalPeriod, rows: KpiGroupRow[], waiting: { queue: string, waiting: number, longest_since: Date }[], now: Date): Pick<LineKpis, 'totals' | 'queues' | 'intervals' | 'days'> {
  const totals = rows.find((r) => r.queue === null && r.slot === null && r.day === null) ?? NO_CALLS
  const byQueue = new Map(rows.filter((r) => r.queue !== null).map((r) => [r.queue!, r]))
  const bySlot = new Map(rows.filter((r) => r.slot !== null).map((r) => [new Date(r.slot!).getTime(), r]))
  const byDay = new Map(rows.filter((r) => r.day !== null).map((r) => [r.day!, r]))
  const waitingIn = new Map(waiting.map((w) => [w.queue, w]))
  const queues = [...new Set([...byQueue.keys(), ...waitingIn.keys()])].sort()
  const slots = Math.round((period.end.getTime() - period.start.getTime()) / INTERVAL_MS)
  return {
    totals: figuresOf(totals),
    queues: queues.map((queue) => {
      const w = waitingIn.get(queue)
      return { queue, ...figuresOf(byQueue.get(queue) ?? NO_CALLS), waiting_now: w?.waiting ?? 0, longest_wait_now: w ? Math.max(0, tenth((now.getTime() - new Date(w.longest_since).getTime()) / 1000)) : null }
    }),
    intervals: Array.from({ length: slots }, (_, i) => {
      const start = period.start.getTime() + i * INTERVAL_MS
      return { start: new Date(start).toISOString(), ...figuresOf(bySlot.get(start) ?? NO_CALLS) }
    }),
    days: Array.from({ length: period.days }, (_, i) => {
      const day = new Date(Date.parse(`${period.from}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10)
      return { day, ...figuresOf(byDay.get(day) ?? NO_CALLS) }
    }),
  }
}

const NO_LINE_CALLS: LineSums = { calls: 0, closed: 0, refused: 0, menu_hangup: 0, menu_timeout: 0, menu_invalid: 0, language_ru: 0, language_kk: 0, to_queue: 0 }
const lineSums = ({ line: _line, slot: _slot, day: _day, ...sums }: LineGroupRow): LineSums => sums

/** the line's own figures as the answer's breakdowns: per line, and every interval and day of the period */
export function lineBreakdowns (period: LocalPeriod, rows: LineGroupRow[]): LineKpis['lines'] {
  const totals = rows.find((r) => r.line === null && r.slot === null && r.day === null)
  const bySlot = new Map(rows.filter((r) => r.slot !== null).map((r) => [new Date(r.slot!).getTime(), r]))
  const byDay = new Map(rows.filter((r) => r.day !== null).map((r) => [r.day!, r]))
  const slots = Math.round((period.end.getTime() - period.start.getTime()) / INTERVAL_MS)
  const of = (r: LineGroupRow | undefined) => (r === undefined ? NO_LINE_CALLS : lineSums(r))
  return {
    totals: of(totals),
    lines: rows.filter((r) => r.line !== null).map((r) => ({ line: r.line!, ...lineSums(r) })).sort((a, b) => a.line.localeCompare(b.line)),
    intervals: Array.from({ length: slots }, (_, i) => {
      const start = period.start.getTime() + i * INTERVAL_MS
      return { start: new Date(start).toISOString(), ...of(bySlot.get(start)) }
    }),
    days: Array.from({ length: period.days }, (_, i) => {
      const day = new Date(Date.parse(`${period.from}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10)
      return { day, ...of(byDay.get(day)) }
    }),
  }
}

const NO_STATE_TIME = { ready: 0, ringing: 0, on_call: 0, wrap_up: 0, break: 0, offline: 0 }

/** a member's time in each state, and on break by reason */
function timesOf (rows: StateTimeRow[]) {
  const state_seconds = { ...NO_STATE_TIME }
  const pauses = new Map<string, number>()
  for (const r of rows) {
    state_seconds[r.state] += r.seconds
    if (r.state === 'break') pauses.set(r.reason ?? '', (pauses.get(r.reason ?? '') ?? 0) + r.seconds)
  }
  const busy = state_seconds.on_call + state_seconds.wrap_up
  return {
    state_seconds: Object.fromEntries(Object.entries(state_seconds).map(([k, v]) => [k, tenth(v)])) as typeof state_seconds,
    pauses: [...pauses].map(([reason, seconds]) => ({ reason, seconds: tenth(seconds) })).sort((a, b) => b.seconds - a.seconds || a.reason.localeCompare(b.reason)),
    pause_seconds: tenth(state_seconds.break),
    occupancy: percent(busy, busy + state_seconds.ready + state_seconds.ringing),
  }
}

/**
 * The operators' figures: each member who answered a call in the period or spent time in a state
 * in it, with its calls (talk and wrap-up), its time by state, its pauses by reason and occupancy.
 */
export function operatorsOf (calls: OperatorRow[], times: StateTimeRow[], names: Map<string, string | null>): LineKpis['operators'] {
  const callsOf = new Map(calls.map((r) => [r.interface, r]))
  const timesByMember = new Map<string, StateTimeRow[]>()
  for (const r of times) timesByMember.set(r.interface, [...timesByMember.get(r.interface) ?? [], r])
  return [...new Set([...callsOf.keys(), ...timesByMember.keys()])].sort().map((iface) => {
    const r = callsOf.get(iface) ?? { interface: iface, calls: 0, completed: 0, talk_sum: null, wrapup_sum: null, rated: 0, rating_sum: 0 }
    const terminal = terminalOfMember(iface) ?? null
    const talk = r.talk_sum ?? 0
    const wrapup = r.wrapup_sum ?? 0
    return {
      interface: iface,
      terminal_id: terminal,
      name: terminal === null ? null : names.get(terminal) ?? null,
      calls: r.calls,
      talk_seconds: talk,
      wrapup_seconds: wrapup,
      handling_seconds: talk + wrapup,
      average_handling: average(r.talk_sum === null ? null : talk + wrapup, r.completed),
      ...ratingsOf(r.rated, r.rating_sum, r.calls),
      ...timesOf(timesByMember.get(iface) ?? []),
    }
  })
}
