import type { FastifyBaseLogger } from 'fastify'
import type { CallControl } from '../../integrations/ami/call-control.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import { scopeOf, supervisorScope } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import { isoOrNull, type Clock } from '../../lib/clock.js'
import { ConflictError, NotFoundError } from '../../lib/errors.js'
import { maskPhone } from '../../lib/pii.js'
import { internalContext, memberInterface, readCallAnnouncement } from '../../integrations/asterisk/names.js'
import type { AppealsPort } from '../appeals/module.js'
import type { LineAnswer } from '../call-events/service.js'
import { endOf, linkedidOf, originateFailure, placedIdOf, placedLinkedid, stepOf, type Step } from './progress.js'
import type { CallbackRow, PlacedCallChange, PlacedCallRepo, PlacedCallRow } from './repo.js'
import type { CallbackDialler, CallbackPlacer } from './callbacks.js'
import { operatorOnPbx } from './operator.js'
import { field } from '../../integrations/ami/protocol.js'
import type { PlaceCallRequest, PlacedCall, SpyRequest } from './schemas.js'
import type { placedCalls } from '../../db/schema/index.js'

/** how long the user's own phone rings before the call is given up */
export const RING_YOU_SECONDS = 30

export interface PlacedCallLiveEvent { type: 'call.placed', organization_id: number | null, employee_id: number | null, call: PlacedCall }

export const placedCallView = (r: PlacedCallRow): PlacedCall => ({
  id: r.id, kind: r.kind, callback_id: r.callback_id, call_id: r.linkedid, number: r.number, appeal_id: r.appeal_id, person_id: r.person_id, employee_id: r.employee_id,
  organization_id: r.organization_id, terminal_id: r.terminal_id, status: r.status, failed_side: r.failed_side, reason: r.reason,
  placed_at: r.placed_at.toISOString(), answered_at: isoOrNull(r.answered_at), connected_at: isoOrNull(r.connected_at),
  ended_at: isoOrNull(r.ended_at), talk_seconds: r.talk_seconds,
})

/** the desks: a connected call is the user's current call (its transcript attaches to it), its end frees them */
export interface PlacedCallDesk {
  answeredOnLine: (answer: LineAnswer) => Promise<unknown>
  hungUpOnLine: (callId: string, at: Date) => Promise<void>
}

/**
 * Calls placed by the centre (issue 50, DESIGN 10): the user's terminal rings first, then the number
 * is dialled in the terminal's organization context. Asterisk's events move the call along on the
 * instance that reads them; the user's console is told each step.
 */
