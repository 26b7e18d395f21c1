// A citizen's call as Asterisk's own events tell it (DESIGN 9): folded from the AMI's call and agent
// events into one record per call, keyed by the caller's `Linkedid`. Pure: events and the time each
// arrived in, records out (AMI events carry no time of their own).
//
// Asterisk's words are not the centre's, and the record says what happened:
// - a `Queue()` timeout arrives as `QueueCallerAbandon` too: only a caller whose own hang-up
//   (`HangupRequest`) came first abandoned; the others timed out and went on in the dialplan;
// - `RingTime` is seconds in `AgentConnect` and milliseconds in `AgentRingNoAnswer`;
// - `AgentComplete` is published on the queue's topic, the caller's other events on its channel's:
//   it may come before or after the caller's `Hangup` (the record waits for it a while);
// - the channel in the queue may be a Local channel's `;2` leg, not the caller's own (whose
//   Uniqueid is the Linkedid): the call is the Linkedid's whichever leg joined.
// What happens before a queue only the generated dialplan tells (`UserEvent AppealsCall`, class
// `user`): the line entered and its organization, `Closed` when its schedule had it closed, `Menu`
// on entering a menu, `Choice` (and `ChosenLanguage`) or `Exit` (timeout, invalid) on leaving it, `Sent`
// when the routing ends the call itself (announcement, terminal, hangup), `Refused` for a number no
// line owns, `Rating` (1-5) from the queue's rating menu after the operator hung up, and `Callback`
// when a waiting caller pressed the queue's callback digit (they leave the queue to be called back).
// The call's path (`legs`) is who talked with the caller when: a terminal's channel (or a trunk's, a
// number outside) in the caller's bridge or in one piped to it through a Local channel's two halves
// (`BridgeEnter`, `BridgeLeave`; path.ts), however it got there: answered from a queue, passed on
// (`BlindTransfer`, `AttendedTransfer`, whose `DestType` `Threeway` is a three-way call), or back
// from a consultation.
import { interfaceOfChannel, isCallAnnouncement, readCallAnnouncement } from '../../integrations/asterisk/names.js'
import { appealLanguages, type lineCallOutcomes, type menuExits } from '../../db/schema/index.js'
import { createCallPath, type CallLeg, type CallPath } from './path.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'

/** `unobserved`: the call left its queue while the events were not heard (a gap in the connection) */
export type CallOutcome = typeof lineCallOutcomes[number]
export type MenuExit = typeof menuExits[number]

/** an agent rung for the call: its queue member's interface (`PJSIP/<terminal>`) and name */
export interface AgentAttempt {
  interface: string
  member_name: string
  rung_at: Date
  result: 'ringing' | 'no_answer' | 'answered' | 'not_answered'
  ring_seconds: number | null
}

/** a queue the call left by its time limit before joining another (an overflow) */
/**
 * A queue the call left before `queue`: by its time limit (an overflow), or answered there and passed
 * on (a transfer into another queue). Each queue counts the call in its own figures, and in its own
 * organization's (the service fills in what it knows of the queue: its organization, service level, wrap-up).
 */
export interface QueueLeg {
  queue: string, joined_at: Date, hold_seconds: number | null
  /** who answered it there (null: it timed out), when, and how long they talked before passing it on */
  answered_by: string | null, answered_at: Date | null, talk_seconds: number | null
  organization_id?: number | null, service_level_seconds?: number | null, wrapup_seconds?: number | null
}

export interface LineCall {
  /** Asterisk's Linkedid: the call's id everywhere (the call events' `call_id`) */
  linkedid: string
  caller_number: string | null
  /** announced by the generated dialplan (UserEvent AppealsCall) */
  line: string | null
  organization_prefix: string | null
  /** the last menu entered (UserEvent's `Menu`) */
  menu_id: number | null
  menu_choice: string | null
  /** how the caller left the last menu entered; null: no menu, or in it still */
  menu_exit: MenuExit | null
  /** the line's schedule had it closed */
  closed: boolean
  /** the language menu's choice, else the caller channel's language when it is one of the centre's */
  language: CallLanguage | null
  queue: string | null
  joined_at: Date | null
  position: number | null
  attempts: AgentAttempt[]
  /** the queues it left before `queue`: timed out of, or answered in and passed on from */
  earlier_queues: QueueLeg[]
  /** who talked with the caller, in order */
  legs: CallLeg[]
  answered_by: string | null
  answered_at: Date | null
  /** Asterisk's HoldTime: seconds from joining the queue to the answer, or to leaving it */
  hold_seconds: number | null
  talk_seconds: number | null
  /** who ended an answered call (AgentComplete's Reason: caller, agent or transfer) */
  ended_by: string | null
  outcome: CallOutcome
  /** the citizen's score from the queue's rating menu (1-5) */
  rating: number | null
  started_at: Date
  ended_at: Date | null
}

