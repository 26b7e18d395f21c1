import type { FastifyBaseLogger } from 'fastify'
import type { Metrics } from '../../lib/metrics.js'
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'
import type { QueueControl } from '../../integrations/ami/queue-control.js'
import { interfaceOfChannel, parseQueueName, terminalOfMember } from '../../integrations/asterisk/names.js'
import type { Clock } from '../../lib/clock.js'
import { createLineAnnouncer, type LineLiveEvent } from './announcer.js'
import { callsAfterGap } from './gap.js'
import { WAITING_AT_MOST_MS } from './kpis.js'
import { createMemberStates } from './members.js'
import { StaleLeaderError, type CallContext, type LineCallRepo } from './repo.js'
import { createCallTracker, type CallLanguage, type LineCall } from './tracker.js'

/** the operators' desks (the call events): an answer on the line pops the caller, the caller's hang-up frees the operator */
export interface Desk {
  answeredOnLine: (answer: { call_id: string, operator_num: string, caller_phone: string | null, answered_at: Date, language: CallLanguage | null }) => Promise<unknown>
  hungUpOnLine: (callId: string, at: Date) => Promise<void>
  /** the citizen passed on to another terminal: the desk's record of the call goes with them */
  passedOnLine: (pass: { call_id: string, operator_num: string, language: CallLanguage | null }) => Promise<unknown>
}

export interface LineRecorderDeps {
  repo: LineCallRepo, log: FastifyBaseLogger, desk?: Desk, clock: Clock
  /** a call's end saved (its recordings' files are closed: the recordings take them over) */
  callEnded?: (linkedid: string) => void
  metrics: Pick<Metrics, 'amiEvent' | 'failure'>
  /** Asterisk's queues now (QueueStatus), read after each connection */
  queues?: Pick<QueueControl, 'status' | 'liveCalls'>
  /** the consoles' live stream: the boards are told that the line changed */
  publish?: (event: LineLiveEvent) => Promise<void>
}

/**
 * The line's calls and agents kept from Asterisk's events as they come, by the instance that leads
 * their reading. An agent's answer pops the caller on that operator's desk at once, ahead of the
 * saves queued before it.
 */
export function createLineRecorder ({ repo, log, desk, clock, queues, publish, metrics, callEnded }: LineRecorderDeps) {
  let tracker = createCallTracker()
  /** the fencing epoch this instance writes under while it leads the events' reading; undefined: it does not */
  let epoch: number | undefined
  const announce = createLineAnnouncer({ publish, log })
  /** the desk's news of each call still being told: a pass or the caller's hang-up is told once the answer is */
  const answering = new Map<string, Promise<unknown>>()
  /** the screen pops (answers) being written */
  const pops = new Set<Promise<unknown>>()
  /**
   * The saves of the line wait while a screen pop is being written: on a busy line (and on the
   * embedded database's one connection) a pop would otherwise queue behind every save before it.
   */
  const popsWritten = async () => { if (pops.size > 0) await Promise.allSettled([...pops]) }
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
    // a queue the call left counts it in that queue's organization, against its own service level and wrap-up
    for (const leg of call.earlier_queues) {
      if (leg.organization_id !== undefined) continue
      const queue = await repo.queueOf(leg.queue)
      Object.assign(leg, { organization_id: queue?.organization_id ?? null, service_level_seconds: queue?.service_level ?? null, wrapup_seconds: queue?.wrapup_time ?? null })
    }
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

  /**
   * Whose desk each call answered on the line is on (the terminal's interface), until the call ends;
   * `left`: that terminal's channel hung up, the citizen still on the line (a transfer done, a three-way
   * call its operator left). Its leaving is what passes the record on: while Asterisk moves a transfer's
   * channels from bridge to bridge, who talks with the citizen changes for a moment.
   */
  const onDesk = new Map<string, { iface: string, left: boolean }>()

  /**
   * The desk hears of an agent's answer at once, ahead of the saves queued before it; of the citizen
   * passed on to a colleague; and of the end of the call. Each call's news are told in order: an end or
   * a pass once the answer is written.
   */
  function tellDesk (call: LineCall, news: 'answered' | 'ended' | undefined, at: Date): void {
    if (!desk) return
    if (news === 'ended') {
      // a call answered before this instance followed it (taken up after a gap) was popped all the same
      const answered = onDesk.delete(call.linkedid) || call.answered_by !== null || call.earlier_queues.some((l) => l.answered_by !== null)
      if (answered) toldInOrder(call.linkedid, 'hang-up', () => desk.hungUpOnLine(call.linkedid, at))
      return
    }
    const answerer = call.answered_by
    const terminal = terminalOfMember(answerer)
    if (news === 'answered' && !onDesk.has(call.linkedid) && answerer !== null && terminal !== undefined) {
      onDesk.set(call.linkedid, { iface: answerer, left: false })
      const popped = toldInOrder(call.linkedid, 'screen pop', () => desk.answeredOnLine({ call_id: call.linkedid, operator_num: terminal, caller_phone: call.caller_number, answered_at: at, language: call.language }))
      pops.add(popped)
      void popped.finally(() => pops.delete(popped))
      return
    }
    passOn(call)
  }

  function toldInOrder (linkedid: string, what: string, work: () => Promise<unknown>): Promise<unknown> {
    const told: Promise<unknown> = (answering.get(linkedid) ?? Promise.resolve()).then(work).catch((err: unknown) => {
      metrics.failure('screen_pop')
      log.warn({ err, linkedid }, `the ${what} of a call answered on the line failed`)
    }).finally(() => { if (answering.get(linkedid) === told) answering.delete(linkedid) })
    answering.set(linkedid, told)
    return told
  }

  /** a channel of a call hung up: when it was the desk's terminal's, the record goes to the next terminal the citizen talks with */
  function channelGone (message: AmiMessage): void {
    const linkedid = field(message, 'Linkedid') ?? ''
    const holder = onDesk.get(linkedid)
    if (holder === undefined || interfaceOfChannel(field(message, 'Channel')) !== holder.iface) return
    holder.left = true
    const call = tracker.call(linkedid)
    if (call) passOn(call)
  }

  function passOn (call: LineCall): void {
    const holder = onDesk.get(call.linkedid)
    if (!desk || !holder?.left || call.ended_at !== null) return
    // the latest terminal talking with the citizen (a number outside has no desk)
    const next = call.legs.filter((l) => l.ended_at === null && l.interface !== holder.iface && terminalOfMember(l.interface) !== undefined).at(-1)?.interface
    const terminal = terminalOfMember(next ?? null)
    if (next === undefined || terminal === undefined) return
    onDesk.set(call.linkedid, { iface: next, left: false })
    toldInOrder(call.linkedid, 'pass', () => desk.passedOnLine({ call_id: call.linkedid, operator_num: terminal, language: call.language }))
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
    const event = field(message, 'Event')
    if (event === 'Hangup') channelGone(message)
    if (!call) return
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
      onDesk.clear()
      held = undefined
    },
    /** resolves once every event heard so far is saved (tests, and a stop) */
    settled: async () => { await saving; await members.settled() },
    stop: () => { members.stop(); announce.stop() },
  }
}
