// A call's path (DESIGN 11): who talked with the caller, when, and how the call came to them, read
// from Asterisk's bridges. A terminal talks with the caller while its channel and the caller's are in
// the same bridge; each channel's stays in bridges are kept with their times, and the legs are their
// overlaps. Asterisk publishes each channel's events in that channel's order but not across channels
// (an agent's BridgeEnter may come after the caller's Hangup), so the legs are worked out again from
// the stays' times whenever one changes: the same record whatever order the channels' events came in.
// Events that arrive together share a time: their order of arrival breaks the tie.
import { interfaceOfChannel } from '../../integrations/asterisk/names.js'
import type { legWays } from '../../db/schema/index.js'

export type LegWay = typeof legWays[number]

/** a part of the call's path: a terminal talking with the caller */
export interface CallLeg {
  /** its interface (`PJSIP/<terminal>`) */
  interface: string
  how: LegWay
  /** who passed the call on to it (a transfer's, a three-way call's) */
  from: string | null
  started_at: Date
  ended_at: Date | null
  talk_seconds: number | null
}

/** when an event came: its time, and its place among the call's events */
interface Moment { at: Date, seq: number }
interface Stay { bridge: string, from: Moment, to: Moment | null }
interface Transfer { at: Moment, how: LegWay, from: string | null }

const seconds = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))
const before = (a: Moment, b: Moment) => a.at.getTime() < b.at.getTime() || (a.at.getTime() === b.at.getTime() && a.seq < b.seq)
const earlier = (a: Moment | null, b: Moment | null): Moment | null => (a === null ? b : b === null ? a : before(a, b) ? a : b)

/** `known`: the legs kept before this instance followed the call (a call taken up after a gap, whose stays it never heard) */
export function createCallPath (callerUniqueid: string, known: CallLeg[] = []) {
  /** the channels that are the caller: its own, and a Local channel's leg it waits in a queue on */
  const callers = new Set([callerUniqueid])
  /** the terminals that answered the call from a queue (each queue it entered has its answer) */
  const answeredFromQueue = new Set<string>()
  const channels = new Map<string, { channel: string, stays: Stay[] }>()
  const transfers: Transfer[] = []
  let seq = 0
  const now = (at: Date): Moment => ({ at, seq: ++seq })

  /** the stretches a terminal's channel and the caller's shared a bridge, in order; `end`: the caller's hang-up */
  function overlaps (end: Moment | null) {
    const callerStays = [...callers].flatMap((u) => channels.get(u)?.stays ?? [])
    const pieces: { iface: string, from: Moment, to: Moment | null }[] = []
    for (const [uniqueid, { channel, stays }] of channels) {
      const iface = interfaceOfChannel(channel)
      if (iface === undefined || callers.has(uniqueid)) continue
      for (const stay of stays) {
        for (const caller of callerStays) {
          if (stay.bridge !== caller.bridge) continue
          const from = before(stay.from, caller.from) ? caller.from : stay.from
          const to = earlier(stay.to, earlier(caller.to, end))
          if (to === null || before(from, to)) pieces.push({ iface, from, to })
        }
      }
    }
    // by time, then by terminal: two that came at the same moment are in the same order whichever was told first
    return pieces.sort((a, b) => a.from.at.getTime() - b.from.at.getTime() || a.iface.localeCompare(b.iface))
  }

  return {
    /** a queue's answer (AgentConnect) by this terminal */
    answered: (iface: string) => { answeredFromQueue.add(iface) },
    /** a channel that is the caller's side too (the queue's Local leg) */
    addCaller: (uniqueid: string) => { callers.add(uniqueid) },
    enter (uniqueid: string, channel: string, bridge: string, at: Date): void {
      const known = channels.get(uniqueid) ?? { channel, stays: [] }
      channels.set(uniqueid, known)
      const moment = now(at)
      for (const stay of known.stays) stay.to ??= moment
      known.stays.push({ bridge, from: moment, to: null })
    },
    leave (uniqueid: string, bridge: string, at: Date): void {
      const stay = channels.get(uniqueid)?.stays.find((s) => s.bridge === bridge && s.to === null)
      if (stay) stay.to = now(at)
    },
    /** a transfer Asterisk made: the next terminal to reach the caller after it came by it */
    transferred (transfer: { at: Date, how: LegWay, from: string | null }): void { transfers.push({ ...transfer, at: now(transfer.at) }) },
    /** the legs as the stays are now; `end`: the caller's hang-up */
    legs (end: Date | null): CallLeg[] {
      const unused = [...transfers]
      // a leg open when the call was taken up ends with the call, for its channel's leave was not heard
      const legs: CallLeg[] = known.map((l) => (l.ended_at === null && end !== null ? { ...l, ended_at: end, talk_seconds: seconds(l.started_at, end) } : l))
      for (const piece of overlaps(end === null ? null : { at: end, seq: seq + 1 })) {
        // by time alone: a transfer and the bridge it leads to are told on different channels' streams
        const index = unused.findIndex((t) => t.at.at <= piece.from.at && t.from !== piece.iface)
        const way = index >= 0
          ? unused.splice(index, 1)[0]!
          : { how: legs.some((l) => l.interface === piece.iface) ? 'returned' as const : answeredFromQueue.has(piece.iface) ? 'queue' as const : 'dial' as const, from: null }
        const [started, ended] = [piece.from.at, piece.to?.at ?? null]
        legs.push({ interface: piece.iface, how: way.how, from: way.from, started_at: started, ended_at: ended, talk_seconds: ended === null ? null : seconds(started, ended) })
      }
      return legs
    },
  }
}

export type CallPath = ReturnType<typeof createCallPath>
