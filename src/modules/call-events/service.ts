import type { Transactional } from '../../db/client.js'
import type { appealLanguages, callDirections } from '../../db/schema/index.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { canSee, scopeOf } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import { isoOrNull, type Clock } from '../../lib/clock.js'
import { NotFoundError } from '../../lib/errors.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import { maskIin, maskPhone } from '../../lib/pii.js'
import type { Metrics } from '../../lib/metrics.js'
import { createTranscriptIntake, LINK_WINDOW_MS, type ChunkResult } from './intake.js'
import type { LiveEvent, LiveEvents } from './live.js'
import type { CallRepo, CallRow, CallSource, CallTxRepo } from './repo.js'
import type { CallAnsweredEvent, CallListQuery, CallSummary, CallTranscriptionEvent } from './schemas.js'

/** Kazakhstan numbers as +7XXXXXXXXXX; anything else as given */
export const callerPhone = (raw: string) => normalizeKzPhone(raw) ?? raw.trim()

export function toCallSummary (c: Omit<CallRow, 'transcript' | 'source'>): CallSummary {
  return {
    id: c.id, call_id: c.call_id, operator_num: c.operator_num, terminal_id: c.terminal_id, organization_id: c.organization_id,
    employee_id: c.employee_id, caller_phone: c.caller_phone, person_id: c.person_id, answered_at: isoOrNull(c.answered_at),
    is_final: c.is_final, closed_at: isoOrNull(c.closed_at), created_at: c.created_at.toISOString(), hung_up_at: isoOrNull(c.hung_up_at),
    direction: c.direction,
  }
}

type CallDirection = typeof callDirections[number]

/** the language a call of the line was taken in (the language menu's choice) */
type CallLanguage = typeof appealLanguages[number]

/** the caller as the screen pop names them */
const popPerson = (person: { id: number, full_name: string, iin: string | null } | undefined) =>
  person ? { id: person.id, full_name: person.full_name, iin_masked: maskIin(person.iin) } : null

/** a posted answer and the line's of the same operator and caller this close together are one call */
export const TWIN_WINDOW_MS = 60_000

/** an answer as the line's events tell it */
export interface LineAnswer { call_id: string, operator_num: string, caller_phone: string | null, answered_at: Date, language: CallLanguage | null, direction?: CallDirection }
type Answer = Omit<LineAnswer, 'call_id' | 'language'> & { call_id?: string, language?: CallLanguage | null, source: CallSource }

/** a call begun longer ago than this is no longer the desk's current call, whatever its transcript */
export const CURRENT_CALL_WINDOW_MS = 2 * 3600_000

/** a console not seen for this long is offline (its instance died without saying goodbye) */
export const PRESENCE_TTL_MS = 45_000

/** told when a user's console opens or closes (the operators' availability follows it) */
export interface PresenceListener {
  opened: (userId: number) => Promise<void>
  /** `othersOpen`: another console of the user is still open, on this instance or another */
  closed: (userId: number, othersOpen: boolean) => Promise<void>
}

