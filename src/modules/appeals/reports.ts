// The register's figures and its export: the period's measures in all and per group, and the
// filtered list in batches for a file.
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { keysetBatches } from '../../lib/table-export.js'
import { dayNumberOf, isoDay, localPeriod, type WorkingCalendar } from '../calendar/index.js'
import { filterFor } from './filters.js'
import type { Actor } from './lifecycle.js'
import type { AppealFilter, AppealRepo, StatsRow } from './repo.js'
import type { AppealFilterQuery, AppealStats, AppealStatsQuery } from './schemas.js'

const MAX_STATS_DAYS = 366
const hours = (seconds: number | null) => seconds === null ? null : Math.round(seconds / 36) / 100
function measuresOf (r: StatsRow) {
  return {
    received: r.received,
    answered: r.answered,
    answered_on_time: r.answered_on_time,
    on_time_rate: r.answered === 0 ? null : Math.round(r.answered_on_time / r.answered * 10_000) / 10_000,
    closed: r.closed,
    overdue: r.overdue,
    median_hours_to_close: hours(r.median_seconds_to_close),
  }
}
const groupOf = (r: StatsRow) => ({ id: r.key, name: r.name, ...measuresOf(r) })

export interface AppealReportsDeps {
  repo: Pick<AppealRepo, 'stats' | 'daily' | 'countUpTo' | 'exportRows'>
  calendar: () => Promise<WorkingCalendar>
  clock: Clock
  actorOf: (principal: Principal) => Promise<Actor>
}

export function createAppealReports ({ repo, calendar, clock, actorOf }: AppealReportsDeps) {
  return {
    async stats (principal: Principal, q: AppealStatsQuery): Promise<AppealStats> {
      const { timeZone } = await calendar()
      const { from, to, days, start, end } = localPeriod(timeZone, clock(), q, { defaultDays: 30, maxDays: MAX_STATS_DAYS })
      const filter = filterFor(await actorOf(principal), q)
      const [[totals], region, executor, classification, daily] = await Promise.all([
        repo.stats(filter, start, end, 'total', 1),
        repo.stats(filter, start, end, 'region', q.limit),
        repo.stats(filter, start, end, 'executor', q.limit),
        repo.stats(filter, start, end, q.classification_level, q.limit),
        repo.daily(filter, start, end, timeZone),
      ])
      const received = new Map(daily.received.map((d) => [d.day, d.n]))
      const closed = new Map(daily.closed.map((d) => [d.day, d.n]))
      return {
        date_from: from,
        date_to: to,
        time_zone: timeZone,
        classification_level: q.classification_level,
        totals: measuresOf(totals!),
        by_day: Array.from({ length: days }, (_, i) => isoDay(dayNumberOf(from) + i)).map((day) => ({ day, received: received.get(day) ?? 0, closed: closed.get(day) ?? 0 })),
        by_region: region.map(groupOf),
        by_executor: executor.map(groupOf),
        by_classification: classification.map(groupOf),
      }
    },

    /** the filtered list for an export: batches in the list's order, at most `max` rows in all */
    async exportBatches (principal: Principal, q: AppealFilterQuery, max: number, batch: number) {
      const filter = filterFor(await actorOf(principal), q)
      const total = await repo.countUpTo(filter, max + 1)
      const batches = keysetBatches((after: AppealFilter['after'], limit) => repo.exportRows({ ...filter, after, limit }), (last) => ({ at: last.received_at, id: last.id }), max, batch)
      return { truncated: total > max, rows: Math.min(total, max), batches }
    },
  }
}
