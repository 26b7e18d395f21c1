// The call folding in any order Asterisk can deliver, on a Local channel's leg, across a status read
// and across instances (issue 46, item 7). Asterisk publishes a call's queue events and its
// channel events on the caller channel's topic (in order), but `AgentComplete` on the queue's
// topic and each agent leg's events on that leg's: those streams reach AMI interleaved any way.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createDb, type Database } from '../../src/db/client.js'
import { createCallTracker, type LineCall } from '../../src/modules/line-calls/tracker.js'
import { inOrder } from '../../src/modules/line-calls/path.js'
import { createLineCallRepo } from '../../src/modules/line-calls/repo.js'
import { createLineCallService } from '../../src/modules/line-calls/service.js'
import { createMetrics } from '../../src/lib/metrics.js'
import { pino } from 'pino'
import { seededRandom, startAmiPeer } from '../helpers/ami-peer.js'
import { replayedEvents, type RecordedEvent } from '../helpers/ami-recording.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createPostgresTestDatabaseUrl, createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { startService } from '../helpers/service-process.js'

const ANSWERED = 'queue-answered.txt'
const ABANDONED = 'queue-abandoned.txt'
const CALLER = '1795557215.0'

/** the calls a tracker folds from events in the order given (each at the time it was recorded) */
function fold (events: RecordedEvent[]): LineCall[] {
  const tracker = createCallTracker()
  const calls = new Map<string, LineCall>()
  for (const { at, message } of events) {
    const call = tracker.apply(message, new Date(Date.UTC(2026, 10, 24) + at * 1000))
    if (call) calls.set(call.linkedid, structuredClone(call))
  }
  return [...calls.values()]
}

/** the stream an event reaches AMI on: the queue's topic (AgentComplete), an agent leg's channel topic, or the caller's */
function streamOf (e: RecordedEvent): string {
  if (e.message.Event === 'AgentComplete') return 'queue'
  if (e.message.Event?.startsWith('QueueMember')) return 'members'
  const id = e.message.Uniqueid
  return id !== undefined && id !== e.message.Linkedid ? `leg:${id}` : 'caller'
}

/** a merge of the streams, each kept in its own order; AgentComplete never before the answer it completes */
function interleaving (events: RecordedEvent[], random: () => number): RecordedEvent[] {
  const streams = new Map<string, RecordedEvent[]>()
  for (const e of events) streams.set(streamOf(e), [...streams.get(streamOf(e)) ?? [], e])
  const merged: RecordedEvent[] = []
  let answered = false
  while ([...streams.values()].some((s) => s.length > 0)) {
    const ready = [...streams.entries()].filter(([name, s]) => s.length > 0 && (name !== 'queue' || answered))
    const [, stream] = ready[Math.floor(random() * ready.length)]!
    const next = stream.shift()!
    if (next.message.Event === 'AgentConnect') answered = true
    merged.push(next)
  }
  return merged
}

/** the call's queue run on a Local channel's `;2` leg (a `Dial(Local/...)` from the caller's channel): its queue events carry that leg's Uniqueid */
function onLocalLeg (events: RecordedEvent[], linkedid: string): RecordedEvent[] {
  const leg = `${linkedid}9`
  const channel = 'Local/queue@appeals-queue-00000001;2'
  const queueEvents = new Set(['QueueCallerJoin', 'QueueCallerLeave', 'QueueCallerAbandon', 'AgentCalled', 'AgentConnect', 'AgentComplete', 'AgentRingNoAnswer'])
  const out: RecordedEvent[] = []
  for (const e of events) {
    const m = e.message
    const first = m.Event === 'QueueCallerJoin' && m.Linkedid === linkedid
    if (first) out.push({ at: e.at, message: { Event: 'Newchannel', Privilege: 'call,all', Channel: channel, Uniqueid: leg, Linkedid: linkedid, CallerIDNum: m.CallerIDNum ?? '' } })
    if (m.Linkedid === linkedid && m.Uniqueid === linkedid && queueEvents.has(m.Event ?? '')) out.push({ at: e.at, message: { ...m, Uniqueid: leg, Channel: channel } })
    else if (m.Event === 'Hangup' && m.Uniqueid === linkedid) {
      // the Local leg goes first, then the caller's own channel
      out.push({ at: e.at, message: { ...m, Uniqueid: leg, Channel: channel } }, e)
    } else out.push(e)
  }
  return out
}