export function createCallEventService ({ repo, transaction, clock, live, log, control, presence, metrics }: {
  repo: CallRepo
  transaction: Transactional<CallTxRepo>
  clock: Clock
  live: Pick<LiveEvents, 'publish' | 'channel'>
  log?: { warn: (o: object, m: string) => void }
  control?: Pick<PbxControl, 'endpointStates'>
  presence?: PresenceListener
  metrics?: Pick<Metrics, 'transcription'>
}) {
  /** the event is stored already: a failed push is logged, never the caller's error */
  const push = async (event: LiveEvent) => { await live.publish(event).catch((err: unknown) => log?.warn({ err }, 'live push failed')) }

  /** the terminal's organization and employee; through `via` inside a transaction */
  async function linkTerminal (operatorNum: string, via: Pick<CallRepo, 'terminal'> = repo) {
    const terminal = await via.terminal(operatorNum)
    return { terminal_id: terminal?.id ?? null, organization_id: terminal?.organization_id ?? null, employee_id: terminal?.employee_id ?? null }
  }
  const intake = createTranscriptIntake({ repo, transaction, clock, liveChannel: live.channel, linkTerminal })

  /**
   * The call answered, stored before the answer, and the desk's screen pop. An answer the other
   * source told already (within TWIN_WINDOW_MS) is that call: it is answered again without a second
   * row or pop, the line's Linkedid naming a posted call.
   */
  async function answer (a: Answer) {
    const [link, person, previous] = await Promise.all([
      linkTerminal(a.operator_num),
      a.caller_phone === null ? undefined : repo.personByPhone(a.caller_phone),
      a.caller_phone === null ? 0 : repo.callsFrom(a.caller_phone),
    ])
    const { call, fresh } = await transaction(async (tx) => {
      await tx.lockOperatorAnswers(a.operator_num)
      const named = a.call_id === undefined ? undefined : await tx.findByCallId(a.call_id)
      if (named) return { call: named, fresh: false }
      const twin = await tx.twinAnswer({ operatorNum: a.operator_num, phone: a.caller_phone, at: a.answered_at, windowMs: TWIN_WINDOW_MS, toldBy: a.source })
      if (twin && a.call_id !== undefined) await tx.nameCall(twin.id, a.call_id)
      if (twin) return { call: { ...twin, call_id: twin.call_id ?? a.call_id ?? null }, fresh: false }
      const values = { operator_num: a.operator_num, caller_phone: a.caller_phone, answered_at: a.answered_at, person_id: person?.id ?? null, source: a.source, call_id: a.call_id, direction: a.direction ?? 'in', ...link }
      return { call: await tx.insertCall(values), fresh: true }
    })
    const result = {
      message: 'Call answered',
      call: toCallSummary(call),
      person: popPerson(person),
      previous_calls: fresh ? previous : Math.max(0, previous - 1),
    }
    if (fresh) await push({ type: 'call.answered', organization_id: call.organization_id, employee_id: call.employee_id, call: result.call, person: result.person, previous_calls: previous, language: a.language ?? null })
    return result
  }

  return {
    /** stored before the answer; the screen pop names the caller when the phone is known */
    answered: (event: CallAnsweredEvent) =>
      answer({ operator_num: event.operator_num, caller_phone: callerPhone(event.caller_phone), answered_at: new Date(event.call_datetime), source: 'posted' }),

    /**
     * An agent answered on the line (Asterisk's AgentConnect): the same screen pop as a posted answer,
     * the call named by its Linkedid and the language of the call preselected. A call also posted is
     * one call, whichever came first.
     */
    answeredOnLine: (event: LineAnswer) =>
      answer({ ...event, caller_phone: event.caller_phone === null ? null : callerPhone(event.caller_phone), source: 'line' }),

    /**
     * The caller passed on to a colleague on the line (a transfer, a three-way call its operator left):
     * the desk's record of the call, its transcript with it, goes to the colleague, whose desk pops as
     * at an answer. A call passed into another organization stays the record of the one that answered
     * it: the appeal is registered there, and its conversation so far is not the other's to read.
     */
    async passedOnLine (event: { call_id: string, operator_num: string, language: CallLanguage | null }) {
      const call = await repo.findByCallId(event.call_id)
      if (!call || call.operator_num === event.operator_num) return
      const link = await linkTerminal(event.operator_num)
      if (link.organization_id === null || link.organization_id !== call.organization_id) return
      const passed = await repo.passCall(call.id, { operator_num: event.operator_num, terminal_id: link.terminal_id, employee_id: link.employee_id })
      if (!passed) return
      const [person, previous] = await Promise.all([
        passed.caller_phone === null ? undefined : repo.personByPhone(passed.caller_phone),
        passed.caller_phone === null ? 0 : repo.callsFromBefore(passed.caller_phone, passed),
      ])
      await push({ type: 'call.answered', organization_id: passed.organization_id, employee_id: passed.employee_id, call: toCallSummary(passed), person: popPerson(person), previous_calls: previous, language: event.language })
    },

    /** the caller of a call of the line hung up: its operator is free again (the transcript may still close after) */
    hungUpOnLine: (callId: string, at: Date) => repo.hangUp(callId, at),

    /** in arrival order, once per distinct chunk; a closed call takes no more chunks (409); written by group commit */
    async transcription (event: CallTranscriptionEvent): Promise<ChunkResult> {
      try {
        const result = await intake.submit(event)
        metrics?.transcription(result.duplicate ? 'duplicate' : result.is_final ? 'final' : 'stored')
        return result
      } catch (err) {
        metrics?.transcription('refused')
        throw err
      }
    },

    async list (actor: Principal, q: CallListQuery) {
      const v = scopeOf(actor)
      if (v.organizationId !== undefined && q.organization_id !== undefined && q.organization_id !== v.organizationId) return []
      const rows = await repo.list({
        operatorNum: q.operator_num, organizationId: v.organizationId ?? q.organization_id, employeeId: v.employeeId,
        phone: q.phone === undefined ? undefined : callerPhone(q.phone), from: q.from === undefined ? undefined : new Date(q.from),
        to: q.to === undefined ? undefined : new Date(q.to), skip: q.skip, limit: q.limit,
      })
      return rows.map(toCallSummary)
    },

    /** a console connected: presence in the database, kept by beats, gone on close */
    async connectConsole (actor: Principal) {
      const id = await repo.presenceOpen(actor.id, clock())
      const who = { organization_id: actor.organization_id, employee_id: actor.id, user_id: actor.id }
      await push({ type: 'operator.online', ...who })
      // the telephony follows the console; a PBX that does not answer does not keep the console from opening
      const tell = (what: string, work: () => Promise<void> | undefined) => work()?.catch((err: unknown) => log?.warn({ err, user_id: actor.id }, `presence: ${what}`))
      void tell('the console\'s opening could not reach the telephony', () => presence?.opened(actor.id))
      return {
        beat: () => repo.presenceBeat(id, clock()),
        close: async () => {
          await repo.presenceClose(id)
          await push({ type: 'operator.offline', ...who })
          void tell('the console\'s closing could not reach the telephony', async () => presence?.closed(actor.id, await repo.consoleOpen(actor.id, new Date(clock().getTime() - PRESENCE_TTL_MS))))
        },
      }
    },

    /** the users with a console open on any instance (seen within the presence's lifetime) */
    openConsoles: async () => new Set(await repo.openConsoleUsers(new Date(clock().getTime() - PRESENCE_TTL_MS))),

    /**
     * terminals whose employee has a console open, and terminals registered in Asterisk, with their
     * current call; the caller's number in full only to a viewer whose scope holds the terminal
     */
    async onlineOperators (viewer: Principal | null) {
      const now = clock().getTime()
      const registered = control
        ? (await control.endpointStates().catch(() => [])).filter((s) => s.contacts.length > 0).map((s) => s.id)
        : []
      const rows = await repo.onlineTerminals(new Date(now - PRESENCE_TTL_MS), registered)
      const open = new Map((await repo.openCalls(rows.map((r) => r.terminal_id), new Date(now - LINK_WINDOW_MS))).map((c) => [c.operator_num, c]))
      return rows.map((r) => {
        const call = open.get(r.terminal_id)
        return {
          operator_num: r.terminal_id,
          name: r.employee_id === null ? r.terminal_name : [r.last_name, r.first_name].filter(Boolean).join(' ') || r.terminal_name,
          employee_id: r.employee_id, organization_id: r.organization_id, organization_name: r.organization_name,
          console_connected: r.console ?? false, registered: registered.includes(r.terminal_id),
          state: call ? 'on_call' : 'idle',
          caller_phone: viewer && canSee(viewer, r) ? call?.caller_phone ?? null : maskPhone(call?.caller_phone ?? null), since: call ? isoOrNull(call.answered_at ?? call.created_at) : null,
        }
      })
    },

    async get (actor: Principal, callId: string) {
      const call = await repo.findByCallId(callId)
      if (!call || !canSee(actor, call)) throw new NotFoundError('Call')
      return detailOf(call)
    },

    /**
     * The user's call still going on (its transcript open, begun within CURRENT_CALL_WINDOW_MS), as
     * the screen pop told it: a reloaded desk finds its caller again. The person is looked up again,
     * so a citizen registered during the call is known now. Undefined: no call going on.
     */
    async current (actor: Principal) {
      const call = await repo.openCallOf(actor.id, new Date(clock().getTime() - CURRENT_CALL_WINDOW_MS))
      if (!call) return undefined
      const [detail, person, previous] = await Promise.all([
        detailOf(call),
        call.person_id !== null ? repo.personById(call.person_id) : call.caller_phone === null ? undefined : repo.personByPhone(call.caller_phone),
        call.caller_phone === null ? 0 : repo.callsFromBefore(call.caller_phone, call),
      ])
      return { call: detail, person: person ? { id: person.id, full_name: person.full_name, iin_masked: maskIin(person.iin) } : null, previous_calls: previous }
    },
  }

  async function detailOf (call: CallRow) {
    const chunks = await repo.chunksOf(call.id)
    return { ...toCallSummary(call), transcript: call.transcript, chunks: chunks.map((c) => ({ ...c, received_at: c.received_at.toISOString() })) }
  }
}

export type CallEventService = ReturnType<typeof createCallEventService>
