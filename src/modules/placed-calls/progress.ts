// A placed call as Asterisk's events tell it (DESIGN 10). The call's Linkedid is the service's own
// (Originate's ChannelId): `<epoch seconds>.<7,000,000,000 + the row's id>`. Asterisk numbers its
// channels `<epoch>.<a count from its start>`, which never reaches seven thousand million, so an
// event names a placed call by its Linkedid alone, on whichever instance reads the events.
//
// What each event does to the row (a pure function: event in, change out):
// - `OriginateResponse` Success: the user answered their phone; Failure: it was not answered,
//   busy, or could not be rung (its Reason: 3 no answer, 5 busy, 1 hung up, 8 congestion, 0 failed);
// - `DialBegin` from the user's channel: the citizen is being rung (a route tries its trunks in
//   turn: each a DialBegin and a DialEnd); `DialEnd` ANSWER: connected; another DialStatus kept as
//   the reason in case it was the last;
// - the user's channel's `Hangup`: the end, and what it ended as.
import type { placedCallSides, placedCallStatuses } from '../../db/schema/index.js'
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'
import type { PlacedCallChange, PlacedCallRow } from './repo.js'

export type PlacedStatus = typeof placedCallStatuses[number]
type Side = typeof placedCallSides[number]

const PLACED_BASE = 7_000_000_000

export const placedLinkedid = (id: number, at: Date) => `${Math.floor(at.getTime() / 1000)}.${PLACED_BASE + id}`

/** the placed call's id a Linkedid names, or undefined for any other call */
export function placedIdOf (linkedid: string | undefined): number | undefined {
  const m = /^[0-9]{1,20}\.([0-9]{10})$/.exec(linkedid ?? '')
  const n = m ? Number(m[1]) - PLACED_BASE : -1
  return n > 0 ? n : undefined
}

/** what an event asks of a call: a change while it is live, or its end (worked out from the row as it is) */
export type Step =
  | { kind: 'change', change: PlacedCallChange, from?: readonly PlacedStatus[] }
  | { kind: 'end', at: Date, cause: string | null, causeText: string | null }
  | { kind: 'originate_failed', at: Date, reason: number }

const failed = (status: PlacedStatus, side: Side, reason: string | null, at: Date): PlacedCallChange =>
  ({ status, failed_side: side, reason, ended_at: at })

/** the user's phone not answered: Originate's reason */
export function originateFailure (reason: number, at: Date): PlacedCallChange {
  if (reason === 3 || reason === 1) return failed('no_answer', 'you', reason === 3 ? 'NOANSWER' : 'HANGUP', at)
  if (reason === 5) return failed('busy', 'you', 'BUSY', at)
  return failed('failed', 'you', reason === 8 ? 'CONGESTION' : 'CHANUNAVAIL', at)
}

/** the user's channel hung up: how the call ended, from where it had got to */
export function endOf (row: Pick<PlacedCallRow, 'status' | 'reason' | 'answered_at' | 'connected_at'>, step: Extract<Step, { kind: 'end' }>): PlacedCallChange {
  const { at } = step
  if (row.status === 'connected') {
    return { status: 'ended', ended_at: at, talk_seconds: Math.max(0, Math.round((at.getTime() - (row.connected_at ?? at).getTime()) / 1000)) }
  }
  if (row.status === 'ringing_citizen') {
    const dial = row.reason
    if (dial === 'BUSY') return failed('busy', 'citizen', dial, at)
    // CANCEL: the user hung up while the citizen's phone rang
    if (dial === 'NOANSWER' || dial === 'CANCEL' || dial === null) return failed('no_answer', 'citizen', dial ?? 'CANCEL', at)
    return failed('failed', 'citizen', dial, at)
  }
  // still ringing the user: their phone's answer (Q.850 cause) says why
  if (row.answered_at !== null) return failed('failed', 'citizen', step.causeText ?? 'not dialled', at)
  if (step.cause === '17' || step.cause === '21') return failed('busy', 'you', step.causeText, at)
  if (step.cause === '18' || step.cause === '19' || step.cause === '16') return failed('no_answer', 'you', step.causeText, at)
  return failed('failed', 'you', step.causeText, at)
}

/** the user's own channel: the one Originate made, whose Uniqueid is the Linkedid */
const own = (m: AmiMessage) => field(m, 'Uniqueid') === field(m, 'Linkedid')

/** what an event of a placed call asks; undefined: nothing */
export function stepOf (m: AmiMessage, at: Date): Step | undefined {
  switch (field(m, 'Event')) {
    case 'OriginateResponse':
      if (field(m, 'Response') === 'Success') return { kind: 'change', change: { answered_at: at } }
      return { kind: 'originate_failed', at, reason: Number(field(m, 'Reason') ?? 0) }
    case 'DialBegin':
      return own(m) ? { kind: 'change', change: { status: 'ringing_citizen', reason: null, answered_at: at }, from: ['ringing_you', 'ringing_citizen'] } : undefined
    case 'DialEnd': {
      if (!own(m)) return undefined
      const status = field(m, 'DialStatus') ?? ''
      if (status === 'ANSWER') return { kind: 'change', change: { status: 'connected', connected_at: at, reason: null }, from: ['ringing_you', 'ringing_citizen'] }
      return { kind: 'change', change: { reason: status.slice(0, 64) }, from: ['ringing_citizen'] }
    }
    case 'Hangup':
      return own(m) ? { kind: 'end', at, cause: field(m, 'Cause') ?? null, causeText: field(m, 'Cause-txt')?.slice(0, 64) ?? null } : undefined
    default:
      return undefined
  }
}

/** the events' Linkedid (OriginateResponse names the channel by Uniqueid: the ChannelId it was given) */
export const linkedidOf = (m: AmiMessage) => field(m, 'Event') === 'OriginateResponse' ? field(m, 'Uniqueid') : field(m, 'Linkedid')
