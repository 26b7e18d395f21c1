// After a gap in Asterisk's events (a reconnection, or another instance taking over the stream) the
// calls kept as in progress are checked against QueueStatus (DESIGN 9: Asterisk is the truth):
// - a caller still in a queue goes on from its record (its position as Asterisk says now);
// - a caller who joined a queue during the gap is taken up, joined `Wait` seconds ago;
// - a caller kept as waiting who is in no queue any more left it unseen: `unobserved`, ended now
//   (answered or abandoned, the events that told it are gone; the figures count it as offered only);
// - a caller kept on the line before any queue (`entered`) goes on in the queue it is in now, goes on
//   as it was while its channel is still up (CoreShowChannels: in a menu, hearing an announcement),
//   and is closed as `unobserved` otherwise;
// - an answered call whose agent is in no call any more ended during the gap: ended now.
import type { QueueCallerState, QueueMemberState } from '../../integrations/ami/queue-control.js'
import { newCall, type LineCall } from './tracker.js'

/** QueueEntry writes `unknown` where the events write `<unknown>` */
const callerNumber = (value: string) => (value === '' || value === 'unknown' || value === '<unknown>' ? null : value)

function joinedDuringGap (c: QueueCallerState, at: Date): LineCall {
  const joined = new Date(at.getTime() - c.waitSeconds * 1000)
  return { ...newCall(c.uniqueid, callerNumber(c.callerNumber), joined), queue: c.queue, joined_at: joined, position: c.position, outcome: 'waiting' }
}

function endedDuringGap (call: LineCall, at: Date): LineCall {
  const attempts = call.attempts.map((a) => (a.result === 'ringing' ? { ...a, result: 'not_answered' as const } : a))
  // a leg still open ends with the call, when the status found it gone
  const legs = call.legs.map((l) => (l.ended_at === null ? { ...l, ended_at: at, talk_seconds: Math.max(0, Math.round((at.getTime() - l.started_at.getTime()) / 1000)) } : l))
  return { ...call, attempts, legs, outcome: call.outcome === 'waiting' || call.outcome === 'entered' ? 'unobserved' : call.outcome, ended_at: at }
}

/**
 * The calls in progress (`open`: kept before Asterisk's status was read) set against that status,
 * read at `at`: those going on (to follow) and those that ended unseen (to close).
 */
export function callsAfterGap (open: LineCall[], status: { callers: QueueCallerState[], members: QueueMemberState[], live: Set<string> }, at: Date) {
  const waiting = new Map(status.callers.filter((c) => c.uniqueid !== '').map((c) => [c.uniqueid, c]))
  const talking = new Set(status.members.filter((m) => m.inCall).map((m) => m.interface))
  const ongoing: LineCall[] = []
  const ended: LineCall[] = []
  for (const call of open) {
    const caller = waiting.get(call.linkedid)
    waiting.delete(call.linkedid)
    if (call.outcome === 'waiting' && caller) ongoing.push({ ...call, queue: caller.queue, position: caller.position })
    else if (call.outcome === 'entered' && caller) ongoing.push({ ...call, queue: caller.queue, position: caller.position, joined_at: new Date(at.getTime() - caller.waitSeconds * 1000), outcome: 'waiting' })
    else if (call.outcome === 'entered' && status.live.has(call.linkedid)) ongoing.push(call)
    else if (call.outcome === 'answered' && call.answered_by !== null && talking.has(call.answered_by)) ongoing.push(call)
    else ended.push(endedDuringGap(call, at))
  }
  for (const caller of waiting.values()) ongoing.push(joinedDuringGap(caller, at))
  return { ongoing, ended }
}
