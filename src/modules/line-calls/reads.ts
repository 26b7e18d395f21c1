import { supervisorScope } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.js'
import { keysetBatches } from '../../lib/table-export.js'
import { localPeriod, startOfLocalDay } from '../calendar/index.js'
import { figuresOf, kpiBreakdowns, lineBreakdowns, MAX_KPI_DAYS, NO_CALLS, operatorsOf } from './figures.js'
import { WAITING_AT_MOST_MS } from './kpis.js'
import { callReached, lineCallView } from './queries.js'
import type { CallKey, LineCallRepo } from './repo.js'
import { DEFAULT_SHORT_ABANDON_SECONDS, type LineBoard, type LineCallExportQuery, type LineCallQuery, type LineKpiQuery, type LineKpis, type ReviewQuery } from './schemas.js'

const WHAT = 'the line\'s calls'

/** the board lists the queues configured up to this many (a deployment of many organizations seen whole lists those with calls, and these) */
const BOARD_QUEUES_AT_MOST = 200

/** whether the board's figures can be live: Asterisk answers, does not, or is not configured */
export type PbxState = 'connected' | 'unreachable' | 'not_configured'

export interface LineReadsDeps {
  repo: LineCallRepo, clock: Clock, timeZone: string
  /** whether Asterisk answers now (the board says it when it does not) */
  pbxState?: () => Promise<PbxState>
}

