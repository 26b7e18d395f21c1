import type { FastifyBaseLogger } from 'fastify'
import type { Metrics } from '../../lib/metrics.js'
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'
import { supervisorScope } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { localPeriod, startOfLocalDay } from '../calendar/index.js'
import { ConflictError, NotFoundError } from '../../lib/errors.js'
import { keysetBatches } from '../../lib/table-export.js'
import { StaleLeaderError, type CallContext, type CallKey, type LineCallRepo } from './repo.js'
import { lineCallView } from './queries.js'
import { figuresOf, kpiBreakdowns, lineBreakdowns, MAX_KPI_DAYS, NO_CALLS, operatorsOf } from './figures.js'
import { DEFAULT_SHORT_ABANDON_SECONDS, type LineBoard, type ReviewQuery, type LineCallExportQuery, type LineCallQuery, type LineKpiQuery, type LineKpis } from './schemas.js'
import { WAITING_AT_MOST_MS } from './kpis.js'
import { createCallTracker, type CallLanguage, type LineCall } from './tracker.js'
import { parseQueueName, terminalOfMember } from '../../integrations/asterisk/names.js'
import { createLineAnnouncer, type LineLiveEvent } from './announcer.js'
import { createMemberStates } from './members.js'
import { callsAfterGap } from './gap.js'
import type { QueueControl } from '../../integrations/ami/queue-control.js'

const WHAT = 'the line\'s calls'

/** the operators' desks (the call events): an answer on the line pops the caller, the caller's hang-up frees the operator */
export interface Desk {
  answeredOnLine: (answer: { call_id: string, operator_num: string, caller_phone: string | null, answered_at: Date, language: CallLanguage | null }) => Promise<unknown>
  hungUpOnLine: (callId: string, at: Date) => Promise<void>
}

/** the board lists the queues configured up to this many (a deployment of many organizations seen whole lists those with calls, and these) */
const BOARD_QUEUES_AT_MOST = 200

/** whether the board's figures can be live: Asterisk answers, does not, or is not configured */
export type PbxState = 'connected' | 'unreachable' | 'not_configured'

/**
 * The line's calls: kept from Asterisk's events as they come, shown to the supervisors. An agent's
 * answer pops the caller on that operator's desk at once, ahead of the saves queued before it.
 */