const integer = (m: AmiMessage, key: string): number | null => {
  const value = Number(field(m, key))
  return Number.isFinite(value) && field(m, key) !== undefined ? value : null
}
const secondsBetween = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))
const known = (value: string | undefined) => (value === undefined || value === '' || value === '<unknown>' ? null : value)
/** the centre's languages (an appeal's); a channel's own `Language` is Asterisk's default (`en`) until the dialplan sets it */
export type CallLanguage = typeof appealLanguages[number]
const callLanguage = (value: string | undefined): CallLanguage | null => appealLanguages.find((l) => l === value) ?? null

/** a call as its first event finds it: on the line, before any queue */
export const newCall = (linkedid: string, callerNumber: string | null, at: Date): LineCall => ({
  linkedid, caller_number: callerNumber, line: null, organization_prefix: null, menu_id: null, menu_choice: null, menu_exit: null, closed: false, language: null,
  queue: null, joined_at: null, position: null, attempts: [], earlier_queues: [], legs: [], answered_by: null, answered_at: null, hold_seconds: null,
  talk_seconds: null, ended_by: null, outcome: 'entered', rating: null, started_at: at, ended_at: null,
})

/** the call an event is of: a transfer's is the transferred caller's */
const linkedidOf = (m: AmiMessage) => field(m, 'Linkedid') ?? field(m, 'TransfereeLinkedid')

/** the destinations that end a call on the line itself (`Sent`): the outcome of a call never queued */
const routedEnds = ['announced', 'terminal', 'hangup'] as const satisfies readonly CallOutcome[]
const menuExitOf = (value: string | undefined) => (['timeout', 'invalid'] as const).find((e) => e === value)

/** a call's bridge events kept while the call is not known yet (a few: its channels entering and leaving) */
const EARLY_EVENTS_KEPT = 16

/** how many ended calls' ids are remembered (far more than end while a status is read), and answered ones awaiting their AgentComplete */
const RECENTLY_ENDED_KEPT = 1000

/** a bounded memory of the latest keys: the oldest forgotten first */
function remember<V> (map: Map<string, V>, key: string, value: V): void {
  map.delete(key)
  map.set(key, value)
  if (map.size > RECENTLY_ENDED_KEPT) map.delete(map.keys().next().value!)
}

/**
 * Folds events into calls. `apply` answers the call an event changed (undefined when it concerned
 * none); a call leaves `inProgress` with the caller's hang-up, its record complete.
 */