export function createPlacedCallService ({ repo, control, clock, log, appeals, desk, publish, callEnded, callbacks: placer }: {
  repo: PlacedCallRepo
  /** the callbacks' placer, given the service's dialler (the module makes both) */
  callbacks?: (dialler: CallbackDialler) => CallbackPlacer
  control?: CallControl
  clock: Clock
  log: FastifyBaseLogger
  appeals: AppealsPort
  desk: PlacedCallDesk
  publish: (event: PlacedCallLiveEvent) => Promise<void>
  /** a call's end: its recordings' files are closed */
  callEnded?: (linkedid: string) => void
}) {
  const callbacks = placer?.({ dial: (request, terminal) => dialCallback(request, terminal) })
  const tell = (row: PlacedCallRow) => publish({ type: 'call.placed', organization_id: row.organization_id, employee_id: row.employee_id, call: placedCallView(row) })
    .catch((err: unknown) => { log.warn({ err }, 'a placed call\'s progress could not be told') })

  const { asked, ownTerminal, registered, callOf, outsideNumber, diallingFor, phoneShaped } = operatorOnPbx({ repo, control })

  /** a call of the user's still live by its row but gone from Asterisk (a hang-up not heard) is over: it does not hold up the next */
  async function clearLostCall (employeeId: number): Promise<void> {
    const current = await repo.liveOf(employeeId)
    if (!current) return
    const channels = await asked((c) => c.channels())
    if (channels.some((c) => c.linkedid === current.linkedid)) {
      throw new ConflictError(`Your call to ${maskPhone(current.number)} is still being placed: end it first`, 'call_in_progress', { call_id: current.id })
    }
    await repo.closeLost([current.id], clock())
  }

  async function place (actor: Principal, body: PlaceCallRequest): Promise<PlacedCall> {
    phoneShaped(body.number)
    const target = body.appeal_id === undefined ? undefined : await appeals.callTarget(actor, body.appeal_id)
    const mine = await ownTerminal(actor)
    const { number, exten, person, prefix } = await outsideNumber(actor, mine, body.number, target?.phones)
    await registered(mine)
    await clearLostCall(actor.id)
    const row = await dial({
      kind: 'call', employee_id: actor.id, organization_id: mine.organization_id, terminal_id: mine.id, number, dialled: exten,
      appeal_id: target?.appeal_id ?? null, person_id: target?.person_id ?? person?.id ?? null,
    }, prefix)
    if (!row) throw new ConflictError('Another call of yours is being placed: end it first', 'call_in_progress')
    return placedCallView(row)
  }

  /**
   * A call placed: its row (its Linkedid made of its id), then Asterisk's Originate from the
   * terminal into its organization's context; undefined when the employee has one being placed
   * already; 503 (the row failed) when Asterisk did not take it.
   */
  async function dial (call: Omit<typeof placedCalls.$inferInsert, 'id' | 'linkedid' | 'placed_at' | 'status'>, prefix: string): Promise<PlacedCallRow | undefined> {
    const id = await repo.nextId()
    const placedAt = clock()
    const row = await repo.insert({ ...call, id, linkedid: placedLinkedid(id, placedAt), status: 'ringing_you', placed_at: placedAt })
    if (!row) return undefined
    try {
      // a callback pops on the operator's desk before their phone rings: whom they call back, and their earlier calls
      if (row.kind === 'callback') await popOnDesk(row, placedAt)
      await asked((c) => c.originate({
        channel: memberInterface(row.terminal_id), context: internalContext(prefix), exten: row.dialled, callerId: `"${row.number}" <${row.number}>`, channelId: row.linkedid, ringSeconds: RING_YOU_SECONDS,
        // dialled with the terminal's own caller id, as when it dials itself; recorded like a call of the line, the leg under the terminal's name
        variables: { APPEALS_CALLER: row.terminal_id, __APPEALS_TERMINAL: row.terminal_id, __APPEALS_RECORD: '1' },
      }), 'Asterisk did not place the call')
    } catch (err) {
      // whatever failed before Asterisk took the call, the row is not left live: it would hold up the user's next call
      const failed = await repo.change(row.id, { status: 'failed', failed_side: 'you', reason: 'ORIGINATE', ended_at: clock() })
      if (failed) await after(row, failed).catch((e: unknown) => { log.warn({ err: e, placed_call: row.id }, 'a call not placed could not be told') })
      throw err
    }
    // told and answered as it is now: Asterisk's first events may have moved it on while Originate was answered
    const now = await repo.get(row.id).catch(() => undefined) ?? row
    void tell(now)
    return now
  }

  /** a callback's attempt from a ready operator's terminal: the call, undefined (not now), or why it never can be */
  async function dialCallback (request: CallbackRow, terminalId: string): Promise<PlacedCallRow | undefined | string> {
    const terminal = await repo.terminal(terminalId)
    if (!terminal) return undefined
    const org = await repo.organization(terminal.organization_id)
    if (!org || !org.is_active) return undefined
    const dialling = await diallingFor(terminal, await repo.dialArea(org.region_id), request.number)
    if ('refused' in dialling) return dialling.refused
    const person = await repo.personByPhone(request.number)
    return dial({
      kind: 'callback', callback_id: request.id, employee_id: terminal.employee_id, organization_id: terminal.organization_id, terminal_id: terminal.id,
      number: request.number, dialled: dialling.exten, appeal_id: null, person_id: person?.id ?? null,
    }, org.prefix)
  }

  /** a call the actor may see: their own, their organization's for a manager, any for an admin; else 404 */
  async function visible (actor: Principal, id: number): Promise<PlacedCallRow> {
    const row = await repo.get(id)
    const scope = scopeOf(actor)
    if (!row || (scope.organizationId !== undefined && row.organization_id !== scope.organizationId) || (scope.employeeId !== undefined && row.employee_id !== scope.employeeId)) {
      throw new NotFoundError('Call')
    }
    return row
  }

  /** the call as the desk's current call: its caller matched, their earlier calls counted, the screen pop */
  const popOnDesk = (row: PlacedCallRow, at: Date) =>
    desk.answeredOnLine({ call_id: row.linkedid, operator_num: row.terminal_id, caller_phone: row.number, answered_at: at, language: null, direction: 'out' })

  /** what follows a step that changed the call: the desk, the appeal's history, the callback, the recordings, the console */
  async function after (before: PlacedCallRow, row: PlacedCallRow): Promise<void> {
    if (row.status === 'connected' && before.status !== 'connected') {
      if (row.kind === 'call') await popOnDesk(row, row.connected_at ?? clock())
      else await callbacks?.settle(row)
    }
    if (row.ended_at !== null && before.ended_at === null) {
      if (row.connected_at !== null || row.kind === 'callback') await desk.hungUpOnLine(row.linkedid, row.ended_at)
      if (row.kind === 'callback' && row.connected_at === null) await callbacks?.settle(row)
      if (row.connected_at !== null) callEnded?.(row.linkedid)
      if (row.appeal_id !== null) {
        await appeals.callEnded({
          appeal_id: row.appeal_id, actor_id: row.employee_id, at: row.ended_at,
          payload: { call_id: row.id, linkedid: row.linkedid, number: maskPhone(row.number), status: row.status, failed_side: row.failed_side, talk_seconds: row.talk_seconds },
        })
      }
    }
    await tell(row)
  }

  async function apply (id: number, step: Step): Promise<void> {
    const before = await repo.get(id)
    if (!before) return
    let change: PlacedCallChange | undefined
    let from: Parameters<PlacedCallRepo['change']>[2]
    if (step.kind === 'change') ({ change, from } = step)
    else if (step.kind === 'originate_failed') { change = originateFailure(step.reason, step.at); from = ['ringing_you'] } else if (before.status === 'ringing_you' && before.answered_at === null) return // Originate's answer says why, next
    else change = endOf(before, step)
    const row = await repo.change(id, change, from)
    if (row) await after(before, row)
  }

  /** each call's events in the order they came, one at a time */
  const queues = new Map<number, Promise<void>>()
  function event (m: AmiMessage, at: Date): void {
    if (callbacks) {
      const name = field(m, 'Event')
      if (readCallAnnouncement(m)?.Callback !== undefined) void callbacks.requested(m, at).then(callbacks.poke, (err: unknown) => { log.warn({ err }, 'a callback request could not be kept') })
      // an operator freed or made ready, a caller gone from a queue: a callback may be placed now
      else if (name === 'QueueMemberStatus' || name === 'QueueMemberPause' || name === 'QueueCallerLeave') callbacks.poke()
    }
    const id = placedIdOf(linkedidOf(m))
    if (id === undefined) return
    const step = stepOf(m, at)
    if (!step) return
    const next = (queues.get(id) ?? Promise.resolve()).then(() => apply(id, step)).catch((err: unknown) => { log.warn({ err, placed_call: id }, 'a placed call\'s event could not be written') })
    queues.set(id, next)
    void next.then(() => { if (queues.get(id) === next) queues.delete(id) })
  }

  return {
    place,
    event,
    /** the events being written, before the lead is let go */
    settled: async () => { await Promise.allSettled([...queues.values()]); await callbacks?.settled() },
    /** a pass of the callbacks' placer (the instance that leads them, every second and on the queues' events) */
    placeCallbacks: () => callbacks?.poke(),
    get: async (actor: Principal, id: number) => placedCallView(await visible(actor, id)),
    async list (actor: Principal, q: { appeal_id?: number, before?: number, limit: number }) {
      const scope = scopeOf(actor)
      const rows = await repo.list({ organizationId: scope.organizationId, employeeId: scope.employeeId, appealId: q.appeal_id, before: q.before, limit: q.limit })
      return rows.map(placedCallView)
    },

    /** a supervisor joins an operator's live call on their own terminal (ChanSpy) */
    async spy (actor: Principal, body: SpyRequest): Promise<{ call_id: string, terminal_id: string, mode: SpyRequest['mode'] }> {
      const scope = supervisorScope(actor, 'an operator\'s call')
      const operator = await repo.terminal(body.terminal_id)
      if (!operator || (scope.organizationId !== undefined && operator.organization_id !== scope.organizationId)) throw new NotFoundError('Terminal')
      const own = await registered(await ownTerminal(actor))
      if (own.id === operator.id) throw new ConflictError('That is your own terminal', 'own_terminal')
      const call = await callOf(operator.id)
      // the call's own channel, not the terminal's prefix: a listen never goes on to the operator's next call
      await asked((c) => c.spy({ channel: memberInterface(own.id), target: call.channel, mode: body.mode, callerId: `"${body.mode} ${operator.id}" <${operator.id}>`, ringSeconds: RING_YOU_SECONDS }))
      return { call_id: call.linkedid, terminal_id: own.id, mode: body.mode }
    },
  }
}

export type PlacedCallService = ReturnType<typeof createPlacedCallService>
