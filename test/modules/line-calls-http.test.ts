import assert from 'node:assert/strict'
import { createServer, type AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import { createDb, type Database } from '../../src/db/client.js'
import { eq } from 'drizzle-orm'
import { memberStatePeriods, memberStates, personalDataAccess } from '../../src/db/schema/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { replayedEvents } from '../helpers/ami-recording.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createPostgresTestDatabaseUrl, createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeTerminal, makeUser } from '../helpers/factories.js'
import { centreDayOf } from '../helpers/clock.js'
import { eventually } from '../helpers/http-target.js'
import { assertLiveEvents, openSse } from '../helpers/sse.js'

type Headers = Record<string, string>
type Peer = Awaited<ReturnType<typeof startAmiPeer>>

describe('the line\'s calls from Asterisk\'s events (/api/line-calls), against the AMI peer replaying the real recordings', () => {
  let peer: Peer
  let database: Database
  let t: TestApp
  let admin: Headers
  let manager: Headers
  let otherManager: Headers
  let operator: Headers
  let orgId: number
  const get = (url: string, headers: Headers = admin) => t.app.inject({ url, headers })
  const calls = async (query = '', headers: Headers = admin) => (await get(`/api/line-calls${query}`, headers)).json() as { items: Record<string, unknown>[], total: number }

  before(async () => {
    peer = await startAmiPeer()
    database = await createTestDatabase()
    t = await buildTestApp({ database, env: peer.env() })
    await t.app.ready()
    const db = database.db
    const org = await makeOrganization(db, { prefix: '101' })
    orgId = org.id
    const other = await makeOrganization(db, { prefix: '102' })
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
    otherManager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: other.id }))
    const operatorUser = await makeUser(db, { role: 'operator', organization_id: org.id })
    operator = await login(t.app, operatorUser)
    // the lab's agents are the organization's terminals 101001 (the operator's) and 101002
    await makeTerminal(t.app, admin, org.id, '001', operatorUser.id)
    await makeTerminal(t.app, admin, org.id, '002')
    await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
  })
  after(async () => {
    await t.app.close()
    await database.close()
    await peer.close()
  })

  it('streams on a connection of its own (Events: call,agent,user); actions keep a connection with events off', () => {
    const logins = peer.state.received.filter((a) => a.Action === 'Login').map((a) => a.Events)
    assert.ok(logins.includes('call,agent,user'), JSON.stringify(logins))
  })

  it('an answered call: kept with its queue, its organization, the agent rung and who answered after how long', async () => {
    peer.replay('queue-answered.txt')
    const page = await eventually(async () => { const p = await calls(); return p.items[0]?.ended_at ? p : undefined }, 10_000, 'the call ended')
    assert.equal(page.total, 1)
    const call = page.items[0]!
    assert.equal(call.linkedid, '1795557215.0')
    assert.equal(call.organization_id, orgId)
    assert.equal(call.queue, 'org101-queue')
    assert.equal(call.caller_number, '+77010000001')
    assert.equal(call.outcome, 'answered')
    assert.equal(call.answered_by, 'PJSIP/101001')
    assert.equal(call.hold_seconds, 3)
    assert.equal(call.talk_seconds, 3)
    assert.equal(call.ended_by, 'caller')
    assert.deepEqual((call.attempts as { interface: string, result: string, ring_seconds: number }[]).map((a) => [a.interface, a.result, a.ring_seconds]), [['PJSIP/101001', 'answered', 2]])
    const one = await get('/api/line-calls/1795557215.0', manager)
    assert.equal(one.statusCode, 200)
    assert.deepEqual(one.json(), call)
  })

  it('after the connection drops the service reconnects, and the next calls are kept: two abandoned', async () => {
    const logins = peer.state.received.filter((a) => a.Action === 'Login' && a.Events === 'call,agent,user').length
    const statuses = peer.state.received.filter((a) => a.Action === 'QueueStatus' && !a.Member).length
    peer.dropStreams()
    assert.equal(peer.streaming(), 0)
    await eventually(async () => peer.streaming() === 1, 15_000, 'the stream reconnected')
    assert.equal(peer.state.received.filter((a) => a.Action === 'Login' && a.Events === 'call,agent,user').length, logins + 1)
    // the calls come after the reconnection's QueueStatus was asked, as on a real line (this peer's status knows no replayed caller)
    await eventually(async () => peer.state.received.filter((a) => a.Action === 'QueueStatus' && !a.Member).length > statuses, 15_000, 'the status read after the reconnection')
    peer.replay('queue-abandoned.txt')
    // the page's items and its total are two reads: both are waited for
    const abandoned = await eventually(async () => { const p = await calls('?outcome=abandoned'); return p.total === 2 && p.items.length === 2 && p.items.every((c) => c.ended_at) ? p : undefined }, 10_000, 'two abandoned calls')
    assert.deepEqual(abandoned.items.map((c) => [c.linkedid, c.hold_seconds]).sort(), [['1795557234.0', 4], ['1795557241.2', 5]], JSON.stringify(abandoned.items))
  })

  it('a Queue() timeout is timed_out, not abandoned', async () => {
    peer.replay('queue-empty.txt')
    const page = await eventually(async () => { const p = await calls('?outcome=timed_out'); return p.total === 1 && p.items[0]!.ended_at ? p : undefined }, 10_000, 'the timed-out call')
    assert.equal(page.items[0]!.hold_seconds, 60)
  })

  it('a manager sees its organization\'s calls only; an operator none; paging is bounded', async () => {
    assert.equal((await calls('', manager)).total, 4)
    assert.deepEqual(await calls('', otherManager), { items: [], total: 0 })
    assert.equal((await get('/api/line-calls/1795557215.0', otherManager)).statusCode, 404)
    const refused = await get('/api/line-calls', operator)
    assert.equal(refused.statusCode, 403)
    const paged = await calls('?limit=1&skip=1')
    assert.equal(paged.items.length, 1)
    assert.equal(paged.total, 4)
  })

  it('bad input is a 422 naming the field; an unknown call 404; no token 401', async () => {
    for (const [query, loc] of [['?limit=0', 'limit'], ['?limit=1001', 'limit'], ['?outcome=lost', 'outcome'], ['?skip=-1', 'skip']] as const) {
      const res = await get(`/api/line-calls${query}`)
      assert.equal(res.statusCode, 422, query)
      assert.deepEqual(res.json().detail[0].loc, ['query', loc])
    }
    const bad = await get('/api/line-calls/not-an-id')
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['path', 'linkedid'])
    assert.equal((await get('/api/line-calls/1.2')).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/api/line-calls' })).statusCode, 401)
  })

  it('the queue figures, worked out by hand from the recorded calls (Asterisk\'s definitions)', async () => {
    peer.replay('queue-ringnoanswer.txt')
    peer.replay('queue-pause.txt')
    await eventually(async () => (await calls()).items.filter((c) => c.ended_at).length === 7, 10_000, 'the seven recorded calls ended')
    // the calls joined just now: a period around today holds them whatever the hour
    const day = (offset: number) => centreDayOf(Date.now() + offset * 86_400_000)
    const res = await get(`/api/line-calls/kpis?date_from=${day(-1)}&date_to=${day(1)}`, manager)
    assert.equal(res.statusCode, 200, res.body)
    const kpis = res.json()
    // holds: answered 3, 22, 7 (talk 3, 4, 3); abandoned 4, 5, 3; timed out 60. The default queue: servicelevel 20, wrapuptime 5
    const expected = {
      offered: 7, answered: 3, abandoned: 1, short_abandoned: 2, timed_out: 1, answered_within_service_level: 2,
      service_level: 66.7, // 2 of 3 answered within 20 s (ServicelevelPerf)
      service_level_with_abandoned: 71.4, // (2 answered + 3 abandoned within 20 s) / (3 + 4) (ServicelevelPerf2)
      average_speed_of_answer: 10.7, // (3 + 22 + 7) / 3
      average_talk: 3.3, // (3 + 4 + 3) / 3
      average_handling: 8.3, // (3 + 4 + 3 + 3 × 5) / 3
      longest_hold: 60,
      ratings: 0, average_rating: null, rated_share: 0, // no rating menu on these queues
    }
    assert.deepEqual(kpis.totals, expected)
    assert.deepEqual(kpis.queues, [{ queue: 'org101-queue', ...expected, waiting_now: 0, longest_wait_now: null }])
    assert.equal(kpis.days.length, 3)
    assert.equal(kpis.intervals.length, 3 * 48)
    assert.equal(kpis.intervals.reduce((n: number, i: { offered: number }) => n + i.offered, 0), 7)
    assert.equal(kpis.days.reduce((n: number, d: { answered: number }) => n + d.answered, 0), 3)
    assert.deepEqual(kpis.operators.map((o: Record<string, unknown>) => [o.interface, o.calls, o.talk_seconds, o.wrapup_seconds, o.handling_seconds, o.average_handling]), [
      ['PJSIP/101001', 2, 6, 10, 16, 8],
      ['PJSIP/101002', 1, 4, 5, 9, 9],
    ])
    assert.equal((await get(`/api/line-calls/kpis?date_from=${day(-1)}&date_to=${day(1)}&short_abandon_seconds=0`)).json().totals.abandoned, 3, 'no abandon is short under 0 s')
    // another organization's manager: nothing of it
    assert.equal((await get(`/api/line-calls/kpis?date_from=${day(-1)}&date_to=${day(1)}`, otherManager)).json().totals.offered, 0)

    // a caller waiting now: the first events of a call, up to its joining the queue, under another id
    const joined = replayedEvents('queue-answered.txt').findIndex((e) => e.message.Event === 'QueueCallerJoin') + 1
    const join = peer.replay('queue-answered.txt', { to: joined, rewrite: (m) => ({ ...m, Uniqueid: m.Uniqueid?.replace('1795557215', '1795558888'), Linkedid: m.Linkedid?.replace('1795557215', '1795558888') }) })
    assert.ok(join > 0)
    const waiting = await eventually(async () => {
      const q = (await get('/api/line-calls/kpis', manager)).json().queues[0]
      return q?.waiting_now === 1 ? q : undefined
    }, 10_000, 'a caller waiting')
    assert.ok(waiting.longest_wait_now >= 0 && waiting.longest_wait_now < 600, String(waiting.longest_wait_now))
  })

  it('the board: today\'s figures, who waits, the agents\' states; after a reconnection the states are Asterisk\'s QueueStatus; line.changed tells the boards', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const stream = await openSse(`${base}/api/call-events/stream`, manager)
    try {
      type Board = { agents: { interface: string, terminal_id: string, name: string, state: string, reason: string | null, since: string, break_over_seconds: number | null, browser: boolean }[], waiting: { linkedid: string }[], queues: { queue: string, waiting_now: number, offered: number }[] }
      const board = async (headers: Headers = manager) => (await get('/api/line-calls/board', headers)).json() as Board
      // after the recorded calls both agents are ready again, 101001 once its 5 s of wrap-up are over
      const now = await eventually(async () => { const b = await board(); return b.agents.length === 2 && b.agents.every((a) => a.state === 'ready') ? b : undefined }, 15_000, 'both agents ready')
      assert.deepEqual(now.agents.map((a) => [a.interface, a.terminal_id, a.name, a.browser]), [['PJSIP/101001', '101001', 'Иванов Иван', false], ['PJSIP/101002', '101002', 'Пульт 002', false]])
      // 101002 made a browser phone: the board says its operator works from the console
      assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${orgId}/endpoints/101002`, headers: admin, payload: { phone: 'browser' } })).statusCode, 200)
      assert.deepEqual((await board()).agents.map((a) => a.browser), [false, true])
      assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${orgId}/endpoints/101002`, headers: admin, payload: { phone: 'desk' } })).statusCode, 200)
      // the caller of the test before still waits
      assert.deepEqual(now.waiting.map((w) => w.linkedid), ['1795558888.0'])
      // the waiting caller's number was shown: the read is in the audit of personal data
      const boardReads = (await t.database.db.select().from(personalDataAccess)).filter((r) => r.route === '/api/line-calls/board').sort((a, b) => a.id - b.id)
      assert.deepEqual(boardReads.at(-1)?.subject_ids, ['1795558888.0'])
      assert.deepEqual(now.queues.map((q) => [q.queue, q.waiting_now, q.offered]), [['org101-queue', 1, 8]])

      // Asterisk has 101001 on a lunch break and 101002 unregistered, told while the service was not listening
      peer.state.members = [
        { queue: 'org101-queue', name: 'Agent 101001', interface: 'PJSIP/101001', paused: true, reason: 'lunch', lastPause: 0 },
        { queue: 'org101-queue', name: 'Agent 101002', interface: 'PJSIP/101002', paused: true, reason: 'offline', lastPause: 0 },
      ]
      peer.dropStreams()
      // each member's state is written in turn: both are read once the second is
      const after = await eventually(async () => { const b = await board(); return b.agents[0]?.state === 'break' && b.agents[1]?.state === 'offline' ? b : undefined }, 15_000, 'the states taken from QueueStatus')
      assert.deepEqual(after.agents.map((a) => [a.state, a.reason]), [['break', 'lunch'], ['offline', 'offline']])
      // lunch may last 60 minutes: 101001's began 75 minutes ago, so the board says by how much it is over
      assert.equal(after.agents[0]!.break_over_seconds, null)
      await t.database.db.update(memberStates).set({ since: new Date(Date.now() - 75 * 60_000) }).where(eq(memberStates.interface, 'PJSIP/101001'))
      const over = (await board()).agents[0]!
      assert.ok(over.break_over_seconds! >= 15 * 60 && over.break_over_seconds! < 25 * 60, `${over.break_over_seconds} s over`)
      // the administrator lifts lunch's limit: nobody is over
      assert.equal((await t.app.inject({ method: 'PUT', url: '/api/agents/break-reasons/lunch', headers: admin, payload: { max_minutes: null } })).statusCode, 200)
      assert.equal((await board()).agents[0]!.break_over_seconds, null)
      await t.app.inject({ method: 'PUT', url: '/api/agents/break-reasons/lunch', headers: admin, payload: { max_minutes: 60 } })
      await eventually(async () => stream.events.some((e) => e.event === 'line.changed' && e.data.organization_id === orgId), 10_000, 'line.changed on the manager\'s stream')
      assertLiveEvents(stream.events)

      const other = await board(otherManager)
      // its own queue, configured and not yet called, at zero; nothing of another organization's
      assert.deepEqual([other.agents, other.waiting, other.queues.map((q) => [q.queue, q.waiting_now, q.offered])], [[], [], [['org102-queue', 0, 0]]])
      // each with its own name, for the console to say
      assert.deepEqual((other.queues as unknown as { name: string | null, is_default: boolean }[]).map((q) => [q.name, q.is_default]), [['Очередь организации', true]])
      assert.equal((await get('/api/line-calls/board', manager)).json().pbx, 'connected')
      assert.equal((await get('/api/line-calls/board', operator)).statusCode, 403)
      assert.equal((await t.app.inject({ url: '/api/line-calls/board' })).statusCode, 401)
    } finally {
      await stream.close()
    }
  })

  it('a gap in the events: after the reconnection the calls in progress are Asterisk\'s QueueStatus; none lost, none counted twice', async () => {
    const ids = (id: string) => (m: Record<string, string>) => ({ ...m, Uniqueid: m.Uniqueid?.replace('1795557215', id), Linkedid: m.Linkedid?.replace('1795557215', id) })
    const recording = replayedEvents('queue-answered.txt')
    const joined = recording.findIndex((e) => e.message.Event === 'QueueCallerJoin') + 1
    const connected = recording.findIndex((e) => e.message.Event === 'AgentConnect') + 1
    const call = async (linkedid: string) => (await get(`/api/line-calls/${linkedid}`)).json() as Record<string, unknown>
    // A waits in the queue; B is answered and talking; then the connection drops
    peer.replay('queue-answered.txt', { to: joined, rewrite: ids('1795551001') })
    peer.replay('queue-answered.txt', { to: connected, rewrite: ids('1795551002') })
    await eventually(async () => (await call('1795551002.0')).outcome === 'answered' && (await call('1795551001.0')).outcome === 'waiting', 10_000, 'A waiting, B answered')
    const before = (await calls()).total
    // while the service hears nothing: A still waits, B's caller hangs up, C joins the queue; the waiting caller of an earlier test left unseen
    peer.state.members = [{ queue: 'org101-queue', name: 'Agent 101001', interface: 'PJSIP/101001', paused: false, reason: '', lastPause: 0 }]
    peer.state.callers = [{ queue: 'org101-queue', uniqueid: '1795551001.0', callerNumber: '+77010000001', wait: 9 }, { queue: 'org101-queue', uniqueid: '1795551003.0', callerNumber: 'unknown', wait: 6 }]
    const statusAsked = Date.now()
    peer.dropStreams()
    const taken = await eventually(async () => { const c = await get('/api/line-calls/1795551003.0'); return c.statusCode === 200 ? c.json() as Record<string, string | number | null> : undefined }, 15_000, 'C taken from QueueStatus')
    assert.deepEqual([taken.outcome, taken.queue, taken.position, taken.caller_number, taken.organization_id], ['waiting', 'org101-queue', 2, null, orgId])
    const waited = statusAsked - Date.parse(String(taken.joined_at))
    assert.ok(waited >= 5_000 && waited < 60_000, `C joined 6 s before the status: ${waited} ms`)
    await eventually(async () => (await call('1795551002.0')).ended_at !== null, 10_000, 'B ended')
    const b = await call('1795551002.0')
    assert.deepEqual([b.outcome, b.talk_seconds], ['answered', null], 'B\'s end was not heard: answered, its talk unknown')
    const earlier = await call('1795558888.0')
    assert.equal(earlier.outcome, 'unobserved')
    assert.notEqual(earlier.ended_at, null)
    assert.equal((await call('1795551001.0')).outcome, 'waiting')
    // the events go on: A and C are answered and end as Asterisk tells it, each one call
    peer.replay('queue-answered.txt', { from: joined, rewrite: ids('1795551001') })
    peer.replay('queue-answered.txt', { from: joined, rewrite: ids('1795551003') })
    for (const id of ['1795551001.0', '1795551003.0']) {
      await eventually(async () => (await call(id)).ended_at !== null, 10_000, `${id} ended`)
      const c = await call(id)
      assert.deepEqual([c.outcome, c.answered_by, c.talk_seconds], ['answered', 'PJSIP/101001', 3], id)
    }
    assert.equal((await calls()).total, before + 1, 'one more call (C), none twice')
    const day = (offset: number) => centreDayOf(Date.now() + offset * 86_400_000)
    const totals = (await get(`/api/line-calls/kpis?date_from=${day(-1)}&date_to=${day(1)}`)).json().totals
    assert.equal(totals.offered, before + 1)
    // the one left unseen is offered, and counted neither answered nor abandoned
    assert.equal(totals.answered + totals.abandoned + totals.short_abandoned + totals.timed_out, totals.offered - 1)
  })

  it('the operators\' time by state, pauses by reason and occupancy, worked out by hand from a day of state periods', async () => {
    // a day three days ago, in the centre's zone (+05:00): 101001's states as the events would have kept them
    const day = centreDayOf(Date.now() - 3 * 86_400_000)
    const before = centreDayOf(Date.parse(`${day}T12:00:00+05:00`) - 86_400_000)
    const at = (time: string, date = day) => new Date(`${date}T${time}+05:00`)
    const periods: [string, string, string | null, Date, Date | null][] = [
      ['PJSIP/101001', 'break', 'coffee', at('23:50:00', before), at('00:10:00')], // 600 s of it in the day
      ['PJSIP/101001', 'offline', 'offline', at('00:10:00'), at('08:00:00')], // 28 200
      ['PJSIP/101001', 'ready', null, at('08:00:00'), at('09:30:00')], // 5 400
      ['PJSIP/101001', 'ringing', null, at('09:30:00'), at('09:30:10')], // 10
      ['PJSIP/101001', 'on_call', null, at('09:30:10'), at('09:35:10')], // 300
      ['PJSIP/101001', 'wrap_up', null, at('09:35:10'), at('09:35:40')], // 30
      ['PJSIP/101001', 'break', 'lunch', at('09:35:40'), at('10:35:40')], // 3 600
      ['PJSIP/101001', 'break', null, at('10:35:40'), at('10:40:40')], // 300, no reason given
      ['PJSIP/101001', 'offline', 'offline', at('10:40:40'), null], // still lasting: up to the day's end, 47 960
      ['PJSIP/102001', 'ready', null, at('09:00:00'), at('10:00:00')], // a terminal of no organization of the manager's
    ]
    await database.db.insert(memberStatePeriods).values(periods.map(([iface, state, reason, started_at, ended_at]) => ({ interface: iface, state, reason, started_at, ended_at } as typeof memberStatePeriods.$inferInsert)))
    const res = await get(`/api/line-calls/kpis?date_from=${day}&date_to=${day}`, manager)
    assert.equal(res.statusCode, 200, res.body)
    const operators = res.json().operators as Record<string, unknown>[]
    assert.deepEqual(operators.map((o) => o.interface), ['PJSIP/101001'])
    assert.deepEqual(operators[0], {
      interface: 'PJSIP/101001', terminal_id: '101001', name: 'Иванов Иван', calls: 0, talk_seconds: 0, wrapup_seconds: 0, handling_seconds: 0, average_handling: null, ratings: 0, average_rating: null, rated_share: null,
      state_seconds: { ready: 5400, ringing: 10, on_call: 300, wrap_up: 30, break: 4500, offline: 76_160 }, // 86 400 in all
      pauses: [{ reason: 'lunch', seconds: 3600 }, { reason: 'coffee', seconds: 600 }, { reason: '', seconds: 300 }],
      pause_seconds: 4500,
      occupancy: 5.7, // 100 × (300 + 30) / (5 400 + 10 + 300 + 30) = 5.749
    })
    const all = (await get(`/api/line-calls/kpis?date_from=${day}&date_to=${day}`)).json().operators as Record<string, unknown>[]
    assert.deepEqual(all.map((o) => [o.interface, o.name, o.occupancy]), [['PJSIP/101001', 'Иванов Иван', 5.7], ['PJSIP/102001', null, 0]])
  })

  it('reports as files: the calls of a period, and the figures by day, queue, interval and operator, in CSV and XLSX, Russian and Kazakh', async () => {
    const day = (offset: number) => centreDayOf(Date.now() + offset * 86_400_000)
    const period = `date_from=${day(-1)}&date_to=${day(1)}`
    const csvLines = (body: string) => body.replace(/^\uFEFF/, '').trimEnd().split('\r\n')
    // the calls: every call of the manager's organization, newest first, one line each
    const listed = await calls('?limit=1000', manager)
    const res = await get(`/api/line-calls/export?${period}&format=csv`, manager)
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^text\/csv/)
    assert.match(String(res.headers['content-disposition']), new RegExp(`attachment; filename="line-calls-${day(-1)}_${day(1)}\\.csv"`))
    assert.equal(res.headers['x-export-rows'], String(listed.total))
    assert.equal(res.headers['x-export-truncated'], 'false')
    const lines = csvLines(res.body)
    assert.ok(res.body.startsWith('\uFEFFНачало,Номер звонящего,Линия,Вне графика,Меню,Язык,Очередь,В очереди с,Итог,'), lines[0])
    assert.equal(lines.length, listed.total + 1)
    assert.deepEqual(lines.slice(1).map((l) => l.split(',').at(-1)), listed.items.map((c) => c.linkedid))
    const first = lines.find((l) => l.endsWith(',1795557215.0'))!.split(',')
    assert.deepEqual([first[1], first[3], first[4], first[6], first[8], first[9], first[10], first[11], first[12]], ['+77010000001', '', '', 'org101-queue', 'Отвечен', '3', 'PJSIP/101001', '3', 'Звонящий'])
    assert.ok(lines.some((l) => l.includes(',Исход неизвестен (разрыв связи с АТС),')), 'the call a gap hid')
    const abandoned = await get(`/api/line-calls/export?${period}&format=csv&outcome=abandoned&lang=kk`, manager)
    assert.deepEqual(csvLines(abandoned.body).slice(1).map((l) => l.split(',')[8]), ['Тастап кетті', 'Тастап кетті', 'Тастап кетті'])
    assert.equal(csvLines((await get(`/api/line-calls/export?${period}&format=csv`, otherManager)).body).length, 1, 'another organization: the heading only')
    const book = new ExcelJS.Workbook()
    const xlsx = await get(`/api/line-calls/export?${period}&lang=kk`, manager)
    assert.match(String(xlsx.headers['content-type']), /spreadsheetml/)
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]!
    assert.equal(sheet.name, 'Қоңыраулар')
    assert.equal(sheet.getRow(1).getCell(9).value, 'Нәтижесі')
    assert.equal(sheet.rowCount, listed.total + 1)

    // the figures: the same numbers as /kpis, a row per breakdown's member
    const kpis = (await get(`/api/line-calls/kpis?${period}`, manager)).json()
    const byDay = csvLines((await get(`/api/line-calls/kpis/export?${period}&by=day&format=csv`, manager)).body)
    assert.equal(byDay[0], 'День,Поступило,Отвечено,Брошено,Брошено быстро,Истекло ожидание,Отвечено в пределах SL,"Уровень обслуживания, %","Уровень обслуживания с брошенными, %","Ср. ожидание ответа, с","Ср. разговор, с","Ср. обработка, с","Макс. ожидание, с",Оценок,Ср. оценка,"Оценили, %"')
    assert.deepEqual(byDay.slice(1).map((l) => l.split(',').slice(0, 3)), kpis.days.map((d: { day: string, offered: number, answered: number }) => [d.day, String(d.offered), String(d.answered)]))
    const byQueue = csvLines((await get(`/api/line-calls/kpis/export?${period}&by=queue&format=csv&lang=kk`, manager)).body)
    assert.ok(byQueue[0]!.startsWith('Кезек,Түскені,'))
    assert.deepEqual(byQueue.slice(1).map((l) => l.split(',').slice(0, 2)), [['org101-queue', String(kpis.queues[0].offered)]])
    const intervals = await get(`/api/line-calls/kpis/export?${period}&by=interval&format=csv`, manager)
    assert.equal(intervals.headers['x-export-rows'], String(3 * 48))
    assert.equal(csvLines(intervals.body)[1]!.split(',')[0], `${day(-1)} 00:00`, 'intervals in the centre\'s clock')
    const operators = await get(`/api/line-calls/kpis/export?${period}&by=operator`, manager)
    await book.xlsx.load(operators.rawPayload as unknown as ArrayBuffer)
    const sheet2 = book.worksheets.at(-1)!
    assert.equal(sheet2.name, 'По операторам')
    assert.deepEqual([sheet2.getRow(2).getCell(1).value, sheet2.getRow(2).getCell(3).value], [kpis.operators[0].name, kpis.operators[0].calls])
    assert.equal(sheet2.getRow(1).getCell(12).value, 'Занятость, %')

    // refused and bad input
    for (const [url, loc] of [['/api/line-calls/export?format=pdf', 'format'], ['/api/line-calls/export?lang=en', 'lang'], ['/api/line-calls/export?date_from=2026-01-01&date_to=2026-03-01', 'date_from'],
      ['/api/line-calls/export?outcome=lost', 'outcome'], ['/api/line-calls/kpis/export?by=week', 'by'], ['/api/line-calls/kpis/export?queue=x', 'queue']] as const) {
      const bad = await get(url)
      assert.equal(bad.statusCode, 422, url)
      assert.deepEqual(bad.json().detail[0].loc, ['query', loc], url)
    }
    assert.equal((await get('/api/line-calls/export', operator)).statusCode, 403)
    assert.equal((await get('/api/line-calls/kpis/export', operator)).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/line-calls/export' })).statusCode, 401)
  })

  it('the figures\' bad input is a 422 naming the field; an operator is refused', async () => {
    const today = centreDayOf()
    for (const [query, loc] of [
      [`date_from=${today}&date_to=2020-01-01`, 'date_from'], ['date_from=2026-01-01&date_to=2026-03-01', 'date_from'], ['date_to=2026-13-01', 'date_to'],
      ['queue=support', 'queue'], ['short_abandon_seconds=-1', 'short_abandon_seconds'], ['short_abandon_seconds=121', 'short_abandon_seconds'],
    ] as const) {
      const res = await get(`/api/line-calls/kpis?${query}`)
      assert.equal(res.statusCode, 422, query)
      assert.deepEqual(res.json().detail[0].loc, ['query', loc], query)
    }
    assert.equal((await get('/api/line-calls/kpis', operator)).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/line-calls/kpis' })).statusCode, 401)
  })

  it('the citizen\'s score after the operator hung up (Asterisk 22\'s recorded traffic): kept on the call, in the figures; a 1 or 2 waits on the review list', async () => {
    const RATED = '1795922610.0'
    peer.replay('queue-rated.txt')
    const call = await eventually(async () => { const c = (await get(`/api/line-calls/${RATED}`)).json(); return c.ended_at ? c : undefined }, 10_000, 'the rated call ended')
    assert.deepEqual([call.outcome, call.answered_by, call.ended_by, call.rating, call.menu_choice, call.language], ['answered', 'PJSIP/101001', 'agent', 4, '1', 'kk'])
    const day = (offset: number) => centreDayOf(Date.now() + offset * 86_400_000)
    const kpis = (await get(`/api/line-calls/kpis?date_from=${day(-1)}&date_to=${day(1)}`, manager)).json()
    const queue = kpis.queues.find((q: { queue: string }) => q.queue === 'org101-q2')
    assert.deepEqual([queue.answered, queue.ratings, queue.average_rating, queue.rated_share], [1, 1, 4, 100])
    assert.equal(kpis.totals.ratings, 1)
    const agent = kpis.operators.find((o: { interface: string }) => o.interface === 'PJSIP/101001')
    assert.deepEqual([agent.ratings, agent.average_rating], [1, 4])
    const board = (await get('/api/line-calls/board', manager)).json()
    assert.equal(board.totals.ratings, 1, 'the board shows the day\'s scores')
    assert.deepEqual((await get('/api/line-calls/reviews', manager)).json(), { items: [], total: 0 }, 'a 4 is not for review')
    let res = await t.app.inject({ method: 'POST', url: `/api/line-calls/${RATED}/review`, headers: manager, payload: { comment: 'Проверено' } })
    assert.deepEqual([res.statusCode, res.json().code], [409, 'not_for_review'])

    // the same call scored 2 (another call's ids): on the list until a supervisor reviews it
    const LOW = '1795922999.0'
    peer.replay('queue-rated.txt', { rewrite: (m) => ({ ...m, ...(m.Linkedid ? { Linkedid: m.Linkedid.replace('1795922610', '1795922999') } : {}), ...(m.Uniqueid ? { Uniqueid: m.Uniqueid.replace('1795922610', '1795922999') } : {}), ...(m.Rating ? { Rating: '2', UserEvent: m.UserEvent } : {}) }) })
    const listed = await eventually(async () => { const page = (await get('/api/line-calls/reviews', manager)).json(); return page.total === 1 ? page : undefined }, 10_000, 'the low score on the review list')
    assert.deepEqual([listed.items[0].linkedid, listed.items[0].rating, listed.items[0].reviewed_at], [LOW, 2, null])
    assert.deepEqual((await get('/api/line-calls/reviews', otherManager)).json(), { items: [], total: 0 }, 'another organization\'s supervisor sees none')
    assert.equal((await get('/api/line-calls/reviews', operator)).statusCode, 403)
    for (const [payload, field] of [[{}, 'comment'], [{ comment: '' }, 'comment'], [{ comment: '   ' }, 'comment'], [{ comment: 'x'.repeat(2001) }, 'comment']] as const) {
      res = await t.app.inject({ method: 'POST', url: `/api/line-calls/${LOW}/review`, headers: manager, payload })
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
    }
    res = await t.app.inject({ method: 'POST', url: `/api/line-calls/${LOW}/review`, headers: otherManager, payload: { comment: 'Чужой' } })
    assert.equal(res.statusCode, 404, 'another organization\'s call: no hint it exists')
    res = await t.app.inject({ method: 'POST', url: `/api/line-calls/${LOW}/review`, headers: operator, payload: { comment: 'Я' } })
    assert.equal(res.statusCode, 403)
    res = await t.app.inject({ method: 'POST', url: `/api/line-calls/${LOW}/review`, headers: manager, payload: { comment: 'Прослушано: оператор не уточнил адрес, проведена беседа' } })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().review_comment, 'Прослушано: оператор не уточнил адрес, проведена беседа')
    assert.ok(res.json().reviewed_at)
    assert.deepEqual((await get('/api/line-calls/reviews', manager)).json(), { items: [], total: 0 }, 'reviewed: off the list')
    res = await t.app.inject({ method: 'POST', url: `/api/line-calls/${LOW}/review`, headers: admin, payload: { comment: 'Ещё раз' } })
    assert.deepEqual([res.statusCode, res.json().code], [409, 'already_reviewed'])
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/line-calls/1.2/review', headers: manager, payload: { comment: 'Нет' } })).statusCode, 404)
  })
})

