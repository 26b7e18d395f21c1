// A callback instead of waiting (issue 50). A caller who presses the queue's callback digit leaves it
// (the dialplan's `UserEvent AppealsCall` with `Callback`, `Joined`): the request keeps their place,
// their time joined. The one instance that leads places the requests: for each queue with one due,
// once an operator of the queue is ready (Asterisk's QueueStatus) and no caller in it has waited
// longer than the request, while the line's schedule has it open, the operator's phone is rung and
// then the citizen's (a placed call of kind `callback`). An attempt that does not reach the caller is
// retried `callback_retries` times `callback_retry_interval` apart, then the request has failed.
// Each request is claimed by one UPDATE from `waiting` (a second instance, or a second tick, finds it
// claimed), and settled from its attempt's row, so a restart loses none and places none twice.
import type { FastifyBaseLogger } from 'fastify'
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'
import type { QueueControl, QueueMemberState } from '../../integrations/ami/queue-control.js'
import type { Clock } from '../../lib/clock.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import type { WorkingCalendar } from '../calendar/index.js'
import { isLinkedid, readCallAnnouncement, terminalOfMember } from '../../integrations/asterisk/names.js'
import { scheduleOpenAt } from '../call-routing/schedule-open.js'
import type { CallbackRepo, CallbackRow, PlacedCallRow } from './repo.js'

/** requests looked at a tick, and being placed at once at most (the rest wait their turn) */
const DUE_AT_MOST = 200
/** an operator is ready: in the queue, not paused, its phone not in use (Asterisk's device state 1) */
const ready = (m: QueueMemberState) => !m.paused && !m.inCall && m.status === 1
/** a claim with no attempt after this long was lost (a crash, a failed write): the request goes back to its place */
const CLAIM_LOST_AFTER_MS = 2 * 60_000

export interface CallbackDialler {
  /** rings the terminal, then dials the number: the attempt's call (undefined: it cannot be placed now; a string: why it never can) */
  dial: (request: CallbackRow, terminalId: string) => Promise<PlacedCallRow | undefined | string>
}