describe('one call\'s record whatever the order its events arrive in', () => {
  const events = replayedEvents(ANSWERED)
  const expected = fold(events)

  it('the recorded order: answered, 3 s of talk, ended by the caller', () => {
    assert.deepEqual(expected.map((c) => [c.linkedid, c.outcome, c.talk_seconds, c.ended_by]), [[CALLER, 'answered', 3, 'caller']])
  })

  it('AgentComplete (the queue\'s topic) at every place after the answer: before the caller\'s hang-up request, between it and the hang-up, after it', () => {
    const complete = events.findIndex((e) => e.message.Event === 'AgentComplete')
    const connect = events.findIndex((e) => e.message.Event === 'AgentConnect')
    const rest = events.filter((_, i) => i !== complete)
    let orders = 0
    for (let place = connect + 1; place <= rest.length; place++) {
      const order = [...rest.slice(0, place), events[complete]!, ...rest.slice(place)]
      assert.deepEqual(fold(order), expected, `AgentComplete after ${order[place - 1]!.message.Event} (#${place})`)
      orders++
    }
    assert.ok(orders > 50, `${orders} orders`)
  })

  it('the agent leg\'s, the queue\'s and the members\' streams merged at random (200 seeds), each in its own order', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const order = interleaving(events, seededRandom(seed))
      assert.deepEqual(fold(order), expected, `seed ${seed}`)
    }
  })

  it('the same calls on a Local channel\'s ;2 leg: answered, and abandoned by a caller\'s hang-up', () => {
    assert.deepEqual(fold(onLocalLeg(events, CALLER)), expected)
    const abandoned = replayedEvents(ABANDONED)
    const first = fold(abandoned)[0]!
    assert.equal(first.outcome, 'abandoned')
    assert.deepEqual(fold(onLocalLeg(abandoned, first.linkedid))[0], first)
  })
})

for (const [recording, passedOn] of [['transfers.txt', 4], ['transfers-lines.txt', 2], ['transfer-outside.txt', 1]] as const) {
  describe(`a call passed on, whatever the order its channels' events arrive in (${recording})`, () => {
    const all = replayedEvents(recording)
    const callers = [...new Set(all.filter((e) => e.message.Event === 'QueueCallerJoin').map((e) => e.message.Linkedid!))]
    const ofCall = (linkedid: string) => all.filter((e) => (e.message.Linkedid ?? e.message.TransfereeLinkedid) === linkedid)
    const path = (calls: LineCall[]) => calls.map((c) => c.legs.map((l) => [l.interface, l.how, l.from, l.started_at.toISOString(), l.ended_at?.toISOString(), l.talk_seconds]))

    it('each channel\'s stream kept in its own order, merged at random (100 seeds a call), the same path', () => {
      const passed = callers.map((linkedid) => [linkedid, ofCall(linkedid)] as const).filter(([, events]) => path(fold(events))[0]!.length >= 2)
      assert.equal(passed.length, passedOn, 'the calls passed on')
      for (const [linkedid, events] of passed) {
        const expected = path(fold(events))
        for (let seed = 1; seed <= 100; seed++) assert.deepEqual(path(fold(interleaving(events, seededRandom(seed)))), expected, `${linkedid}, seed ${seed}`)
      }
    })
  })
}