describe('one consumer of Asterisk\'s events across instances (PostgreSQL: an advisory lock)', { skip: process.env.TEST_DATABASE_URL ? undefined : 'the embedded database has one process: it always reads the events' }, () => {
  it('two instances: one streams; when it stops, the other takes over within 10 s', async () => {
    const peer = await startAmiPeer()
    const { url, drop } = await createPostgresTestDatabaseUrl(process.env.TEST_DATABASE_URL!)
    const databases: Database[] = [await createDb({ databaseUrl: url }), await createDb({ databaseUrl: url })]
    const apps: TestApp[] = []
    const streamLogins = () => peer.state.received.filter((a) => a.Action === 'Login' && a.Events === 'call,agent,user').length
    try {
      // the first instance starts alone and leads; the second starts beside it
      apps.push(await buildTestApp({ database: databases[0]!, env: peer.env() }))
      await apps[0]!.app.ready()
      await eventually(async () => peer.streaming() === 1, 10_000, 'the first instance streaming')
      apps.push(await buildTestApp({ database: databases[1]!, env: peer.env() }))
      await apps[1]!.app.ready()
      await new Promise((resolve) => setTimeout(resolve, 4000)) // past a lock check of the second: still one stream
      assert.equal(peer.streaming(), 1)
      assert.equal(streamLogins(), 1)
      await apps[0]!.app.close()
      await eventually(async () => peer.streaming() === 1 && streamLogins() === 2, 10_000, 'the second instance streaming')
    } finally {
      for (const a of apps) await a.app.close()
      for (const d of databases) await d.close()
      await drop()
      await peer.close()
    }
  })
})

