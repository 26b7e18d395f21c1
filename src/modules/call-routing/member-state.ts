// An operator's state as Asterisk's queue member says it (DESIGN 9): one model for the desk (read
// from QueueStatus when asked) and the line's board (folded from the events as they come), so the
// two never name or judge a state differently.
import type { memberStateNames } from '../../db/schema/index.js'
import { OFFLINE_PAUSE_REASON } from '../../integrations/asterisk/names.js'

/** ready, ringing, on_call, wrap_up (the queue's wrapuptime after a call), break (paused with a reason), offline (unreachable, in no queue, or paused as offline) */
export type MemberStateName = typeof memberStateNames[number]

/** one queue membership of a member, as QueueStatus' QueueMember or a member event gives it */
export interface Membership {
  /** Asterisk's device status: 1 not in use, 2 in use, 3 busy, 4 invalid, 5 unavailable, 6 ringing, 7 ringing in use, 8 on hold */
  status: number
  inCall: boolean
  paused: boolean
  /** the pause's reason; empty when none */
  reason: string
}

const TALKING = new Set([2, 3, 8])
const RINGING = new Set([6, 7])
const UNREACHABLE = new Set([4, 5])
/** the state that tells most of an operator with several terminals: the busiest first */
const PRECEDENCE: MemberStateName[] = ['on_call', 'ringing', 'wrap_up', 'ready', 'break', 'offline']

export interface MemberStateNow { state: MemberStateName, reason: string | null }

/**
 * A member's state from its memberships, oldest news first (the device status is the latest
 * membership's: a device change reaches each queue's membership in turn); `ringing` and
 * `wrapupUntil` are what only the events tell (an agent rung, the wrap-up after its call).
 */
export function memberState (memberships: Membership[], { ringing = false, wrapupUntil = null, at = new Date() }: { ringing?: boolean, wrapupUntil?: Date | null, at?: Date } = {}): MemberStateNow {
  const latest = memberships.at(-1)
  if (latest && UNREACHABLE.has(latest.status)) return { state: 'offline', reason: null }
  if (memberships.some((q) => q.inCall || TALKING.has(q.status))) return { state: 'on_call', reason: null }
  if (ringing || memberships.some((q) => RINGING.has(q.status))) return { state: 'ringing', reason: null }
  if (wrapupUntil && wrapupUntil > at) return { state: 'wrap_up', reason: null }
  // a member of no queue takes no calls
  if (memberships.length === 0) return { state: 'offline', reason: null }
  if (memberships.every((q) => q.paused)) {
    const reason = memberships.find((q) => q.reason)?.reason ?? null
    return reason === OFFLINE_PAUSE_REASON ? { state: 'offline', reason } : { state: 'break', reason }
  }
  return { state: 'ready', reason: null }
}

/** an operator at several terminals: the state of the busiest */
export const busiestState = (states: MemberStateNow[]): MemberStateNow | undefined =>
  [...states].sort((a, b) => PRECEDENCE.indexOf(a.state) - PRECEDENCE.indexOf(b.state))[0]

/** a call in progress or coming: the member is not waiting for one */
export const engaged = (state: MemberStateName) => state === 'on_call' || state === 'ringing' || state === 'wrap_up'