describe('the service, fed by the AMI peer: an order that lost data before, and events during a status read', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let database: Database
  let t: TestApp
  let admin: Record<string, string>
  before(async () => {
    peer = await startAmiPeer()
    database = await createTestDatabase()
    t = await buildTestApp({ database, env: peer.env({ AMI_TIMEOUT: '3s' }) })
    await makeOrganization(database.db, { prefix: '101' })
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
  })
  after(async () => { await t?.close(); await peer?.close() })
  const call = async (linkedid: string) => {
    const res = await t.app.inject({ url: `/api/line-calls/${linkedid}`, headers: admin })
    return res.statusCode === 200 ? res.json() : undefined
  }
  const send = (events: RecordedEvent[], rename: string) => {
    for (const e of events) peer.sendEvent(Object.fromEntries(Object.entries(e.message).map(([k, v]) => [k, ['Uniqueid', 'Linkedid'].includes(k) ? v.replace(CALLER.split('.')[0]!, rename) : v])))
  }

  it('the caller\'s Hangup before the AgentComplete: the talk time is Asterisk\'s, the end the caller\'s', async () => {
    const events = replayedEvents(ANSWERED)
    const complete = events.find((e) => e.message.Event === 'AgentComplete')!
    send([...events.filter((e) => e !== complete), complete], '1795560001')
    const record = await eventually(async () => { const c = await call('1795560001.0'); return c?.ended_by === 'caller' && c }, 10_000, 'the AgentComplete kept')
    assert.deepEqual([record.outcome, record.talk_seconds, record.answered_by], ['answered', 3, 'PJSIP/101001'])
  })

  it('a caller who joined during a gap and is answered while Asterisk\'s status is read: answered, not lost', async () => {
    const events = replayedEvents(ANSWERED)
    const joined = events.findIndex((e) => e.message.Event === 'QueueCallerJoin')
    peer.state.callers = [{ queue: 'org101-queue', uniqueid: '1795560002.0', callerNumber: '+77010000001', wait: 2 }]
    peer.state.statusDelayMs = 1500
    const statusReads = () => peer.state.received.filter((a) => a.Action === 'QueueStatus').length
    const readsBefore = statusReads()
    peer.dropStreams()
    try {
      await eventually(async () => peer.streaming() === 1 && statusReads() > readsBefore, 15_000, 'the service reconnected and reading the status')
      // the answer and the end come while the status is still on its way
      send(events.slice(joined + 1), '1795560002')
      const record = await eventually(async () => { const c = await call('1795560002.0'); return c?.ended_at && c }, 15_000, 'the call ended')
      assert.deepEqual([record.outcome, record.answered_by, record.talk_seconds, record.queue], ['answered', 'PJSIP/101001', 3, 'org101-queue'])
    } finally {
      peer.state.statusDelayMs = 0
      peer.state.callers = []
    }
  })

  it('a caller in the menu during a gap: on the line still (CoreShowChannels lists its channel), its hang-up in the menu kept after', async () => {
    const line = replayedEvents('line-109.txt')
    const inMenu = fold(line).find((c) => c.menu_exit === 'hangup')!
    const events = line.filter((e) => e.message.Linkedid === inMenu.linkedid)
    const hangup = events.findIndex((e) => e.message.Event === 'Hangup' && e.message.Uniqueid === inMenu.linkedid)
    for (const e of events.slice(0, hangup)) peer.sendEvent(e.message)
    await eventually(async () => (await call(inMenu.linkedid))?.menu_id !== undefined, 10_000, 'the caller in the menu kept')
    const listed = () => peer.state.received.filter((a) => a.Action === 'CoreShowChannels').length
    const listedBefore = listed()
    peer.state.channels = [{ uniqueid: inMenu.linkedid, linkedid: inMenu.linkedid, context: 'org101-menu1', application: 'BackGround' }]
    peer.dropStreams()
    try {
      await eventually(async () => peer.streaming() === 1 && listed() > listedBefore, 15_000, 'reconnected, the channels listed')
      // the hang-up comes while (or after) the status is read
      for (const e of events.slice(hangup)) peer.sendEvent(e.message)
      const record = await eventually(async () => { const c = await call(inMenu.linkedid); return c?.ended_at && c }, 15_000, 'the call ended')
      assert.deepEqual([record.line, record.outcome, record.menu_exit], ['109', 'ended', 'hangup'])
    } finally {
      peer.state.channels = []
    }
  })
})

