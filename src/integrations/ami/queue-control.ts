import { AmiError, type AmiClient } from './client.js'
import { field, type AmiMessage } from './protocol.js'

/** a queue member as Asterisk reports it (QueueStatus' QueueMember) */
export interface QueueMemberState {
  queue: string
  /** `PJSIP/<terminal id>` */
  interface: string
  paused: boolean
  /** the reason given with the pause; empty when none */
  reason: string
  /** Asterisk's device status of the member (1 not in use, 2 in use, 5 unavailable, 6 ringing...) */
  status: number
  inCall: boolean
}

/** a caller waiting in a queue as Asterisk reports it (QueueStatus' QueueEntry) */
export interface QueueCallerState {
  queue: string
  /** the caller's channel's Uniqueid: a citizen's call begins with it, so it is the call's Linkedid (QueueEntry carries no Linkedid) */
  uniqueid: string
  position: number
  /** as Asterisk writes it: `unknown` when none */
  callerNumber: string
  /** seconds waited so far */
  waitSeconds: number
}

/** What the service asks of Asterisk's queues: pausing a member everywhere, and every member's state. */
export interface QueueControl {
  /** pauses (with a reason) or unpauses an interface in every queue it is a member of; false when it is a member of none */
  pause: (iface: string, paused: boolean, reason?: string) => Promise<boolean>
  /** every member, or (`iface`) the memberships of one interface only */
  members: (iface?: string) => Promise<QueueMemberState[]>
  /** every member and every caller waiting (of one queue), in one QueueStatus */
  status: (queue?: string) => Promise<{ members: QueueMemberState[], callers: QueueCallerState[] }>
  /** the calls on the PBX now, queued or not (CoreShowChannels): the Linkedids of its channels */
  liveCalls: () => Promise<Set<string>>
}

const flag = (m: AmiMessage, key: string) => field(m, key) === '1'

const memberOf = (e: AmiMessage): QueueMemberState => ({
  queue: field(e, 'Queue') ?? '',
  interface: field(e, 'Location') ?? '',
  paused: flag(e, 'Paused'),
  reason: field(e, 'PausedReason') ?? '',
  status: Number(field(e, 'Status') ?? 0),
  inCall: flag(e, 'InCall'),
})

const callerOf = (e: AmiMessage): QueueCallerState => ({
  queue: field(e, 'Queue') ?? '',
  uniqueid: field(e, 'Uniqueid') ?? '',
  position: Number(field(e, 'Position') ?? 0),
  callerNumber: field(e, 'CallerIDNum') ?? '',
  waitSeconds: Number(field(e, 'Wait') ?? 0),
})

export function amiQueueControl (ami: AmiClient): QueueControl {
  async function queueStatus (iface?: string, queue?: string): Promise<AmiMessage[]> {
    // QueueStatus' Member filter: one operator's desk asks for its own terminals, not every member of every queue
    const { response, events } = await ami.list({ Action: 'QueueStatus', ...(iface ? { Member: iface } : {}), ...(queue ? { Queue: queue } : {}) })
    if (field(response, 'Response') !== 'Success') throw new AmiError(`QueueStatus: ${field(response, 'Message') ?? 'refused'}`)
    return events
  }
  const of = (events: AmiMessage[], event: string) => events.filter((e) => field(e, 'Event') === event)
  return {
    async pause (iface, paused, reason) {
      const response = await ami.action({ Action: 'QueuePause', Interface: iface, Paused: paused ? 'true' : 'false', ...(paused && reason ? { Reason: reason } : {}) })
      if (field(response, 'Response') === 'Success') return true
      if (field(response, 'Message') === 'Interface not found') return false
      throw new AmiError(`QueuePause ${iface}: ${field(response, 'Message') ?? 'refused'}`)
    },
    members: async (iface) => of(await queueStatus(iface), 'QueueMember').map(memberOf),
    async status (queue) {
      const events = await queueStatus(undefined, queue)
      return { members: of(events, 'QueueMember').map(memberOf), callers: of(events, 'QueueEntry').map(callerOf) }
    },
    async liveCalls () {
      const { response, events } = await ami.list({ Action: 'CoreShowChannels' })
      if (field(response, 'Response') !== 'Success') throw new AmiError(`CoreShowChannels: ${field(response, 'Message') ?? 'refused'}`)
      return new Set(of(events, 'CoreShowChannel').map((e) => field(e, 'Linkedid') ?? '').filter((id) => id !== ''))
    },
  }
}
