import type { FastifyBaseLogger } from 'fastify'
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'
import { supervisorScope } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import { isoOrNull, type Clock } from '../../lib/clock.js'
import { localPeriod } from '../calendar/index.js'
import { NotFoundError } from '../../lib/errors.js'
import type { CallContext, LineCallRepo } from './repo.js'
import { kpiBreakdowns, MAX_KPI_DAYS } from './figures.js'
import type { LineCallQuery, LineKpiQuery, LineKpis } from './schemas.js'
import { createCallTracker, type CallLanguage, type LineCall } from './tracker.js'

type LineCallRow = NonNullable<Awaited<ReturnType<LineCallRepo['get']>>>
/** a row as the API answers it: times as ISO 8601 */
const view = (c: LineCallRow) => ({ ...c, joined_at: isoOrNull(c.joined_at), answered_at: isoOrNull(c.answered_at), started_at: c.started_at.toISOString(), ended_at: isoOrNull(c.ended_at) })

/** the organization's prefix in the names the PBX's files give queues (`org<prefix>-...`) */
const QUEUE_PREFIX = /^org([0-9]+)-/
const WHAT = 'the line\'s calls'

/** the desk's screen pop of an answer on the line (the call events' answeredOnLine) */
export type ScreenPop = (answer: { call_id: string, operator_num: string, caller_phone: string | null, answered_at: Date, language: CallLanguage | null }) => Promise<unknown>

/** the SIP terminal of a queue member's interface: the generated queues name members `PJSIP/<terminal>` */
const TERMINAL_INTERFACE = /^PJSIP\/([0-9]{1,32})$/

/**
 * The line's calls: kept from Asterisk's events as they come, shown to the supervisors. An agent's
 * answer pops the caller on that operator's desk at once, ahead of the saves queued before it.
 */
export function createLineCallService ({ repo, log, screenPop, clock, timeZone }: {
  repo: LineCallRepo, log: FastifyBaseLogger, screenPop?: ScreenPop, clock: Clock, timeZone: string
}) {
  const tracker = createCallTracker()
  /** saves in the order the events came: a call's later state never lands under an earlier one */
  let saving: Promise<void> = Promise.resolve()

  /** what is known of each call in progress, once found (a call's events are saved one by one); found again when it moves to another queue */
  const contexts = new Map<string, { queue: string | null, context: CallContext }>()

  async function contextOf (call: LineCall): Promise<CallContext> {
    const known = contexts.get(call.linkedid)
    if (known && known.queue === call.queue) return known.context
    const queue = call.queue === null ? undefined : await repo.queueOf(call.queue)
    const prefix = call.organization_prefix ?? QUEUE_PREFIX.exec(call.queue ?? '')?.[1]
    const organizationId = queue?.organization_id ?? (prefix === undefined ? undefined : await repo.organizationOf(prefix)) ?? null
    const context = { organization_id: organizationId, service_level_seconds: queue?.service_level ?? null, wrapup_seconds: queue?.wrapup_time ?? null }
    if (organizationId !== null) contexts.set(call.linkedid, { queue: call.queue, context })
    return context
  }

  async function save (call: LineCall): Promise<void> {
    const context = await contextOf(call)
    if (call.ended_at) contexts.delete(call.linkedid)
    await repo.save(call, context)
  }

  function pop (call: LineCall, at: Date): void {
    const terminal = TERMINAL_INTERFACE.exec(call.answered_by ?? '')?.[1]
    if (!screenPop || terminal === undefined) return
    screenPop({ call_id: call.linkedid, operator_num: terminal, caller_phone: call.caller_number, answered_at: at, language: call.language })
      .catch((err: unknown) => { log.warn({ err, linkedid: call.linkedid }, 'the screen pop of a call answered on the line failed') })
  }

  return {
    /** an AMI event as it arrived */
    event (message: AmiMessage, at: Date): void {
      const call = tracker.apply(message, at)
      if (!call) return
      if (field(message, 'Event') === 'AgentConnect') pop(call, at)
      const snapshot = structuredClone(call)
      saving = saving.then(() => save(snapshot)).catch((err: unknown) => { log.warn({ err, linkedid: snapshot.linkedid }, 'a line call could not be saved') })
    },
    /** resolves once every event heard so far is saved (tests, and a stop) */
    settled: () => saving,

    async list (actor: Principal, q: LineCallQuery) {
      const scope = supervisorScope(actor, WHAT)
      const { items, total } = await repo.list({ organizationId: scope.organizationId, outcome: q.outcome, limit: q.limit, offset: q.skip })
      return { items: items.map(view), total }
    },

    /** the queues' figures of a period (README "Queue figures"), per queue, interval, day and operator */
    async kpis (actor: Principal, q: LineKpiQuery): Promise<LineKpis> {
      const { organizationId } = supervisorScope(actor, WHAT)
      const now = clock()
      const period = localPeriod(timeZone, now, q, { defaultDays: 1, maxDays: MAX_KPI_DAYS })
      const scope = { organizationId, queue: q.queue, start: period.start, end: period.end, timeZone, shortAbandonSeconds: q.short_abandon_seconds }
      const [groups, waiting, operators] = await Promise.all([repo.queueFigures(scope), repo.waitingNow(scope, now), repo.operatorFigures(scope)])
      return {
        date_from: period.from, date_to: period.to, time_zone: timeZone, short_abandon_seconds: q.short_abandon_seconds,
        ...kpiBreakdowns(period, groups, waiting, now),
        operators: await repo.namedOperators(operators),
      }
    },

    async get (actor: Principal, linkedid: string) {
      const scope = supervisorScope(actor, WHAT)
      const call = await repo.get(linkedid)
      if (!call || (scope.organizationId !== undefined && call.organization_id !== scope.organizationId)) throw new NotFoundError('Call')
      return view(call)
    },
  }
}

export type LineCallService = ReturnType<typeof createLineCallService>