export function createCallbackPlacer ({ repo, queues, clock, log, calendar, dialler, changed, leading }: {
  repo: CallbackRepo
  /** whether this instance places the callbacks now (it holds their lock) */
  leading: () => boolean
  queues?: Pick<QueueControl, 'status'>
  clock: Clock
  log: FastifyBaseLogger
  calendar: () => Promise<WorkingCalendar>
  dialler: CallbackDialler
  /** the boards are told (a request came, was placed, reached or failed) */
  changed: (organizationId: number | null) => void
}) {
  /** a request told by the dialplan: the caller who pressed the digit, with their place */
  async function requested (m: AmiMessage, at: Date): Promise<void> {
    const said = readCallAnnouncement(m)
    // the channel's own fields (its call, number and language) beside what the dialplan said
    const linkedid = field(m, 'Linkedid') ?? ''
    if (!said || !isLinkedid(linkedid)) return
    const queue = said.Queue ?? ''
    const facts = await repo.queue(queue)
    const joined = Number(said.Joined)
    const number = normalizeKzPhone(field(m, 'CallerIDNum') ?? '')
    const line = said.Line
    const language = field(m, 'Language')
    const request = await repo.insert({
      linkedid, organization_id: facts?.organization_id ?? null, queue, line: line && line !== '' ? line.slice(0, 32) : null,
      number: number ?? (field(m, 'CallerIDNum') ?? '').slice(0, 16), language: language === 'kk' || language === 'ru' ? language : null,
      joined_at: Number.isFinite(joined) && joined > 0 ? new Date(joined * 1000) : at, requested_at: at, next_attempt_at: at,
      // a number that is not one cannot be called back: kept, and failed at once (the board shows it)
      ...(number ? {} : { status: 'failed' as const, failed_at: at, reason: 'not a phone number' }),
    })
    if (request) changed(request.organization_id)
  }

  /** whether the request's line is open now (its schedule; a line since deleted is taken as open) */
  async function lineOpen (request: CallbackRow, now: Date): Promise<boolean> {
    if (request.line === null) return true
    const schedule = await repo.lineSchedule(request.line)
    return schedule === undefined || scheduleOpenAt(schedule, await calendar(), now)
  }

  /** the queue's due requests in their places: each placed through a ready operator while no caller has waited longer */
  async function placeIn (queue: string, requests: CallbackRow[], now: Date): Promise<void> {
    const status = await queues!.status(queue)
    const free = status.members.filter((m) => m.queue === queue && ready(m))
    const longestWaitingSince = Math.min(...status.callers.filter((c) => c.queue === queue).map((c) => now.getTime() - c.waitSeconds * 1000))
    for (const request of requests) {
      if (free.length === 0) return
      // a caller still waiting who joined before the request goes first: Asterisk gives them the operator
      if (longestWaitingSince <= request.joined_at.getTime()) return
      if (!await lineOpen(request, now)) return
      const member = free.shift()!
      const terminal = terminalOfMember(member.interface)
      if (!terminal) continue
      const claimed = await repo.change(request.id, 'waiting', { status: 'placing', placed_at: now, reason: null })
      if (!claimed) continue
      const call = await dialler.dial(claimed, terminal).catch((err: unknown) => { log.warn({ err, callback: claimed.id }, 'a callback could not be placed'); return undefined })
      if (typeof call === 'string') await repo.change(claimed.id, 'placing', { status: 'failed', failed_at: clock(), reason: call.slice(0, 64) })
      else if (call) await repo.change(claimed.id, 'placing', { placed_call_id: call.id })
      // not placed now (the operator's employee busy placing another, Asterisk not taking it): back in its place
      else await repo.change(claimed.id, 'placing', { status: 'waiting' })
      changed(claimed.organization_id)
    }
  }

  /** an attempt connected (reached) or ended without (retried later, or failed; an operator who did not answer spends no attempt) */
  async function settle (call: PlacedCallRow): Promise<void> {
    if (call.callback_id === null || (call.connected_at === null && call.ended_at === null)) return
    const request = await repo.get(call.callback_id)
    if (!request || request.status !== 'placing' || (request.placed_call_id !== null && request.placed_call_id !== call.id)) return
    const now = clock()
    let change: Parameters<CallbackRepo['change']>[2]
    if (call.connected_at !== null) change = { status: 'reached', reached_at: call.connected_at, placed_call_id: null }
    else if (call.failed_side === 'you') change = { status: 'waiting', next_attempt_at: now, placed_call_id: null, reason: call.reason }
    else {
      const facts = await repo.queue(request.queue)
      const attempts = request.attempts + 1
      change = attempts > (facts?.callback_retries ?? 0)
        ? { status: 'failed', attempts, failed_at: now, placed_call_id: null, reason: call.reason }
        : { status: 'waiting', attempts, next_attempt_at: new Date(now.getTime() + (facts?.callback_retry_interval ?? 300) * 1000), placed_call_id: null, reason: call.reason }
    }
    if (await repo.change(request.id, 'placing', change)) changed(request.organization_id)
  }

  let running: Promise<void> | undefined
  let again = false
  /** one pass: the attempts whose end was missed settled, then the due requests placed queue by queue */
  async function tick (): Promise<void> {
    const now = clock()
    for (const { request, call } of await repo.unsettled(new Date(now.getTime() - CLAIM_LOST_AFTER_MS), DUE_AT_MOST)) {
      if (call) await settle(call)
      else if (await repo.change(request.id, 'placing', { status: 'waiting', next_attempt_at: now, placed_call_id: null })) changed(request.organization_id)
    }
    if (!queues) return
    const due = await repo.due(now, DUE_AT_MOST)
    const byQueue = new Map<string, CallbackRow[]>()
    for (const r of due) byQueue.set(r.queue, [...byQueue.get(r.queue) ?? [], r])
    for (const [queue, requests] of byQueue) {
      await placeIn(queue, requests, now).catch((err: unknown) => { log.warn({ err, queue }, 'callbacks of a queue could not be placed') })
    }
  }
  /** a pass now, or right after the one running (events come in bursts: one pass at a time) */
  function poke (): void {
    if (!leading()) return
    if (running) { again = true; return }
    running = tick().catch((err: unknown) => { log.warn({ err }, 'the callbacks\' pass failed') }).finally(() => {
      running = undefined
      if (again) { again = false; poke() }
    })
  }

  return {
    requested,
    settle,
    poke,
    settled: async () => { await running },
  }
}

export type CallbackPlacer = ReturnType<typeof createCallbackPlacer>
