import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createMemberTracker } from '../../src/modules/line-calls/member-tracker.js'
import { callsAfterGap } from '../../src/modules/line-calls/gap.js'
import { createCallTracker, type LineCall } from '../../src/modules/line-calls/tracker.js'
import { delivered, eventClasses, recordedEvents, replayedEvents } from '../helpers/ami-recording.js'

// The calls of the real Asterisk 22.10.1 recordings, as the service's connection (`Events: call,agent`,
// the second session of each) received them, folded into records. The expected values are read off
// the recordings by hand: their README says what the lab's phones did, the markers when.

/** the ended calls of a recording, with the time of each event as the seconds since the session began */
function replay (recording: string): { ended: LineCall[], inProgress: LineCall[] } {
  const tracker = createCallTracker()
  const ended: LineCall[] = []
  for (const { at, message } of recordedEvents(recording, 1)) {
    const call = tracker.apply(message, new Date(at * 1000))
    if (call?.ended_at) ended.push(call)
  }
  return { ended, inProgress: tracker.inProgress() }
}
const seconds = (from: Date | null, to: Date | null) => (to!.getTime() - from!.getTime()) / 1000

describe('what the AMI test peer sends a connection: what Asterisk sent it', () => {
  for (const recording of ['queue-answered.txt', 'queue-abandoned.txt', 'queue-pause.txt', 'queue-ringnoanswer.txt', 'queue-empty.txt']) {
    it(`${recording}: every event of the session with all classes, filtered by Events: call,agent, is what the call,agent session received`, () => {
      const all = eventClasses('all')
      const filtered = replayedEvents(recording).filter((e) => delivered(e.message, eventClasses('call,agent'), all)).map((e) => e.message.Event)
      assert.deepEqual(filtered, recordedEvents(recording, 1).map((e) => e.message.Event))
      // a user whose manager.conf read lacks agent gets no queue event, whatever the login asks
      assert.ok(!replayedEvents(recording).some((e) => e.message.Event === 'AgentConnect' && delivered(e.message, all, eventClasses('system,call'))))
    })
  }
})

describe('calls from Asterisk\'s events', () => {
  it('an answered call: who was rung, who answered after how long, talk time, who hung up', () => {
    const { ended, inProgress } = replay('queue-answered.txt')
    assert.equal(ended.length, 1)
    assert.deepEqual(inProgress, [])
    const call = ended[0]!
    assert.equal(call.linkedid, '1795557215.0')
    assert.equal(call.caller_number, '+77010000001')
    assert.equal(call.queue, 'org101-queue')
    assert.equal(call.position, 1)
    assert.equal(call.outcome, 'answered')
    assert.equal(call.answered_by, 'PJSIP/101001')
    assert.deepEqual(call.attempts.map((a) => [a.interface, a.member_name, a.result, a.ring_seconds]), [['PJSIP/101001', 'Agent 101001', 'answered', 2]])
    assert.equal(call.hold_seconds, 3)
    assert.equal(call.talk_seconds, 3)
    assert.equal(call.ended_by, 'caller')
    // the lab's dialplan set CHANNEL(language)=ru before Queue(); the channel began as Asterisk's `en`
    assert.equal(call.language, 'ru')
    // joined at +3.460 s, answered at +6.026 s, the caller's channel gone at +9.337 s
    assert.equal(seconds(call.joined_at, call.answered_at), 2.566)
    assert.equal(seconds(call.answered_at, call.ended_at), 3.311)
  })

  it('a caller who hangs up while an agent rings, and one while every agent is paused, abandoned', () => {
    const { ended } = replay('queue-abandoned.txt')
    assert.deepEqual(ended.map((c) => [c.linkedid, c.outcome, c.hold_seconds, c.answered_by]), [
      ['1795557234.0', 'abandoned', 4, null],
      ['1795557241.2', 'abandoned', 5, null],
    ])
    assert.deepEqual(ended[0]!.attempts.map((a) => [a.interface, a.result]), [['PJSIP/101001', 'not_answered']])
    assert.deepEqual(ended[1]!.attempts, [])
  })

  it('a caller who waits out Queue()\'s timeout timed out: Asterisk says QueueCallerAbandon, but the caller did not hang up', () => {
    const { ended } = replay('queue-empty.txt')
    assert.deepEqual(ended.map((c) => [c.linkedid, c.outcome, c.hold_seconds, c.attempts.length]), [['1795557330.0', 'timed_out', 60, 0]])
  })

  it('an agent who lets it ring out (RingTime in milliseconds), then another who answers (RingTime in seconds)', () => {
    const { ended } = replay('queue-ringnoanswer.txt')
    assert.equal(ended.length, 1)
    const call = ended[0]!
    assert.deepEqual(call.attempts.map((a) => [a.interface, a.result, a.ring_seconds]), [['PJSIP/101001', 'no_answer', 15], ['PJSIP/101002', 'answered', 2]])
    assert.equal(call.answered_by, 'PJSIP/101002')
    assert.equal(call.hold_seconds, 22)
    assert.equal(call.talk_seconds, 4)
  })

  it('with the members paused the caller waits; unpaused, the agent is rung at once and answers', () => {
    const { ended } = replay('queue-pause.txt')
    assert.deepEqual(ended.map((c) => [c.outcome, c.hold_seconds, c.answered_by, c.attempts.length]), [
      ['abandoned', 3, null, 0],
      ['answered', 7, 'PJSIP/101001', 1],
    ])
  })

  it('the dialplan\'s announcement gives the line, the menu choice and the language; events of other calls change nothing', () => {
    const tracker = createCallTracker()
    const at = new Date(0)
    const ids = { Uniqueid: '1795557400.0', Linkedid: '1795557400.0' }
    assert.equal(tracker.apply({ Event: 'AgentCalled', ...ids, Interface: 'PJSIP/101001' }, at), undefined, 'no call began with it')
    tracker.apply({ Event: 'UserEvent', UserEvent: 'AppealsCall', ...ids, Line: '109', Organization: '101', CallerIDNum: '+77010000002' }, at)
    const call = tracker.apply({ Event: 'UserEvent', UserEvent: 'AppealsCall', ...ids, Menu: '3', Choice: '1', ChosenLanguage: 'kk' }, at)!
    assert.deepEqual([call.line, call.organization_prefix, call.menu_choice, call.language, call.caller_number], ['109', '101', '1', 'kk', '+77010000002'])
    assert.equal(tracker.apply({ Event: 'UserEvent', UserEvent: 'SomethingElse', ...ids, Line: '000' }, at)!.line, '109')
    assert.equal(tracker.apply({ Event: 'Hangup', Uniqueid: '1795557400.1', Linkedid: '1795557400.0' }, at)!.ended_at, null, 'an agent leg\'s hang-up does not end the call')
    assert.equal(tracker.inProgress().length, 1)
  })
})