/** What the supervisors read of the line: its calls, their figures, the live board and the reviews of poorly scored calls. */
export function createLineReads ({ repo, clock, timeZone, pbxState = async () => 'not_configured' }: LineReadsDeps) {
  /**
   * A call the supervisor may see (an admin any, a manager those that reached its organization: in its
   * queue, or passed on from it to another's); else 404. `own`: a call that is its organization's now
   * (a review is of the operator who had the citizen last), else 403 for one it may only see.
   */
  async function visibleCall (actor: Principal, linkedid: string, { own = false } = {}) {
    const { organizationId } = supervisorScope(actor, WHAT)
    const call = await repo.get(linkedid)
    if (!call || (organizationId !== undefined && !callReached(call, organizationId))) throw new NotFoundError('Call')
    if (own && organizationId !== undefined && call.organization_id !== organizationId) {
      throw new ForbiddenError(`Call ${linkedid} was passed on to another organization: its review is that organization's, whose operator had the citizen last`, 'not_your_review')
    }
    return call
  }

  /** the queues' figures of a period (docs/telephony.md, "Queue figures"), per queue, interval, day and operator */
  async function kpis (actor: Principal, q: LineKpiQuery, { operators: withOperators = true } = {}): Promise<LineKpis> {
    const { organizationId } = supervisorScope(actor, WHAT)
    const now = clock()
    const period = localPeriod(timeZone, now, q, { defaultDays: 1, maxDays: MAX_KPI_DAYS })
    const scope = { organizationId, queue: q.queue, start: period.start, end: period.end, timeZone, shortAbandonSeconds: q.short_abandon_seconds }
    const [groups, lines, waiting, operators, times, callbacks] = await Promise.all([
      repo.queueFigures(scope), repo.lineFigures(scope), repo.waitingNow(scope, now),
      withOperators ? repo.operatorFigures(scope) : [], withOperators ? repo.stateTimes(scope, now) : [],
      repo.callbackFigures(organizationId, period.start, period.end),
    ])
    const names = await repo.memberNames([...new Set([...operators, ...times].map((r) => r.interface))])
    return {
      date_from: period.from, date_to: period.to, time_zone: timeZone, short_abandon_seconds: q.short_abandon_seconds,
      ...kpiBreakdowns(period, groups, waiting, now),
      operators: operatorsOf(operators, times, names),
      lines: lineBreakdowns(period, lines),
      callbacks,
    }
  }

  return {
    async list (actor: Principal, q: LineCallQuery) {
      const scope = supervisorScope(actor, WHAT)
      const { items, total } = await repo.list({ organizationId: scope.organizationId, outcome: q.outcome, limit: q.limit, offset: q.skip })
      return { items: items.map(lineCallView), total }
    },

    kpis,

    /** the calls that began in a period, for an export: batches newest first, at most `max` calls */
    async exportCalls (actor: Principal, q: Omit<LineCallExportQuery, 'format' | 'lang'>, max: number, batch: number) {
      const { organizationId } = supervisorScope(actor, WHAT)
      const period = localPeriod(timeZone, clock(), q, { defaultDays: 1, maxDays: MAX_KPI_DAYS })
      const filter = { organizationId, queue: q.queue, outcome: q.outcome, start: period.start, end: period.end }
      const total = await repo.countUpTo(filter, max + 1)
      const batches = keysetBatches((after: CallKey | undefined, limit) => repo.exportRows(filter, after, limit), (last) => ({ startedAt: last.started_at, linkedid: last.linkedid }), max, batch)
      return { period, rows: Math.min(total, max), truncated: total > max, batches }
    },

    /** the live board: today's figures per queue, who waits now and the agents' states */
    async board (actor: Principal): Promise<LineBoard> {
      const { organizationId } = supervisorScope(actor, WHAT)
      const now = clock()
      const [today, waiting, agents, configured, pbx] = await Promise.all([
        kpis(actor, { short_abandon_seconds: DEFAULT_SHORT_ABANDON_SECONDS }, { operators: false }),
        repo.waitingCallers(organizationId, new Date(now.getTime() - WAITING_AT_MOST_MS)),
        repo.agentStatesNow(organizationId),
        repo.configuredQueues(organizationId, BOARD_QUEUES_AT_MOST),
        pbxState(),
      ])
      const callbacks = await repo.boardCallbacks(organizationId, startOfLocalDay(timeZone, today.date_to), BOARD_QUEUES_AT_MOST)
      const limits = agents.some((a) => a.state === 'break') ? await repo.breakLimits() : new Map<string, number>()
      // every queue configured, at zero until its first call of the day, each with its own name
      const known = new Map(configured.map((q) => [q.queue, q]))
      const named = (queue: string) => ({ name: known.get(queue)?.name ?? null, is_default: known.get(queue)?.is_default ?? false })
      const withCalls = new Set(today.queues.map((q) => q.queue))
      const idle = configured.filter((q) => !withCalls.has(q.queue)).map(({ queue }) => ({ queue, ...figuresOf(NO_CALLS), waiting_now: 0, longest_wait_now: null }))
      return {
        day: today.date_to, time_zone: timeZone, pbx, totals: today.totals, queues: [...today.queues, ...idle].sort((a, b) => a.queue.localeCompare(b.queue)).map((q) => ({ ...q, ...named(q.queue) })), lines: today.lines.lines,
        waiting: waiting.map((w) => ({ ...w, joined_at: w.joined_at!.toISOString() })),
        callbacks: callbacks.map((c) => ({ ...c, joined_at: c.joined_at.toISOString(), requested_at: c.requested_at.toISOString(), next_attempt_at: c.next_attempt_at.toISOString() })),
        agents: agents.map((a) => {
          // another instance reads the events: a wrap-up over is ready from its end, whoever writes it
          const over = a.state === 'wrap_up' && a.wrapup_until !== null && a.wrapup_until <= now
          // a break longer than its reason allows: by how much
          const limit = a.state === 'break' && a.reason ? limits.get(a.reason) : undefined
          const overBy = limit === undefined ? null : Math.floor((now.getTime() - a.since.getTime()) / 1000) - limit * 60
          return {
            interface: a.interface, terminal_id: a.terminal_id, reason: a.reason,
            name: [a.last_name, a.first_name].filter(Boolean).join(' ') || a.terminal_name || a.member_name,
            state: over ? 'ready' : a.state, since: (over ? a.wrapup_until! : a.since).toISOString(),
            break_over_seconds: overBy !== null && overBy > 0 ? overBy : null,
            browser: a.phone === 'browser',
          }
        }),
      }
    },

    async get (actor: Principal, linkedid: string) {
      return lineCallView(await visibleCall(actor, linkedid))
    },

    /** the calls the citizen scored 1 or 2, until a supervisor reviews each */
    async awaitingReview (actor: Principal, q: ReviewQuery) {
      const scope = supervisorScope(actor, WHAT)
      const { items, total } = await repo.awaitingReview(scope.organizationId, q.limit, q.skip)
      return { items: items.map(lineCallView), total }
    },

    async review (actor: Principal, linkedid: string, comment: string) {
      const call = await visibleCall(actor, linkedid, { own: true })
      if (call.rating === null || call.rating > 2) throw new ConflictError(`Call ${linkedid} was not scored 1 or 2: it is not for review`, 'not_for_review')
      const reviewed = await repo.markReviewed(linkedid, actor.id, comment, clock())
      if (!reviewed) throw new ConflictError(`Call ${linkedid} has been reviewed already`, 'already_reviewed')
      return lineCallView(reviewed)
    },
  }
}
