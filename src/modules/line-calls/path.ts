// A call's path (DESIGN 11): who talked with the caller, when, and how the call came to them, read
// from Asterisk's bridges: the centre's terminals, and a number outside the call was passed to through
// a trunk (the trunk's channel other than the caller's). A terminal talks with the caller while its channel is in the caller's
// bridge, or in one piped to it through a Local channel's two halves; each channel's stays in bridges
// are kept with their times, and the legs are the stretches of talk they give. Asterisk publishes each channel's events in that channel's order but not across channels
// (an agent's BridgeEnter may come after the caller's Hangup), so the legs are worked out again from
// the stays' times whenever one changes: the same record whatever order the channels' events came in.
// Events that arrive together share a time: their order of arrival breaks the tie.
import { interfaceOfChannel, trunkInterfaceOfChannel } from '../../integrations/asterisk/names.js'
import type { legWays } from '../../db/schema/index.js'

export type LegWay = typeof legWays[number]

/** a part of the call's path: a terminal, or a number outside, talking with the caller */
export interface CallLeg {
  /** its interface (`PJSIP/<terminal>`; a number outside: its trunk's, `PJSIP/<trunk>`) */
  interface: string
  /** a number outside that talked with the caller, as Asterisk dialled it (in +7 form for Kazakhstan's); null for a terminal */
  number: string | null
  how: LegWay
  /** who passed the call on to it (a transfer's, a three-way call's) */
  from: string | null
  started_at: Date
  ended_at: Date | null
  talk_seconds: number | null
}

/** how long after the bridge it led to a transfer's own event may come */
const TRANSFER_TOLD_AFTER_MS = 1000
/** how far apart the starts of two pieces of one burst of events may be, and how long a burst may last at most */
const TOGETHER_MS = 50
const BURST_AT_MOST_MS = 250

/** when an event came: its time, and its place among the call's events */
interface Moment { at: Date, seq: number }
interface Stay { bridge: string, from: Moment, to: Moment | null }
interface Transfer { at: Moment, how: LegWay, from: string | null }

const seconds = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))
const before = (a: Moment, b: Moment) => a.at.getTime() < b.at.getTime() || (a.at.getTime() === b.at.getTime() && a.seq < b.seq)

/**
 * By time; pieces that began together (each within `TOGETHER_MS` of the one before, within `BURST_AT_MOST_MS`
 * of the first: a three-way call joins two terminals in one burst whose events arrive on different
 * streams) by terminal, so the record does not depend on which channel's event came first. The bound
 * keeps a steady run of pieces a few tens of ms apart from being taken for one burst.
 */
export function inOrder<P extends { iface: string, from: Moment }> (pieces: P[]): P[] {
  const byTime = [...pieces].sort((a, b) => a.from.at.getTime() - b.from.at.getTime())
  const groups: P[][] = []
  for (const piece of byTime) {
    const group = groups.at(-1)
    const [first, last] = [group?.[0], group?.at(-1)]
    const start = piece.from.at.getTime()
    if (group && first && last && start - last.from.at.getTime() <= TOGETHER_MS && start - first.from.at.getTime() <= BURST_AT_MOST_MS) group.push(piece)
    else groups.push([piece])
  }
  return groups.flatMap((group) => group.sort((a, b) => a.iface.localeCompare(b.iface)))
}