describe('the calls in progress after a gap in the events, against Asterisk\'s QueueStatus', () => {
  const at = new Date('2026-11-26T10:00:00Z')
  const member = (iface: string, inCall: boolean) => ({ queue: 'org101-queue', interface: iface, paused: false, reason: '', status: inCall ? 2 : 1, inCall })
  const caller = (uniqueid: string, wait: number) => ({ queue: 'org101-queue', uniqueid, position: 1, callerNumber: '+77010000009', waitSeconds: wait })

  it('a call answered before the gap whose agent is in a call still goes on; whose agent is free ended unseen; a new caller joined Wait seconds ago', () => {
    const answered = replay('queue-pause.txt').ended.find((c) => c.outcome === 'answered')!
    const talking = { ...answered, talk_seconds: null, ended_by: null, ended_at: null }
    const still = callsAfterGap([talking], { callers: [caller('1795559000.1', 12)], members: [member(answered.answered_by!, true)], live: new Set() }, at)
    assert.deepEqual(still.ongoing.map((c) => [c.linkedid, c.outcome, c.joined_at?.toISOString()]), [
      [answered.linkedid, 'answered', answered.joined_at!.toISOString()],
      ['1795559000.1', 'waiting', '2026-11-26T09:59:48.000Z'],
    ])
    assert.deepEqual(still.ended, [])
    const over = callsAfterGap([talking], { callers: [], members: [member(answered.answered_by!, false)], live: new Set() }, at)
    assert.deepEqual(over.ended.map((c) => [c.outcome, c.ended_at?.toISOString(), c.talk_seconds]), [['answered', at.toISOString(), null]])
  })

  it('a waiting call in no queue any more left it unseen (unobserved), its ringing agent not answered; a tracker does not take up a call whose hang-up it heard', () => {
    const tracker = createCallTracker()
    const events = recordedEvents('queue-abandoned.txt', 1)
    const ringing = events.findIndex((e) => e.message.Event === 'AgentCalled') + 1
    let waiting: LineCall | undefined
    for (const { message } of events.slice(0, ringing)) waiting = tracker.apply(message, at) ?? waiting
    const { ended } = callsAfterGap([structuredClone(waiting!)], { callers: [], members: [], live: new Set([waiting!.linkedid]) }, at)
    assert.deepEqual(ended.map((c) => [c.outcome, c.attempts.map((a) => a.result)]), [['unobserved', ['not_answered']]])
    // the rest of the recording heard: the caller's hang-up; the call is not taken up again, nor closed as unseen
    for (const { message } of events.slice(ringing)) tracker.apply(message, at)
    assert.equal(tracker.adopt(structuredClone(waiting!)), false)
    assert.equal(tracker.close(waiting!.linkedid), false)
    const unknown = createCallTracker()
    assert.equal(unknown.adopt(structuredClone(waiting!)), true)
    assert.equal(unknown.adopt(structuredClone(waiting!)), false, 'known already')
  })

  it('a call on the line before any queue (in a menu, an announcement) goes on while its channel is up (CoreShowChannels), else ended unseen', () => {
    const tracker = createCallTracker()
    let entered: LineCall | undefined
    for (const { message } of replayedEvents('line-109.txt')) {
      const call = tracker.apply(message, at)
      if (call?.menu_exit === 'hangup') break
      if (call && call.line === '109' && !call.closed) entered ??= structuredClone(call)
    }
    assert.equal(entered!.outcome, 'entered')
    const up = callsAfterGap([entered!], { callers: [], members: [], live: new Set([entered!.linkedid, 'another.1']) }, at)
    assert.deepEqual([up.ongoing.map((c) => [c.linkedid, c.outcome, c.ended_at]), up.ended], [[[entered!.linkedid, 'entered', null]], []])
    const gone = callsAfterGap([entered!], { callers: [], members: [], live: new Set(['another.1']) }, at)
    assert.deepEqual(gone.ended.map((c) => [c.outcome, c.ended_at?.toISOString()]), [['unobserved', at.toISOString()]])
  })
})

