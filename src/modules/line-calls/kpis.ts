// The line's queue figures (README "Queue figures"), after Asterisk's own definitions so that they can
// be checked against QueueSummary/QueueParams: HoldTime from joining to the answer or the leaving, the
// service level as `ServicelevelPerf` (answered within the queue's `servicelevel` / answered) and
// `ServicelevelPerf2` (answered or abandoned within it / answered and abandoned).
import { eq, inArray, sql, type SQL } from 'drizzle-orm'
import { selectRows, type AppDb } from '../../db/client.js'
import { lineCalls, memberStatePeriods, type memberStateNames } from '../../db/schema/index.js'
import { employeeNames } from '../employees/queries.js'
import { terminalDirectory, terminalIdsOf } from '../endpoints/queries.js'

/** Asterisk's `servicelevel` when the call's queue was not known to the service */
export const DEFAULT_SERVICE_LEVEL_SECONDS = 20
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
}

const sums = (short: number) => {
  const sl = sql`coalesce(c.service_level_seconds, ${DEFAULT_SERVICE_LEVEL_SECONDS})`
  const answered = sql`c.outcome = 'answered'`
  const completed = sql`${answered} and c.talk_seconds is not null`
  return sql`
    count(*)::int as offered,
    count(*) filter (where ${answered})::int as answered,
    count(*) filter (where c.outcome = 'abandoned' and c.hold_seconds >= ${short})::int as abandoned,
    count(*) filter (where c.outcome = 'abandoned' and c.hold_seconds < ${short})::int as short_abandoned,
    count(*) filter (where c.outcome = 'timed_out')::int as timed_out,
    count(*) filter (where ${answered} and c.hold_seconds <= ${sl})::int as answered_in_sl,
    count(*) filter (where c.outcome in ('abandoned', 'timed_out') and c.hold_seconds <= ${sl})::int as abandoned_in_sl,
    count(*) filter (where ${completed})::int as completed,
    (sum(c.hold_seconds) filter (where ${answered}))::float8 as hold_sum,
    (sum(c.talk_seconds) filter (where ${completed}))::float8 as talk_sum,
    (sum(c.talk_seconds + coalesce(c.wrapup_seconds, 0)) filter (where ${completed}))::float8 as handling_sum,
    max(c.hold_seconds)::float8 as longest_hold`
}

const inScope = (s: KpiScope, column: SQL) => sql.join([
  sql`${column} >= ${s.start.toISOString()}::timestamptz and ${column} < ${s.end.toISOString()}::timestamptz`,
  ...(s.organizationId === undefined ? [] : [sql`c.organization_id = ${s.organizationId}`]),
  ...(s.queue === undefined ? [] : [sql`c.queue = ${s.queue}`]),
], sql` and `)

export type KpiGroupRow = KpiSums & { queue: string | null, slot: Date | null, day: string | null }

/**
 * One pass over the calls that joined a queue in the period: per queue, per 30-minute interval of
 * the centre's day, per day, and in all (a grouping set each; `queue`, `slot` and `day` null where
 * a row is not of that grouping). The intervals are counted from the period's start, a local midnight.
 */
export const queueFigures = (db: AppDb, s: KpiScope) => selectRows<KpiGroupRow>(db, sql`
  select c.queue, c.slot, c.day, ${sums(s.shortAbandonSeconds)}
  from (
    select l.*, date_bin('30 minutes', l.joined_at, ${s.start.toISOString()}::timestamptz) as slot,
      to_char(l.joined_at at time zone ${s.timeZone}, 'YYYY-MM-DD') as day
    from ${lineCalls} l
  ) c
  where ${inScope(s, sql`c.joined_at`)}
  group by grouping sets ((c.queue), (c.slot), (c.day), ())`)

/** callers in a queue now, and since when the longest has waited, per queue */
export const waitingNow = (db: AppDb, s: Pick<KpiScope, 'organizationId' | 'queue'>, now: Date) => selectRows<{ queue: string, waiting: number, longest_since: Date }>(db, sql`
  select c.queue, count(*)::int as waiting, min(c.joined_at) as longest_since
  from ${lineCalls} c
  where c.outcome = 'waiting' and c.joined_at > ${new Date(now.getTime() - WAITING_AT_MOST_MS).toISOString()}::timestamptz
    ${s.organizationId === undefined ? sql`` : sql`and c.organization_id = ${s.organizationId}`}
    ${s.queue === undefined ? sql`` : sql`and c.queue = ${s.queue}`}
  group by c.queue`)

export type OperatorRow = { interface: string, calls: number, completed: number, talk_sum: number | null, wrapup_sum: number | null }

/** per queue member who answered: the calls answered in the period, their talk and wrap-up */
export const operatorFigures = (db: AppDb, s: KpiScope) => selectRows<OperatorRow>(db, sql`
  select c.answered_by as interface, count(*)::int as calls, count(c.talk_seconds)::int as completed,
    (sum(c.talk_seconds))::float8 as talk_sum, (sum(coalesce(c.wrapup_seconds, 0)) filter (where c.talk_seconds is not null))::float8 as wrapup_sum
  from ${lineCalls} c
  where c.outcome = 'answered' and c.answered_by is not null and ${inScope(s, sql`c.answered_at`)}
  group by c.answered_by
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
      where ${s.organizationId === undefined ? sql`true` : sql`p.interface in (select 'PJSIP/' || t.id from (${terminalIdsOf(db, s.organizationId)}) t)`}
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