/** `known`: the legs kept before this instance followed the call (a call taken up after a gap, whose stays it never heard) */
export function createCallPath (callerUniqueid: string, known: CallLeg[] = []) {
  /** the terminals that answered the call from a queue (each queue it entered has its answer) */
  const answeredFromQueue = new Set<string>()
  const channels = new Map<string, { channel: string, number: string | null, stays: Stay[] }>()
  const transfers: Transfer[] = []
  let seq = 0
  const now = (at: Date): Moment => ({ at, seq: ++seq })

  /** the channel a Local channel's half is piped to (`Local/5105@ctx-00000003;1` and `;2`); undefined for any other */
  function partnerOf (channel: string, byName: Map<string, string>): string | undefined {
    const half = /^(Local\/.+);([12])$/.exec(channel)
    return half ? byName.get(`${half[1]};${half[2] === '1' ? '2' : '1'}`) : undefined
  }

  /**
   * The stretches each terminal's channel talked with the caller, in order; `end`: the caller's hang-up.
   * A terminal talks with the caller while its bridge is the caller's, or is piped to it through Local
   * channels (a consultation's Local channel put in the caller's bridge when the transfer completes).
   * Between two moments at which any channel entered or left a bridge, who talks with whom is the same.
   */
  function overlaps (end: Moment | null) {
    const byName = new Map([...channels].map(([uniqueid, { channel }]) => [channel, uniqueid]))
    const moments = [...channels.values()].flatMap(({ stays }) => stays.flatMap((s) => (s.to === null ? [s.from] : [s.from, s.to])))
      .filter((m) => end === null || before(m, end)).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
    const open = new Map<string, { iface: string, number: string | null, from: Moment }>()
    const pieces: { iface: string, number: string | null, from: Moment, to: Moment | null }[] = []
    /** the stretches of channels that left the caller's reach for no settled bridge: going on if they come back from there (moved between bridges) */
    const between = new Map<string, Moment>()
    const close = (uniqueid: string, at: Moment | null) => {
      const piece = open.get(uniqueid)
      if (piece && (at === null || before(piece.from, at))) pieces.push({ ...piece, to: at })
      open.delete(uniqueid)
      between.delete(uniqueid)
    }
    for (const moment of moments) {
      const { talking, bridged } = talkingAt(moment, byName)
      for (const [uniqueid, left] of [...between]) if (!talking.has(uniqueid) && bridged.has(uniqueid)) close(uniqueid, left)
      for (const uniqueid of [...open.keys()]) {
        if (talking.has(uniqueid) || between.has(uniqueid)) continue
        if (bridged.has(uniqueid)) close(uniqueid, moment)
        else between.set(uniqueid, moment)
      }
      for (const [uniqueid, iface] of talking) {
        between.delete(uniqueid)
        const { channel, number } = channels.get(uniqueid)!
        if (!open.has(uniqueid)) open.set(uniqueid, { iface, number: interfaceOfChannel(channel) === undefined ? number : null, from: moment })
      }
    }
    for (const [uniqueid, left] of [...between]) close(uniqueid, left)
    for (const uniqueid of [...open.keys()]) close(uniqueid, end)
    return inOrder(pieces)
  }

  /**
   * The terminals' and outside parties' channels (uniqueid: interface) talking with the caller from this moment until the
   * next, and the channels settled in a bridge then: in one with another channel, and not piped through
   * a Local channel whose other half is between bridges (Asterisk moves a transfer's channels one at a time).
   */
  function talkingAt (moment: Moment, byName: Map<string, string>): { talking: Map<string, string>, bridged: Set<string> } {
    const bridgeOf = new Map<string, string>()
    for (const [uniqueid, { stays }] of channels) {
      const stay = stays.find((s) => !before(moment, s.from) && (s.to === null || before(moment, s.to)))
      if (stay) bridgeOf.set(uniqueid, stay.bridge)
    }
    const inBridge = new Map<string, string[]>()
    for (const [uniqueid, bridge] of bridgeOf) inBridge.set(bridge, [...(inBridge.get(bridge) ?? []), uniqueid])
    // the bridges the caller reaches: its own, and those piped to a reached one through a Local channel
    const reached = new Set<string>()
    const reach = (uniqueid: string | undefined) => {
      const bridge = uniqueid === undefined ? undefined : bridgeOf.get(uniqueid)
      if (bridge === undefined || reached.has(bridge)) return
      reached.add(bridge)
      for (const member of inBridge.get(bridge) ?? []) reach(partnerOf(channels.get(member)!.channel, byName))
    }
    // the caller's own channel; when it is a Local channel's half (a queue run on a Local channel), the other half too
    reach(callerUniqueid)
    reach(partnerOf(channels.get(callerUniqueid)?.channel ?? '', byName))
    const talking = new Map<string, string>()
    for (const [uniqueid, bridge] of bridgeOf) {
      const { channel } = channels.get(uniqueid)!
      const iface = interfaceOfChannel(channel) ?? trunkInterfaceOfChannel(channel)
      if (iface !== undefined && uniqueid !== callerUniqueid && reached.has(bridge)) talking.set(uniqueid, iface)
    }
    // a channel alone in a bridge, or in one piped to nowhere (a Local channel whose other half is between bridges), may be on its way to the caller
    const settled = new Set([...bridgeOf].filter(([, bridge]) => (inBridge.get(bridge) ?? []).length > 1 && inBridge.get(bridge)!.every((member) => {
      const half = /^(Local\/.+);([12])$/.test(channels.get(member)!.channel)
      const partner = half ? partnerOf(channels.get(member)!.channel, byName) : undefined
      return !half || (partner !== undefined && bridgeOf.has(partner))
    })).map(([uniqueid]) => uniqueid))
    return { talking, bridged: settled }
  }

  return {
    /** a queue's answer (AgentConnect) by this terminal */
    answered: (iface: string) => { answeredFromQueue.add(iface) },
    /** `number`: the party the channel is with, as Asterisk names it (an outside number on a trunk's channel) */
    enter (uniqueid: string, channel: string, bridge: string, at: Date, number: string | null = null): void {
      const known = channels.get(uniqueid) ?? { channel, number, stays: [] }
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
        // by time alone: a transfer and the bridge it leads to are told on different channels' streams, the
        // transfer's a little after the bridge when it completes a consultation through a Local channel
        const index = unused.findIndex((t) => t.at.at.getTime() <= piece.from.at.getTime() + TRANSFER_TOLD_AFTER_MS && t.from !== piece.iface)
        const way = index >= 0
          ? unused.splice(index, 1)[0]!
          : { how: legs.some((l) => l.interface === piece.iface && l.number === piece.number) ? 'returned' as const : answeredFromQueue.has(piece.iface) ? 'queue' as const : 'dial' as const, from: null }
        const [started, ended] = [piece.from.at, piece.to?.at ?? null]
        legs.push({ interface: piece.iface, number: piece.number, how: way.how, from: way.from, started_at: started, ended_at: ended, talk_seconds: ended === null ? null : seconds(started, ended) })
      }
      return legs
    },
  }
}

export type CallPath = ReturnType<typeof createCallPath>
