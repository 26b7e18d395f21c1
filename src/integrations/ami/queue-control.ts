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

/** What the service asks of Asterisk's queues: pausing a member everywhere, and every member's state. */
export interface QueueControl {
  /** pauses (with a reason) or unpauses an interface in every queue it is a member of; false when it is a member of none */
  pause: (iface: string, paused: boolean, reason?: string) => Promise<boolean>
  /** every member, or (`iface`) the memberships of one interface only */
  members: (iface?: string) => Promise<QueueMemberState[]>
}

const flag = (m: AmiMessage, key: string) => field(m, key) === '1'

export function amiQueueControl (ami: AmiClient): QueueControl {
  return {
    async pause (iface, paused, reason) {
      const response = await ami.action({ Action: 'QueuePause', Interface: iface, Paused: paused ? 'true' : 'false', ...(paused && reason ? { Reason: reason } : {}) })
      if (field(response, 'Response') === 'Success') return true
      if (field(response, 'Message') === 'Interface not found') return false
      throw new AmiError(`QueuePause ${iface}: ${field(response, 'Message') ?? 'refused'}`)
    },
    async members (iface) {
      // QueueStatus' Member filter: one operator's desk asks for its own terminals, not every member of every queue
      const { response, events } = await ami.list({ Action: 'QueueStatus', ...(iface ? { Member: iface } : {}) })
      if (field(response, 'Response') !== 'Success') throw new AmiError(`QueueStatus: ${field(response, 'Message') ?? 'refused'}`)
      return events.filter((e) => field(e, 'Event') === 'QueueMember').map((e) => ({
        queue: field(e, 'Queue') ?? '',
        interface: field(e, 'Location') ?? '',
        paused: flag(e, 'Paused'),
        reason: field(e, 'PausedReason') ?? '',
        status: Number(field(e, 'Status') ?? 0),
        inCall: flag(e, 'InCall'),
      }))
    },
  }
}