describe('fencing: an instance that lost the lead writes nothing', () => {
  it('after a successor raised the epoch, the old leader\'s saves (calls and agents) are refused and counted; leading again, it writes', async () => {
    const database = await createTestDatabase()
    try {
      await makeOrganization(database.db, { prefix: '101' })
      const repo = createLineCallRepo(database.db)
      const metrics = createMetrics({ processFigures: false })
      const service = createLineCallService({ repo, log: pino({ level: 'silent' }), clock: () => new Date(), timeZone: 'Asia/Almaty', metrics })
      const feed = async (recording: string) => {
        for (const e of replayedEvents(recording)) service.event(e.message, new Date())
        await service.settled()
      }
      const refused = async () => (await metrics.registry.getSingleMetric('failures_total')!.get()).values.find((v) => v.labels.kind === 'stale_leader_write')?.value ?? 0
      await service.lead()
      // a successor takes the lead behind this instance's back (it was paused, cut off, believed dead)
      await repo.takeLead()
      await feed(ANSWERED)
      assert.equal(await repo.get(CALLER), undefined, 'the call heard under a lost lead is not written')
      assert.deepEqual(await repo.agentStatesNow(), [], 'nor the agents\' states')
      assert.ok(await refused() >= 2, `${await refused()} writes refused`)
      // leading again (its own epoch raised past the successor's), from nothing kept
      service.resign()
      await service.lead()
      await feed(ABANDONED)
      assert.deepEqual((await repo.list({ limit: 10, offset: 0 })).items.map((c) => c.outcome), ['abandoned', 'abandoned'])
      assert.equal((await repo.agentStatesNow()).length, 2)
      service.stop()
    } finally {
      await database.close()
    }
  })
})

describe('a takeover by a killed leader (PostgreSQL: the lock goes with its connection)', { skip: process.env.TEST_DATABASE_URL ? undefined : 'the embedded database has one process: it always leads' }, () => {
  it('the leader killed mid-call: the other instance takes the lead under a new epoch, reads the call from the status and ends it with its talk time', async () => {
    const peer = await startAmiPeer()
    const { url, drop } = await createPostgresTestDatabaseUrl(process.env.TEST_DATABASE_URL!)
    const env = { ...peer.env({ AMI_TIMEOUT: '3s' }), DATABASE_URL: url }
    const leader = startService({ ...env, SEED_ON_FIRST_START: 'false' })
    let database: Database | undefined
    let follower: TestApp | undefined
    try {
      await leader.listening
      await eventually(async () => peer.streaming() === 1, 20_000, 'the first instance streaming')
      database = await createDb({ databaseUrl: url })
      await makeOrganization(database.db, { prefix: '101' })
      const events = replayedEvents(ANSWERED)
      const hangingUp = events.findIndex((e) => e.message.Event === 'HangupRequest')
      peer.replay(ANSWERED, { to: hangingUp })
      const status = async () => (await database!.query<{ outcome: string }>('select outcome from line_calls where linkedid = $1', [CALLER]))[0]?.outcome
      await eventually(async () => (await status()) === 'answered', 15_000, 'the answer written by the first instance')
      follower = await buildTestApp({ database, env })
      const admin = await login(follower.app, await makeUser(database.db, { role: 'admin' }))
      // Asterisk still has the agent in the call when the second instance reads its status
      peer.state.members = [{ queue: 'org101-queue', name: 'Agent 101001', interface: 'PJSIP/101001', paused: false, reason: '', lastPause: 0, inCall: true }]
      // the first instance read the status when it began to lead: the second one's read comes after these
      const statusReads = () => peer.state.received.filter((a) => a.Action === 'QueueStatus').length
      const readByTheFirst = statusReads()
      leader.child.kill('SIGKILL')
      await leader.exited
      await eventually(async () => peer.streaming() === 1 && statusReads() > readByTheFirst, 20_000, 'the second instance leading and reading the status')
      const [{ epoch }] = await database.query<{ epoch: number }>('select epoch from line_event_leader') as [{ epoch: number }]
      assert.equal(epoch, 2, 'the second lead raised the epoch past the killed one\'s')
      peer.replay(ANSWERED, { from: hangingUp })
      const record = await eventually(async () => {
        const c = (await follower!.app.inject({ url: `/api/line-calls/${CALLER}`, headers: admin })).json()
        return c.ended_at !== null && c
      }, 15_000, 'the call ended by the second instance')
      assert.deepEqual([record.outcome, record.answered_by, record.talk_seconds, record.ended_by], ['answered', 'PJSIP/101001', 3, 'caller'])
    } finally {
      leader.child.kill('SIGKILL')
      // the test app closes the database it was given
      await (follower ? follower.close() : database?.close())
      await drop()
      await peer.close()
    }
  })
})