describe('the agents\' states from Asterisk\'s events', () => {
  /** each change of a recording: [event, member, state, reason, seconds since the session began] */
  function changes (recording: string, wrapupSeconds: number) {
    const tracker = createMemberTracker()
    const seen: [string, string, string, string | null, number][] = []
    for (const { at, message } of recordedEvents(recording, 1)) {
      const s = tracker.apply(message, new Date(at * 1000), wrapupSeconds)
      if (s) seen.push([message.Event!, s.interface, s.state, s.reason, s.since.getTime() / 1000])
    }
    return { seen, tracker }
  }

  it('paused with reasons is a break; unpaused, rung, talking; after the call the queue\'s wrap-up, then ready when it ends', () => {
    const { seen, tracker } = changes('queue-pause.txt', 5)
    assert.deepEqual(seen, [
      ['QueueMemberStatus', 'PJSIP/101001', 'ready', null, 1.271],
      ['QueueMemberStatus', 'PJSIP/101002', 'ready', null, 1.313],
      ['QueueMemberPause', 'PJSIP/101001', 'break', 'break', 3.871],
      ['QueueMemberPause', 'PJSIP/101002', 'break', 'lunch', 3.877],
      ['QueueMemberPause', 'PJSIP/101001', 'ready', null, 14.19],
      ['AgentCalled', 'PJSIP/101001', 'ringing', null, 14.403],
      ['QueueMemberStatus', 'PJSIP/101001', 'on_call', null, 16.709],
      // Asterisk's own status turns free at once (Status 1): the wrap-up is wrapuptime from AgentComplete
      ['AgentComplete', 'PJSIP/101001', 'wrap_up', null, 20.02],
      ['QueueMemberPause', 'PJSIP/101002', 'ready', null, 21.11],
    ])
    assert.deepEqual(tracker.tick(new Date(24_000)), [], 'not over before its end')
    assert.deepEqual(tracker.tick(new Date(30_000)).map((s) => [s.interface, s.state, s.since.getTime() / 1000]), [['PJSIP/101001', 'ready', 25.02]])
  })

  it('an agent rung while the caller hangs up is ready again without AgentRingNoAnswer; paused as offline is offline', () => {
    const { seen, tracker } = changes('queue-abandoned.txt', 5)
    assert.deepEqual(seen.slice(2, 4).map((s) => s.slice(0, 4)), [['AgentCalled', 'PJSIP/101001', 'ringing', null], ['QueueMemberStatus', 'PJSIP/101001', 'ready', null]])
    const facts = [{ queue: 'org101-queue', interface: 'PJSIP/101001', status: 1, inCall: false, paused: true, reason: 'offline' }, { queue: 'org101-queue', interface: 'PJSIP/101002', status: 5, inCall: false, paused: false, reason: '' }]
    assert.deepEqual(tracker.reconcile(facts, new Date(60_000)).map((s) => [s.interface, s.state, s.reason]), [['PJSIP/101001', 'offline', 'offline'], ['PJSIP/101002', 'offline', null]])
    assert.deepEqual(tracker.reconcile(facts, new Date(61_000)), [], 'nothing changed: nothing to write')
  })
})