export function createLineCallService ({ repo, log, desk, clock, timeZone, queues, publish, metrics, callEnded, pbxState = async () => 'not_configured' }: {
  repo: LineCallRepo, log: FastifyBaseLogger, desk?: Desk, clock: Clock, timeZone: string
  /** whether Asterisk answers now (the board says it when it does not) */
  pbxState?: () => Promise<PbxState>
  /** a call's end saved (its recordings' files are closed: the recordings take them over) */
  callEnded?: (linkedid: string) => void
  metrics: Pick<Metrics, 'amiEvent' | 'failure'>
  /** Asterisk's queues now (QueueStatus), read after each connection */
  queues?: Pick<QueueControl, 'status' | 'liveCalls'>
  /** the consoles' live stream: the boards are told that the line changed */
  publish?: (event: LineLiveEvent) => Promise<void>
}) {
  let tracker = createCallTracker()
  /** the fencing epoch this instance writes under while it leads the events' reading; undefined: it does not */
  let epoch: number | undefined
  const announce = createLineAnnouncer({ publish, log })
  /** the desk's answers still being written, by call: the caller's hang-up is told once its answer is */
  const answering = new Map<string, Promise<unknown>>()
  /**
   * The saves of the line wait while a screen pop is being written: on a busy line (and on the
   * embedded database's one connection) a pop would otherwise queue behind every save before it.
   */
  const popsWritten = async () => { if (answering.size > 0) await Promise.allSettled([...answering.values()]) }
  const members = createMemberStates({
    repo: { saveAgentState: (state) => repo.saveAgentState(state, epoch).catch(unlessFencedOut) }, log, clock, before: popsWritten,
    changed: (state) => {
      const terminal = terminalOfMember(state.interface)
      void (terminal === undefined ? Promise.resolve(null) : repo.terminalOrganization(terminal)).then(announce, () => announce(null))
    },
  })
  /** a write refused since another instance took the lead: counted, not an error (its successor writes it) */
  function unlessFencedOut (err: unknown): void {
    if (!(err instanceof StaleLeaderError)) throw err
    metrics.failure('stale_leader_write')
    log.info('a write refused: another instance leads the reading of Asterisk\'s events now')
  }

  /** a call the supervisor may see (an admin any, a manager its organization's); else 404 */
  async function visibleCall (actor: Principal, linkedid: string) {
    const scope = supervisorScope(actor, WHAT)
    const call = await repo.get(linkedid)
    if (!call || (scope.organizationId !== undefined && call.organization_id !== scope.organizationId)) throw new NotFoundError('Call')
    return call
  }

  /** saves in the order the events came: a call's later state never lands under an earlier one */
  let saving: Promise<void> = Promise.resolve()

  /** what is known of each call in progress, once found (a call's events are saved one by one); found again when it moves to another queue */
  const contexts = new Map<string, { queue: string | null, context: CallContext }>()

  async function contextOf (call: LineCall): Promise<CallContext> {
    const known = contexts.get(call.linkedid)
    if (known && known.queue === call.queue) return known.context
    const queue = call.queue === null ? undefined : await repo.queueOf(call.queue)
    const prefix = call.organization_prefix ?? parseQueueName(call.queue ?? '')?.prefix
    const organizationId = queue?.organization_id ?? (prefix === undefined ? undefined : await repo.organizationOf(prefix)) ?? null
    const context = { organization_id: organizationId, service_level_seconds: queue?.service_level ?? null, wrapup_seconds: queue?.wrapup_time ?? null }
    if (organizationId !== null) contexts.set(call.linkedid, { queue: call.queue, context })
    return context
  }

  async function save (call: LineCall): Promise<void> {
    const context = await contextOf(call)
    // the queue an overflowed call left counts it against that queue's own service level
    for (const leg of call.earlier_queues) leg.service_level_seconds ??= (await repo.queueOf(leg.queue))?.service_level ?? null
    if (call.ended_at) contexts.delete(call.linkedid)
    await repo.save(call, context, epoch)
    if (call.ended_at) callEnded?.(call.linkedid)
    announce(context.organization_id)
  }

  /** each call's latest state not yet saved: a call whose events come faster than its saves is written once for all of them */
  const unsaved = new Map<string, LineCall>()

  /** when the first event of each call's unsaved state arrived (the metrics' event lag) */
  const arrivedAt = new Map<string, number>()

  /** the call as it stands now, saved after those before it; the copy saved */
  function keep (call: LineCall, arrived?: Date): LineCall {
    const snapshot = structuredClone(call)
    if (arrived && !arrivedAt.has(call.linkedid)) arrivedAt.set(call.linkedid, arrived.getTime())
    const queued = unsaved.has(call.linkedid)
    unsaved.set(call.linkedid, snapshot)
    if (queued) return snapshot
    saving = saving.then(async () => {
      await popsWritten()
      const latest = unsaved.get(snapshot.linkedid)
      if (!latest) return // the lead was lost since
      unsaved.delete(snapshot.linkedid)
      const arrived = arrivedAt.get(snapshot.linkedid)
      arrivedAt.delete(snapshot.linkedid)
      await save(latest)
      if (arrived !== undefined) metrics.amiEvent(Math.max(0, Date.now() - arrived) / 1000)
    }).catch(unlessFencedOut).catch((err: unknown) => {
      metrics.failure('line_call_save')
      log.warn({ err, linkedid: snapshot.linkedid }, 'a line call could not be saved')
    })
    return snapshot
  }

  /** the wrap-up that follows the call an AgentComplete ends: its queue's wrapuptime */
  const wrapupOf = (message: AmiMessage) =>
    field(message, 'Event') === 'AgentComplete' ? contexts.get(field(message, 'Linkedid') ?? '')?.context.wrapup_seconds ?? 0 : 0

  /** the desk hears of an agent's answer at once, ahead of the saves queued before it, and of the end of a call it answered */
  function tellDesk (call: LineCall, news: 'answered' | 'ended' | undefined, at: Date): void {
    const terminal = terminalOfMember(call.answered_by)
    if (!desk || terminal === undefined) return
    const failed = (what: string) => (err: unknown) => {
      metrics.failure('screen_pop')
      log.warn({ err, linkedid: call.linkedid }, `the ${what} of a call answered on the line failed`)
    }
    if (news === 'answered') {
      const written: Promise<unknown> = desk.answeredOnLine({ call_id: call.linkedid, operator_num: terminal, caller_phone: call.caller_number, answered_at: at, language: call.language })
        .catch(failed('screen pop'))
        .finally(() => { if (answering.get(call.linkedid) === written) answering.delete(call.linkedid) })
      answering.set(call.linkedid, written)
    } else if (news === 'ended') {
      void (answering.get(call.linkedid) ?? Promise.resolve()).then(() => desk.hungUpOnLine(call.linkedid, at)).catch(failed('hang-up'))
    }
  }

  /** Asterisk's status after a (re)connection: the agents' states as it has them, the calls in progress checked (gap.ts) */
  async function afterGap (): Promise<void> {
    if (!queues) return
    const following = tracker
    const at = clock()
    // without CoreShowChannels (an AMI user not allowed it) a call seen before any queue is closed as unobserved
    const [status, live] = await Promise.all([queues.status(), queues.liveCalls().catch((err: unknown) => {
      log.warn({ err }, 'CoreShowChannels refused: the calls before a queue are closed as unobserved after the gap')
      return new Set<string>()
    })])
    if (tracker !== following) return // the lead was lost meanwhile
    members.reconcile(status.members)
    await saving
    const { ongoing, ended } = callsAfterGap(await repo.inProgress(new Date(at.getTime() - WAITING_AT_MOST_MS), at), { ...status, live }, at)
    if (tracker !== following) return
    for (const call of ongoing) if (tracker.adopt(call)) keep(call)
    for (const call of ended) if (tracker.close(call.linkedid)) tellDesk(keep(call), 'ended', at)
  }

  /** an event applied: to the agents' states and the calls */
  function apply (message: AmiMessage, at: Date): void {
    members.apply(message, at, wrapupOf(message))
    const call = tracker.apply(message, at)
    if (!call) return
    const event = field(message, 'Event')
    tellDesk(keep(call, at), event === 'AgentConnect' ? 'answered' : event === 'Hangup' && call.ended_at !== null ? 'ended' : undefined, at)
  }

  /**
   * The events that come while Asterisk's status is read after a gap: held, and applied once the
   * status is (an AgentConnect of a caller who joined in the gap needs the call taken up first).
   */
  let held: { message: AmiMessage, at: Date }[] | undefined
  let gapsBeingRead = 0
  async function readGap (): Promise<void> {
    held ??= []
    gapsBeingRead++
    try {
      await afterGap()
    } catch (err) {
      log.warn({ err }, 'the line\'s calls and agents could not be checked against Asterisk\'s status')
    } finally {
      if (--gapsBeingRead === 0) {
        const backlog = held ?? []
        held = undefined
        for (const e of backlog) apply(e.message, e.at)
      }
    }
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
    /** an AMI event as it arrived */
    event (message: AmiMessage, at: Date): void {
      if (held) held.push({ message, at })
      else apply(message, at)
    },
    /** a connection to Asterisk opened: what it may have missed is read from its status */
    connected: readGap,
    /** this instance leads the reading of the events from now (DESIGN 9): it writes under a new fencing epoch, its predecessor no more */
    async lead (): Promise<void> {
      epoch = await repo.takeLead()
      log.info({ epoch }, 'leading the reading of Asterisk\'s events')
    },
    /** the lead lost: nothing more is written, nothing known is kept (a later lead starts from Asterisk's status) */
    resign (): void {
      epoch = undefined
      tracker = createCallTracker()
      members.reset()
      unsaved.clear()
      arrivedAt.clear()
      contexts.clear()
      held = undefined
    },
    /** resolves once every event heard so far is saved (tests, and a stop) */
    settled: async () => { await saving; await members.settled() },
    stop: () => { members.stop(); announce.stop() },

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
      const call = await visibleCall(actor, linkedid)
      if (call.rating === null || call.rating > 2) throw new ConflictError(`Call ${linkedid} was not scored 1 or 2: it is not for review`, 'not_for_review')
      const reviewed = await repo.markReviewed(linkedid, actor.id, comment, clock())
      if (!reviewed) throw new ConflictError(`Call ${linkedid} has been reviewed already`, 'already_reviewed')
      return lineCallView(reviewed)
    },
  }
}

export type LineCallService = ReturnType<typeof createLineCallService>