describe('a call passed on into another line\'s dialplan (transfers-lines.txt)', () => {
  it('that line closed, its menu answered in Kazakh: the call stays line 109\'s, open, in Russian, of its menu and organization', () => {
    const events = replayedEvents('transfers-lines.txt').map((e) => (e.message.UserEvent === 'AppealsCall' && e.message.Line === '5105'
      ? { ...e, message: { ...e.message, Closed: '1', ChosenLanguage: 'kk', Menu: '7', Choice: '2' } }
      : e))
    const calls = fold(events)
    assert.equal(calls.length, 2)
    for (const call of calls) assert.deepEqual([call.line, call.closed, call.language, call.menu_id, call.menu_choice, call.organization_prefix], ['109', false, 'ru', null, null, '404'])
  })
})

describe('the path\'s pieces that began together', () => {
  const piece = (iface: string, ms: number, seq: number) => ({ iface, from: { at: new Date(Date.UTC(2026, 11, 7, 10) + ms), seq } })
  const order = (pieces: ReturnType<typeof piece>[]) => inOrder(pieces).map((p) => p.iface)

  it('one burst (a three-way join told on two streams) is ordered by terminal, whichever came first', () => {
    assert.deepEqual(order([piece('PJSIP/404002', 0, 1), piece('PJSIP/404001', 20, 2)]), ['PJSIP/404001', 'PJSIP/404002'])
    assert.deepEqual(order([piece('PJSIP/404003', 0, 1), piece('PJSIP/404001', 30, 3), piece('PJSIP/404002', 45, 2)]), ['PJSIP/404001', 'PJSIP/404002', 'PJSIP/404003'])
    // apart by more than a burst's gap: by time
    assert.deepEqual(order([piece('PJSIP/404002', 0, 1), piece('PJSIP/404001', 60, 2)]), ['PJSIP/404002', 'PJSIP/404001'])
  })

  it('a steady run of pieces 40 ms apart is a burst for 250 ms at most, then time orders them again', () => {
    const run = ['PJSIP/404009', 'PJSIP/404008', 'PJSIP/404007', 'PJSIP/404006', 'PJSIP/404005', 'PJSIP/404004', 'PJSIP/404003', 'PJSIP/404002', 'PJSIP/404001']
    const ordered = order(run.map((iface, i) => piece(iface, i * 40, i)))
    // 0-240 ms one burst (by terminal), 280-320 ms the next
    assert.deepEqual(ordered, [...run.slice(0, 7).sort(), ...run.slice(7).sort()])
  })
})