describe('the board without Asterisk: it says so, and lists the queues configured at zero', () => {
  it('no AMI configured: not_configured; AMI that does not answer: unreachable; either way every queue at zero and no one said to be absent', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer()
      server.listen(0, '127.0.0.1', () => { const { port } = server.address() as AddressInfo; server.close(() => resolve(port)) })
    })
    for (const [env, expected] of [[{}, 'not_configured'], [{ AMI_HOST: '127.0.0.1', AMI_PORT: String(closedPort), AMI_USERNAME: 'appeals', AMI_SECRET: 'secret', AMI_TIMEOUT: '1s' }, 'unreachable']] as const) {
      const t = await buildTestApp({ env })
      try {
        const org = await makeOrganization(t.database.db, { prefix: '303' })
        const manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: org.id }))
        const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
        const queue = (await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/queues`, headers: admin, payload: { name: 'Казахская очередь' } })).json()
        const board = (await t.app.inject({ url: '/api/line-calls/board', headers: manager })).json()
        assert.equal(board.pbx, expected)
        assert.deepEqual(board.queues.map((q: { queue: string, offered: number, waiting_now: number, service_level: number | null }) => [q.queue, q.offered, q.waiting_now, q.service_level]),
          [['org303-q' + String(queue.id), 0, 0, null], ['org303-queue', 0, 0, null]])
        assert.deepEqual([board.agents, board.waiting], [[], []])
      } finally {
        await t.close()
      }
    }
  })
})