export function createCallTracker () {
  const calls = new Map<string, LineCall>()
  /** callers whose own hang-up request came while they waited in a queue */
  const hungUp = new Set<string>()
  /** the calls whose caller hung up lately, known or not: a call read back from Asterisk's status as it ends is not taken up again */
  const ended = new Map<string, true>()
  const endedLately = (linkedid: string) => remember(ended, linkedid, true)
  /** answered calls that ended before their AgentComplete came (it is the queue's event, not the channel's) */
  const completing = new Map<string, LineCall>()
  /** the channel that joined each call's queue, when not the caller's own (a Local channel's `;2` leg) */
  const queueLegs = new Map<string, string>()
  /** what is kept of a call while it goes on, let go at its end */
  function forget (linkedid: string): void {
    calls.delete(linkedid)
    onAnotherLine.delete(linkedid)
    hungUp.delete(linkedid)
    queueLegs.delete(linkedid)
    paths.delete(linkedid)
  }
  /** the caller's own channel (whose Uniqueid is the Linkedid): its hang-up ends the call */
  const callerChannel = (m: AmiMessage) => field(m, 'Uniqueid') === field(m, 'Linkedid')
  /** the caller's side of the call: its own channel, or the leg it waits in a queue on */
  const callerSide = (m: AmiMessage) => callerChannel(m) || (field(m, 'Uniqueid') !== undefined && queueLegs.get(field(m, 'Linkedid') ?? '') === field(m, 'Uniqueid'))

  /** each call's path (path.ts), while it goes on */
  const paths = new Map<string, CallPath>()
  /** the paths of calls that ended lately: a terminal's bridge events may come after the caller's hang-up */
  const endedPaths = new Map<string, { call: LineCall, path: CallPath }>()
  const pathOf = (call: LineCall): CallPath => {
    let path = paths.get(call.linkedid) ?? endedPaths.get(call.linkedid)?.path
    if (!path) paths.set(call.linkedid, path = createCallPath(call.linkedid))
    return path
  }
  /** the legs worked out again; false when they are as they were */
  function followPath (call: LineCall): boolean {
    const legs = pathOf(call).legs(call.ended_at)
    if (JSON.stringify(legs) === JSON.stringify(call.legs)) return false
    call.legs = legs
    return true
  }

  /**
   * Bridge events of a call not known yet: an agent's channel's events are not ordered with the
   * caller's, so its BridgeEnter may come before the call's first event. Bounded: most are of
   * calls that never become the line's (a terminal calling another).
   */
  const early = new Map<string, { message: AmiMessage, at: Date }[]>()
  function keepEarly (linkedid: string, message: AmiMessage, at: Date): void {
    const kept = early.get(linkedid) ?? []
    if (kept.length < EARLY_EVENTS_KEPT) kept.push({ message, at })
    remember(early, linkedid, kept)
  }

  /** a call begins with the dialplan's announcement or with joining a queue; other events only add to one */
  const callOf = (m: AmiMessage, at: Date, event: string): LineCall | undefined => {
    const linkedid = linkedidOf(m)
    if (!linkedid) return undefined
    let call = calls.get(linkedid)
    if (!call && (event === 'QueueCallerJoin' || isCallAnnouncement(m))) {
      call = newCall(linkedid, known(field(m, 'CallerIDNum')), at)
      calls.set(linkedid, call)
      for (const e of early.get(linkedid) ?? []) handlers[field(e.message, 'Event')!]?.(call, e.message, e.at)
      early.delete(linkedid)
    }
    return call
  }
  /** the agent's attempt still ringing (an agent is rung again after others: the latest) */
  const attemptOf = (call: LineCall, m: AmiMessage) => [...call.attempts].reverse().find((a) => a.interface === field(m, 'Interface') && a.result === 'ringing')

  /** the call leaves its queue for another: the queue keeps its part, and the next one starts with no answer */
  function leaveQueue (call: LineCall, at: Date): void {
    const answered = call.answered_by !== null && call.answered_at !== null
    call.earlier_queues.push({
      queue: call.queue!, joined_at: call.joined_at!, hold_seconds: call.hold_seconds,
      answered_by: answered ? call.answered_by : null, answered_at: answered ? call.answered_at : null,
      // until its AgentComplete tells Asterisk's figure, the talk is the time since the answer
      talk_seconds: answered ? call.talk_seconds ?? secondsBetween(call.answered_at!, at) : null,
    })
    call.hold_seconds = null
    call.answered_by = null
    call.answered_at = null
    call.talk_seconds = null
    call.ended_by = null
  }

  /** the calls passed on by a transfer into another line's dialplan */
  const onAnotherLine = new Set<string>()
  function keepRatingAndCallback (call: LineCall, said: NonNullable<ReturnType<typeof readCallAnnouncement>>): void {
    const rating = Number(said.Rating)
    if (Number.isInteger(rating) && rating >= 1 && rating <= 5) call.rating = rating
    // the caller pressed the queue's callback digit: they left it keeping their place
    if (said.Callback !== undefined && call.joined_at !== null) call.outcome = 'callback'
  }

  /** the handlers change the call, and say `false` when an event changed nothing of its record (a bridge of no terminal) */
  const handlers: Record<string, (call: LineCall, m: AmiMessage, at: Date) => void | boolean> = {
    BridgeEnter: (call, m, at) => {
      // an outgoing channel's caller ID is the party it called: a number outside, on a trunk's channel
      const party = known(field(m, 'CallerIDNum'))
      const number = party === null ? null : (normalizeKzPhone(party) ?? party).slice(0, 32)
      pathOf(call).enter(field(m, 'Uniqueid') ?? '', field(m, 'Channel') ?? '', field(m, 'BridgeUniqueid') ?? '', at, number)
      return followPath(call)
    },
    BridgeLeave: (call, m, at) => {
      pathOf(call).leave(field(m, 'Uniqueid') ?? '', field(m, 'BridgeUniqueid') ?? '', at)
      return followPath(call)
    },
    BlindTransfer: (call, m, at) => {
      if (field(m, 'Result') !== 'Success') return false
      pathOf(call).transferred({ at, how: 'blind', from: interfaceOfChannel(field(m, 'TransfererChannel')) ?? null })
      return followPath(call)
    },
    AttendedTransfer: (call, m, at) => {
      if (field(m, 'Result') !== 'Success') return false
      pathOf(call).transferred({ at, how: field(m, 'DestType') === 'Threeway' ? 'three_way' : 'attended', from: interfaceOfChannel(field(m, 'OrigTransfererChannel')) ?? null })
      return followPath(call)
    },
    UserEvent: (call, m) => {
      const said = readCallAnnouncement(m)
      if (!said) return
      // the line the citizen called (a refused number is the caller's: kept to the column's length);
      // a call passed on to another line by a transfer stays the first line's: that line's calendar,
      // menu and language are not the first line's (its queue's callback digit and rating still count)
      const line = known(said.Line)?.slice(0, 32) ?? null
      if (line !== null && call.line !== null && line !== call.line) onAnotherLine.add(call.linkedid)
      call.line ??= line
      if (onAnotherLine.has(call.linkedid)) {
        keepRatingAndCallback(call, said)
        return
      }
      call.organization_prefix = said.Organization ?? call.organization_prefix
      call.language = callLanguage(said.ChosenLanguage) ?? call.language
      if (said.Closed === '1') call.closed = true
      keepRatingAndCallback(call, said)
      const queued = call.joined_at !== null
      if (said.Refused === '1' && !queued) call.outcome = 'refused'
      const sent = routedEnds.find((r) => r === said.Sent)
      if (sent && !queued) call.outcome = sent
      const menu = Number(said.Menu)
      if (!Number.isSafeInteger(menu)) return
      call.menu_id = menu
      const exit = menuExitOf(said.Exit)
      if (said.Choice !== undefined) { call.menu_choice = said.Choice; call.menu_exit = 'choice' } else if (exit !== undefined) call.menu_exit = exit
      else { call.menu_choice = null; call.menu_exit = null } // entering it
    },
    QueueCallerJoin: (call, m, at) => {
      // its queue on a Local channel's leg (the path follows the caller through the Local channel's bridges)
      if (!callerChannel(m) && field(m, 'Uniqueid')) queueLegs.set(call.linkedid, field(m, 'Uniqueid')!)
      // an overflow, or a call passed on into another queue: the queue it left keeps its part
      if (call.queue !== null && call.joined_at !== null) leaveQueue(call, at)
      call.queue = field(m, 'Queue') ?? null
      call.joined_at = at
      call.position = integer(m, 'Position')
      call.language ??= callLanguage(field(m, 'Language'))
      call.outcome = 'waiting'
    },
    AgentCalled: (call, m, at) => {
      call.attempts.push({ interface: field(m, 'Interface') ?? '', member_name: field(m, 'MemberName') ?? '', rung_at: at, result: 'ringing', ring_seconds: null })
    },
    AgentRingNoAnswer: (call, m) => {
      const attempt = attemptOf(call, m)
      if (!attempt) return
      attempt.result = 'no_answer'
      const ms = integer(m, 'RingTime')
      attempt.ring_seconds = ms === null ? null : ms / 1000
    },
    AgentConnect: (call, m, at) => {
      const attempt = attemptOf(call, m)
      if (attempt) { attempt.result = 'answered'; attempt.ring_seconds = integer(m, 'RingTime') }
      call.answered_by = field(m, 'Interface') ?? null
      call.answered_at = at
      call.hold_seconds = integer(m, 'HoldTime')
      call.language ??= callLanguage(field(m, 'Language'))
      call.outcome = 'answered'
      if (call.answered_by !== null) pathOf(call).answered(call.answered_by)
      followPath(call) // a leg heard before the answer came from the queue
    },
    AgentComplete: (call, m) => {
      // the answer of a queue the call was passed on from (its AgentComplete may come after the next queue's join)
      if (field(m, 'Interface') !== call.answered_by) {
        const left = [...call.earlier_queues].reverse().find((l) => l.queue === field(m, 'Queue') && l.answered_by === field(m, 'Interface'))
        if (left) left.talk_seconds = integer(m, 'TalkTime') ?? left.talk_seconds
        return left !== undefined
      }
      call.talk_seconds = integer(m, 'TalkTime')
      call.ended_by = field(m, 'Reason') ?? null
    },
    HangupRequest: (call, m) => { if (callerSide(m) && call.outcome === 'waiting') hungUp.add(call.linkedid) },
    QueueCallerAbandon: (call, m) => {
      call.hold_seconds = integer(m, 'HoldTime')
      call.outcome = hungUp.has(call.linkedid) ? 'abandoned' : 'timed_out'
      for (const a of call.attempts) if (a.result === 'ringing') a.result = 'not_answered'
    },
    Hangup: (call, m, at) => {
      if (!callerChannel(m)) return
      endedLately(call.linkedid)
      // until its AgentComplete tells Asterisk's figure, the talk is the time since the answer
      if (call.answered_at !== null && call.talk_seconds === null) {
        call.talk_seconds = secondsBetween(call.answered_at, at)
        remember(completing, call.linkedid, call)
      }
      if (call.outcome === 'waiting') call.outcome = 'abandoned'
      if (call.outcome === 'entered') call.outcome = 'ended'
      if (call.menu_id !== null && call.menu_exit === null) call.menu_exit = 'hangup'
      for (const a of call.attempts) if (a.result === 'ringing') a.result = 'not_answered'
      call.ended_at = at
      followPath(call)
      remember(endedPaths, call.linkedid, { call, path: pathOf(call) })
      forget(call.linkedid)
    },
  }

  return {
    apply (m: AmiMessage, at: Date): LineCall | undefined {
      const event = field(m, 'Event') ?? ''
      const handler = handlers[event]
      if (!handler) return undefined
      const linkedid = linkedidOf(m) ?? ''
      const late = event === 'AgentComplete' ? completing.get(linkedid) : event.startsWith('Bridge') ? endedPaths.get(linkedid)?.call : undefined
      const call = callOf(m, at, event) ?? late
      if (!call) {
        if (event === 'Hangup' && callerChannel(m)) endedLately(linkedid)
        if (event.startsWith('Bridge') && linkedid !== '') keepEarly(linkedid, m, at)
        return undefined
      }
      const changed = handler(call, m, at) !== false
      if (late && event === 'AgentComplete') completing.delete(linkedid)
      return changed ? call : undefined
    },
    /** the calls not yet ended */
    inProgress: () => [...calls.values()],
    /** a call not yet ended, as it is now */
    call: (linkedid: string): LineCall | undefined => calls.get(linkedid),
    /** a call in progress learnt otherwise (Asterisk's status after a gap, or the record another instance kept): its next events go on from it; false when it was known already, or has ended meanwhile */
    adopt (call: LineCall): boolean {
      if (ended.has(call.linkedid) || calls.has(call.linkedid)) return false
      calls.set(call.linkedid, call)
      const path = createCallPath(call.linkedid, call.legs)
      if (call.answered_by !== null) path.answered(call.answered_by)
      paths.set(call.linkedid, path)
      return true
    },
    /** a call whose end a gap hid is over; false when its end was heard after all */
    close (linkedid: string): boolean {
      forget(linkedid)
      return !ended.has(linkedid)
    },
  }
}

export type CallTracker = ReturnType<typeof createCallTracker>
