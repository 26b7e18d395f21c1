// The agents' states as Asterisk tells them (DESIGN 9: Asterisk is the truth). Pure: events and the
// time each arrived in, states out. QueueMemberStatus and QueueMemberPause each carry a member's whole
// state in one queue (device status, in call, paused and why); the wrap-up shows in no status, so it
// is the queue's `wrapuptime` from the agent's AgentComplete on.
import { field, type AmiMessage } from '../../integrations/ami/protocol.js'
import { memberState, type MemberStateName, type Membership } from '../call-routing/member-state.js'

/** Asterisk's device statuses a call's end leaves behind it: in use, busy, on hold */
const TALKING = new Set([2, 3, 8])

/** a queue member's state as it changed: the board's row, and the period it opens */
export interface MemberState {
  /** the queue member: `PJSIP/<terminal>` */
  interface: string
  member_name: string
  state: MemberStateName
  /** a break's reason; null otherwise */
  reason: string | null
  since: Date
  /** while in wrap-up: when it ends */
  wrapup_until: Date | null
}

/** a member: each queue's membership as the latest member event of that queue said, and what only the events tell */
interface Member { name: string, queues: Map<string, Membership>, ringing: boolean, wrapupUntil: Date | null, current: MemberState | undefined }

/** a membership as QueueStatus' QueueMember or the member events give it */
export interface MemberFacts { queue: string, interface: string, name?: string, status: number, inCall: boolean, paused: boolean, reason: string }

export function createMemberTracker () {
  const members = new Map<string, Member>()

  const memberOf = (iface: string, name?: string): Member => {
    let member = members.get(iface)
    if (!member) members.set(iface, member = { name: name ?? iface, queues: new Map(), ringing: false, wrapupUntil: null, current: undefined })
    if (name) member.name = name
    return member
  }

  /** the member's state now; the changed state, or undefined when it stayed the same */
  function settle (iface: string, m: Member, at: Date): MemberState | undefined {
    const { state, reason } = memberState([...m.queues.values()], { ringing: m.ringing, wrapupUntil: m.wrapupUntil, at })
    if (m.current && m.current.state === state && m.current.reason === reason) return undefined
    const since = state === 'ready' && m.current?.state === 'wrap_up' && m.wrapupUntil && m.wrapupUntil <= at ? m.wrapupUntil : at
    m.current = { interface: iface, member_name: m.name, state, reason, since, wrapup_until: state === 'wrap_up' ? m.wrapupUntil : null }
    return m.current
  }

  const membership = (m: AmiMessage): Membership => ({
    status: Number(field(m, 'Status') ?? 0), inCall: field(m, 'InCall') === '1', paused: field(m, 'Paused') === '1', reason: field(m, 'PausedReason') ?? '',
  })

  return {
    /** an AMI event; `wrapupSeconds`: the wrap-up of the call an AgentComplete ends */
    apply (m: AmiMessage, at: Date, wrapupSeconds = 0): MemberState | undefined {
      const event = field(m, 'Event')
      const iface = field(m, 'Interface')
      if (!iface) return undefined
      const member = memberOf(iface, field(m, 'MemberName'))
      switch (event) {
        case 'QueueMemberStatus':
        case 'QueueMemberPause':
        case 'QueueMemberAdded':
          member.queues.set(field(m, 'Queue') ?? '', membership(m))
          // the member's device status says whether it rings (a caller who leaves while it rings brings no AgentRingNoAnswer)
          member.ringing = false
          break
        case 'QueueMemberRemoved':
          member.queues.delete(field(m, 'Queue') ?? '')
          break
        case 'AgentCalled': member.ringing = true; break
        case 'AgentRingNoAnswer': member.ringing = false; break
        case 'AgentConnect': member.ringing = false; member.wrapupUntil = null; break
        case 'AgentComplete':
          member.wrapupUntil = wrapupSeconds > 0 ? new Date(at.getTime() + wrapupSeconds * 1000) : null
          // Asterisk's own member status turns free with the call: the wrap-up is ours to show
          for (const q of member.queues.values()) { q.inCall = false; if (TALKING.has(q.status)) q.status = 1 }
          break
        default: return undefined
      }
      return settle(iface, member, at)
    },

    /** every membership as QueueStatus gives it (after a connection, which may have missed events); the states that changed */
    reconcile (facts: MemberFacts[], at: Date): MemberState[] {
      const seen = new Map<string, Member>()
      for (const f of facts) {
        const member = memberOf(f.interface, f.name)
        if (!seen.has(f.interface)) { member.queues.clear(); member.ringing = false; seen.set(f.interface, member) }
        member.queues.set(f.queue, { status: f.status, inCall: f.inCall, paused: f.paused, reason: f.reason })
      }
      for (const [iface, member] of members) if (!seen.has(iface)) { member.queues.clear(); member.ringing = false }
      return [...members].map(([iface, m]) => settle(iface, m, at)).filter((s) => s !== undefined)
    },

    /** the wrap-ups over by `at`: those agents' new states */
    tick: (at: Date): MemberState[] =>
      [...members].filter(([, m]) => m.wrapupUntil && m.wrapupUntil <= at && m.current?.state === 'wrap_up').map(([iface, m]) => settle(iface, m, at)).filter((s) => s !== undefined),

    states: () => [...members.values()].map((m) => m.current).filter((s) => s !== undefined),
  }
}

export type MemberTracker = ReturnType<typeof createMemberTracker>
