// The line's queue figures (docs/telephony.md, "Queue figures"), after Asterisk's own definitions so that they can
// be checked against QueueSummary/QueueParams: HoldTime from joining to the answer or the leaving, the
// service level as `ServicelevelPerf` (answered within the queue's `servicelevel` / answered) and
// `ServicelevelPerf2` (answered or abandoned within it / answered and abandoned).
import { eq, inArray, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { selectRows, type AppDb } from '../../db/client.js'
import { lineCallIntervals, lineCallOperatorIntervals, lineCalls, lineEntryIntervals, memberStatePeriods, type memberStateNames } from '../../db/schema/index.js'
import { employeeNames } from '../employees/queries.js'
import { terminalDirectory, terminalIdsOf } from '../endpoints/queries.js'
import { MEMBER_INTERFACE_PREFIX } from '../../integrations/asterisk/names.js'

/** a caller waiting longer than this is not "waiting now": the hang-up was missed (reconciled after a reconnect) */
export const WAITING_AT_MOST_MS = 12 * 3600_000

export interface KpiScope { organizationId?: number, queue?: string, start: Date, end: Date, timeZone: string, shortAbandonSeconds: number }

/** the sums every breakdown is made of, one row per group */
export interface KpiSums {
  offered: number
  answered: number
  abandoned: number
  short_abandoned: number
  timed_out: number
  answered_in_sl: number
  abandoned_in_sl: number
  completed: number
  hold_sum: number | null
  talk_sum: number | null
  handling_sum: number | null
  longest_hold: number | null
  /** answered calls the citizen scored, and the scores' sum */
  rated: number
  rating_sum: number
}

/** a period's sums from its bins (a row a bin, organization, queue and abandoned wait) */
const sums = (short: number) => sql`
    sum(c.offered)::int as offered,
    sum(c.answered)::int as answered,
    coalesce(sum(c.abandoned) filter (where c.abandon_hold >= ${short}), 0)::int as abandoned,
    coalesce(sum(c.abandoned) filter (where c.abandon_hold < ${short}), 0)::int as short_abandoned,
    sum(c.timed_out)::int as timed_out,
    sum(c.answered_in_sl)::int as answered_in_sl,
    sum(c.abandoned_in_sl)::int as abandoned_in_sl,
    sum(c.completed)::int as completed,
    sum(c.hold_sum)::float8 as hold_sum,
    sum(c.talk_sum)::float8 as talk_sum,
    sum(c.handling_sum)::float8 as handling_sum,
    max(c.longest_hold)::float8 as longest_hold,
    sum(c.rated)::int as rated,
    sum(c.rating_sum)::int as rating_sum`

/** the bins of the period (its ends are local midnights: whole bins), of the organization and queue asked */
const inScope = (s: KpiScope) => sql.join([
  sql`c.bin >= ${s.start.toISOString()}::timestamptz and c.bin < ${s.end.toISOString()}::timestamptz`,
  ...(s.organizationId === undefined ? [] : [sql`c.organization_id = ${s.organizationId}`]),
  ...(s.queue === undefined ? [] : [sql`c.queue = ${s.queue}`]),
], sql` and `)

export type KpiGroupRow = KpiSums & { queue: string | null, slot: Date | null, day: string | null }

/** a table of 15-minute bins as `c`, each bin with its 30-minute interval from the period's start (`slot`) and its day in the centre's zone (`day`) */
const binned = (table: PgTable, s: KpiScope) => sql`(
    select i.*, date_bin('30 minutes', i.bin, ${s.start.toISOString()}::timestamptz) as slot,
      to_char(i.bin at time zone ${s.timeZone}, 'YYYY-MM-DD') as day
    from ${table} i
  ) c`

/**
 * The calls that joined a queue in the period, from the sums the triggers keep by 15-minute bin
 * (line_call_intervals): per queue, per 30-minute interval of the centre's day, per day, and in all
 * (a grouping set each; `queue`, `slot` and `day` null where a row is not of that grouping). The
 * intervals are counted from the period's start, a local midnight; a bin lies in one interval and
 * one day whatever the zone, every zone's offset being a multiple of its 15 minutes.
 */
export const queueFigures = (db: AppDb, s: KpiScope) => selectRows<KpiGroupRow>(db, sql`
  select c.queue, c.slot, c.day, ${sums(s.shortAbandonSeconds)}
  from ${binned(lineCallIntervals, s)}
  where ${inScope(s)}
  group by grouping sets ((c.queue), (c.slot), (c.day), ())
  having sum(c.offered) > 0`)

/** the line's own sums (line_entry_intervals), one row per group */
export interface LineSums {
  calls: number
  closed: number
  refused: number
  menu_hangup: number
  menu_timeout: number
  menu_invalid: number
  language_ru: number
  language_kk: number
  to_queue: number
}
export type LineGroupRow = LineSums & { line: string | null, slot: Date | null, day: string | null }

/** the bins of the period of the organization asked (a queue asked for does not narrow the line's figures: a line feeds several) */
const linesInScope = (s: KpiScope) => sql.join([
  sql`c.bin >= ${s.start.toISOString()}::timestamptz and c.bin < ${s.end.toISOString()}::timestamptz`,
  ...(s.organizationId === undefined ? [] : [sql`c.organization_id = ${s.organizationId}`]),
], sql` and `)

/**
 * Every call that entered the inbound context in the period (by its start), from the sums the
 * triggers keep by 15-minute bin: per line, per 30-minute interval, per day, and in all (grouping
 * sets, as queueFigures).
 */
export const lineFigures = (db: AppDb, s: KpiScope) => selectRows<LineGroupRow>(db, sql`
  select c.line, c.slot, c.day, sum(c.calls)::int as calls, sum(c.closed)::int as closed, sum(c.refused)::int as refused,
    sum(c.menu_hangup)::int as menu_hangup, sum(c.menu_timeout)::int as menu_timeout, sum(c.menu_invalid)::int as menu_invalid,
    sum(c.language_ru)::int as language_ru, sum(c.language_kk)::int as language_kk, sum(c.to_queue)::int as to_queue
  from ${binned(lineEntryIntervals, s)}
  where ${linesInScope(s)}
  group by grouping sets ((c.line), (c.slot), (c.day), ())
  having sum(c.calls) > 0`)

/** callers in a queue now, and since when the longest has waited, per queue */
export const waitingNow = (db: AppDb, s: Pick<KpiScope, 'organizationId' | 'queue'>, now: Date) => selectRows<{ queue: string, waiting: number, longest_since: Date }>(db, sql`
  select c.queue, count(*)::int as waiting, min(c.joined_at) as longest_since
  from ${lineCalls} c
  where c.outcome = 'waiting' and c.joined_at > ${new Date(now.getTime() - WAITING_AT_MOST_MS).toISOString()}::timestamptz
    ${s.organizationId === undefined ? sql`` : sql`and c.organization_id = ${s.organizationId}`}
    ${s.queue === undefined ? sql`` : sql`and c.queue = ${s.queue}`}
  group by c.queue`)

export type OperatorRow = { interface: string, calls: number, completed: number, talk_sum: number | null, wrapup_sum: number | null, rated: number, rating_sum: number }

/** per queue member who answered: the calls answered in the period, their talk and wrap-up (from the bins of line_call_operator_intervals) */
export const operatorFigures = (db: AppDb, s: KpiScope) => selectRows<OperatorRow>(db, sql`
  select c.answered_by as interface, sum(c.calls)::int as calls, sum(c.completed)::int as completed,
    case when sum(c.completed) > 0 then sum(c.talk_sum)::float8 end as talk_sum, case when sum(c.completed) > 0 then sum(c.wrapup_sum)::float8 end as wrapup_sum,
    sum(c.rated)::int as rated, sum(c.rating_sum)::int as rating_sum
  from ${lineCallOperatorIntervals} c
  where ${inScope(s)}
  group by c.answered_by
  having sum(c.calls) > 0
  order by c.answered_by`)

export type StateTimeRow = { interface: string, state: typeof memberStateNames[number], reason: string | null, seconds: number }

/**
 * per queue member, the time spent in each state (and each pause's reason) within the period: the
 * periods overlapping it, clipped to it and to `now` (a state lasting now counts up to now); of the
 * organization's terminals when scoped (states are a member's in every queue: a queue filter keeps all)
 */
export const stateTimes = (db: AppDb, s: KpiScope, now: Date) => {
  const start = sql`${s.start.toISOString()}::timestamptz`
  const end = sql`${new Date(Math.min(s.end.getTime(), now.getTime())).toISOString()}::timestamptz`
  return selectRows<StateTimeRow>(db, sql`
    select x.interface, x.state, x.reason, sum(x.seconds)::float8 as seconds
    from (
      select p.interface, p.state, case when p.state = 'break' then coalesce(p.reason, '') end as reason,
        extract(epoch from least(coalesce(p.ended_at, ${end}), ${end}) - greatest(p.started_at, ${start})) as seconds
      from ${memberStatePeriods} p
      where ${s.organizationId === undefined ? sql`true` : sql`p.interface in (select ${MEMBER_INTERFACE_PREFIX} || t.id from (${terminalIdsOf(db, s.organizationId)}) t)`}
        and p.started_at < ${end} and (p.ended_at is null or p.ended_at > ${start})
    ) x
    where x.seconds > 0
    group by 1, 2, 3
    order by 1, 2, 3`)
}

/** the terminals' names and their employees' (the operators' figures name who answered) */
export function terminalNames (db: AppDb, terminalIds: string[]) {
  if (terminalIds.length === 0) return Promise.resolve([])
  const terminal = terminalDirectory(db)
  const employee = employeeNames(db)
  return db.select({ id: terminal.id, terminal_name: terminal.name, employee_id: employee.id, last_name: employee.last_name, first_name: employee.first_name })
    .from(terminal).leftJoin(employee, eq(employee.id, terminal.employee_id)).where(inArray(terminal.id, terminalIds))
}
