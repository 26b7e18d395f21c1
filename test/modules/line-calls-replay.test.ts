// The 109 line as a real Asterisk 22.10.1 told it (test/fixtures/asterisk-ami/line-109.txt, recorded
// by `npm run test:pbx`): eight calls through the generated dialplan (closed by the calendar,
// answered in Kazakh, abandoned, timed out to the overflow, hung up in the menu, no choice, a wrong
// digit, a number no line owns), replayed by the AMI peer, which sends each event only to a
// connection whose classes take it, as Asterisk does. The records and figures must be what the real
// PBX run asserted.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { replayedEvents } from '../helpers/ami-recording.js'
import { buildTestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

const RECORDING = 'line-109.txt'
type Leg = { interface: string, number: string | null, how: string, from: string | null, started_at: string, ended_at: string | null, talk_seconds: number | null }
type Call = {
  legs: Leg[], answered_by: string | null, answered_at: string | null, ended_by: string | null, linkedid: string, line: string | null, closed: boolean, menu_choice: string | null, menu_exit: string | null,
  language: string | null, queue: string | null, outcome: string, organization_id: number | null, talk_seconds: number | null, ended_at: string | null,
  earlier_queues: { queue: string, answered_by: string | null, answered_at: string | null, talk_seconds: number | null }[],
}

/** the recording replayed to a service whose AMI user reads `read` (`seed`: the stream cut at random byte offsets); resolves once `ended` calls (default: every caller's) have ended */
async function lineOn ({ read, ended, seed, recording = RECORDING, prefix = '101', others = [] }: { read?: string, ended?: number, seed?: number, recording?: string, prefix?: string, others?: string[] } = {}) {
  const peer = await startAmiPeer(read === undefined ? {} : { read })
  const database = await createTestDatabase()
  const t = await buildTestApp({ database, env: peer.env() })
  const organizations = [await makeOrganization(database.db, { prefix }), ...await Promise.all(others.map((other) => makeOrganization(database.db, { prefix: other })))]
  const admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
  await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
  const calls = async () => ((await t.app.inject({ url: '/api/line-calls?limit=100', headers: admin })).json().items as Call[]).reverse()
  const expected = ended ?? replayedEvents(recording).filter((e) => e.message.Event === 'Hangup' && e.message.Uniqueid === e.message.Linkedid).length
  const close = async () => { await t.close(); await peer.close() }
  if (seed === undefined) peer.replay(recording)
  else await peer.replayInPieces(recording, seed)
  await eventually(async () => (await calls()).filter((c) => c.ended_at !== null).length === expected, 15_000, `the ${expected} calls ended`)
    .catch(async (err: unknown) => { await close(); throw err })
  return { peer, t, admin, calls, close, organizations, database }
}

describe('the 109 line replayed from a real Asterisk 22.10.1: every call kept, with its line, menu and end', () => {
  let line: Awaited<ReturnType<typeof lineOn>>
  before(async () => { line = await lineOn() })
  after(async () => { await line?.close() })

  it('the eight calls: their line, closed, menu exit and choice, language, queue and outcome', async () => {
    const calls = await line.calls()
    assert.deepEqual(calls.map((c) => [c.line, c.closed, c.menu_exit, c.menu_choice, c.language, c.queue, c.outcome]), [
      ['109', true, null, null, null, null, 'announced'],
      ['109', false, 'choice', '1', 'kk', 'org101-q2', 'answered'],
      ['109', false, 'choice', '2', 'ru', 'org101-queue', 'abandoned'],
      ['109', false, 'choice', '1', 'kk', 'org101-queue', 'abandoned'],
      ['109', false, 'hangup', null, null, null, 'ended'],
      ['109', false, 'timeout', null, null, null, 'hangup'],
      ['109', false, 'invalid', null, null, null, 'announced'],
      ['5550123', false, null, null, null, null, 'refused'],
    ])
    assert.deepEqual(calls[3]!.earlier_queues.map((q) => q.queue), ['org101-q2'], 'the overflowed call keeps the queue it timed out of')
  })

  it('the line\'s own figures, and the overflowed call in both queues\' figures', async () => {
    const kpis = (await line.t.app.inject({ url: '/api/line-calls/kpis', headers: line.admin })).json()
    const byLine = Object.fromEntries(kpis.lines.lines.map((l: { line: string }) => [l.line, l]))
    assert.deepEqual(byLine['109'], { line: '109', calls: 7, closed: 1, refused: 0, menu_hangup: 1, menu_timeout: 1, menu_invalid: 1, language_ru: 1, language_kk: 2, to_queue: 3 })
    assert.equal(byLine['5550123'].refused, 1)
    const byQueue = Object.fromEntries(kpis.queues.map((q: { queue: string }) => [q.queue, q]))
    assert.deepEqual([byQueue['org101-q2'].offered, byQueue['org101-q2'].answered, byQueue['org101-q2'].timed_out], [2, 1, 1])
    assert.deepEqual([byQueue['org101-queue'].offered, byQueue['org101-queue'].abandoned + byQueue['org101-queue'].short_abandoned], [2, 2])
    // by line as a report
    const csv = await line.t.app.inject({ url: '/api/line-calls/kpis/export?by=line&format=csv&lang=kk', headers: line.admin })
    assert.equal(csv.statusCode, 200)
    const rows = csv.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/)
    assert.ok(rows[0]!.startsWith('Желі,Желіге қоңыраулар,Кестеден тыс,'), rows[0])
    assert.deepEqual(rows.slice(1).map((r) => r.split(',').slice(0, 3)), [['109', '7', '1'], ['5550123', '1', '0']])
  })
})

describe('calls passed on, replayed from a real Asterisk 22.10.1 (transfers.txt, the browser phone\'s suite): each call\'s path', () => {
  let line: Awaited<ReturnType<typeof lineOn>>
  // six callers hang up: five came through the line, one is the colleague's own call to the browser phone
  before(async () => { line = await lineOn({ recording: 'transfers.txt', prefix: '404', ended: 5 }) })
  after(async () => { await line?.close() })

  it('answered; passed blind; consulted and back; passed attended; joined three-way: who talked with the citizen, how they came, for how long', async () => {
    const calls = (await line.calls()).filter((c) => c.queue !== null)
    const path = (c: Call) => c.legs.map((l) => [l.interface, l.how, l.from])
    assert.deepEqual(calls.map(path), [
      [['PJSIP/404001', 'queue', null]],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404002', 'blind', 'PJSIP/404001']],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404001', 'returned', null]],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404002', 'attended', 'PJSIP/404001']],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404001', 'returned', null], ['PJSIP/404002', 'three_way', 'PJSIP/404001']],
    ])
    for (const call of calls) {
      for (const [i, leg] of call.legs.entries()) {
        assert.ok(leg.ended_at !== null && leg.talk_seconds !== null && leg.talk_seconds >= 0, `${call.linkedid}: every leg ended with the call`)
        assert.ok(leg.started_at >= call.answered_at! && leg.ended_at <= call.ended_at!, 'inside the call')
        // in order of their start; pieces of one burst (a three-way join) by terminal
        if (i > 0) assert.ok(Date.parse(leg.started_at) >= Date.parse(call.legs[i - 1]!.started_at) - 50, 'in order')
      }
    }
    // the queue's own answer and end as Asterisk's AgentComplete said them: a transfer ended the first operator's part
    assert.deepEqual(calls.map((c) => [c.answered_by, c.ended_by]), [
      ['PJSIP/404001', 'caller'], ['PJSIP/404001', 'transfer'], ['PJSIP/404001', 'caller'], ['PJSIP/404001', 'transfer'], ['PJSIP/404001', 'caller'],
    ])
    // the three-way call: the colleague came while the operator was still there, and stayed (the peer sends
    // the events at once: their order, not their real gaps, which the PBX suite's own record checks)
    const [, back, joined] = calls[4]!.legs
    assert.ok(joined!.started_at <= back!.ended_at! && joined!.ended_at! >= back!.ended_at!)
  })
})

describe('a call passed on to a number outside, replayed from a real Asterisk 22.10.1 (transfer-outside.txt)', () => {
  let line: Awaited<ReturnType<typeof lineOn>>
  before(async () => { line = await lineOn({ recording: 'transfer-outside.txt', prefix: '404', ended: 1 }) })
  after(async () => { await line?.close() })

  it('the path names the number the citizen talked with through the trunk, passed blind by the operator', async () => {
    const [call] = await line.calls()
    assert.deepEqual(call!.legs.map((l) => [l.interface, l.number, l.how, l.from]), [
      ['PJSIP/404001', null, 'queue', null],
      ['PJSIP/trunk1', '+77010000002', 'blind', 'PJSIP/404001'],
    ], JSON.stringify(call))
    const outside = call!.legs[1]!
    assert.ok(outside.ended_at !== null && outside.ended_at <= call!.ended_at! && outside.talk_seconds! >= 0, `talked until the citizen hung up: ${JSON.stringify([outside, call!.ended_at])}`)
    assert.deepEqual([call!.answered_by, call!.ended_by, call!.outcome], ['PJSIP/404001', 'transfer', 'answered'])
  })
})

describe('calls passed on into another organization\'s line, replayed from a real Asterisk 22.10.1 (transfers-lines.txt): each queue counts them', () => {
  let line: Awaited<ReturnType<typeof lineOn>>
  let managers: Record<string, string>[]
  before(async () => {
    line = await lineOn({ recording: 'transfers-lines.txt', prefix: '404', others: ['405'], ended: 2 })
    managers = await Promise.all(line.organizations.map(async (o) => login(line.t.app, await makeUser(line.database.db, { role: 'manager', organization_id: o.id }))))
  })
  after(async () => { await line?.close() })

  it('blind and attended to the dispatcher\'s line: the path names both operators, the centre\'s queue keeps its answer, the call is the executor\'s queue\'s from then on', async () => {
    const calls = (await line.calls()).filter((c) => c.queue !== null)
    assert.deepEqual(calls.map((c) => c.legs.map((l) => [l.interface, l.how, l.from])), [
      [['PJSIP/404001', 'queue', null], ['PJSIP/405001', 'blind', 'PJSIP/404001']],
      [['PJSIP/404001', 'queue', null], ['PJSIP/405001', 'attended', 'PJSIP/404001']],
    ])
    const [, executor] = line.organizations
    // each queue's talk as its AgentComplete said it (the centre's `Reason: transfer`, at once after the answer in the blind call,
    // 5 s with the consultation in the attended one; the AgentComplete of the queue left comes after the next queue's answer)
    assert.deepEqual(calls.map((c) => [c.queue, c.answered_by, c.outcome, c.organization_id, c.talk_seconds, c.ended_by]), [
      ['org405-queue', 'PJSIP/405001', 'answered', executor!.id, 1, 'caller'],
      ['org405-queue', 'PJSIP/405001', 'answered', executor!.id, 2, 'caller'],
    ])
    assert.deepEqual(calls.map((c) => c.earlier_queues.map((q) => [q.queue, q.answered_by, q.answered_at !== null, q.talk_seconds])), [
      [['org404-queue', 'PJSIP/404001', true, 0]],
      [['org404-queue', 'PJSIP/404001', true, 5]],
    ])
  })

  it('the figures: each queue counts both calls as answered in its own organization, each operator their answers, the line each call once', async () => {
    const [centreManager, executorManager] = managers
    const figures = async (who: Record<string, string>) => (await line.t.app.inject({ url: '/api/line-calls/kpis', headers: who })).json()
    const centre = await figures(centreManager!)
    const executor = await figures(executorManager!)
    const queues = (kpis: { queues: { queue: string, offered: number, answered: number, timed_out: number }[] }) => kpis.queues.map((q) => [q.queue, q.offered, q.answered, q.timed_out])
    assert.deepEqual(queues(centre), [['org404-queue', 2, 2, 0]])
    assert.deepEqual(queues(executor), [['org405-queue', 2, 2, 0]])
    const operators = (kpis: { operators: { interface: string, calls: number }[] }) => kpis.operators.map((o) => [o.interface, o.calls])
    assert.deepEqual(operators(centre), [['PJSIP/404001', 2]])
    assert.deepEqual(operators(executor), [['PJSIP/405001', 2]])
    assert.ok(centre.operators[0].talk_seconds > 0, 'the centre\'s operator talked before passing them on')
    assert.deepEqual(centre.lines.lines.map((l: { line: string, calls: number, to_queue: number }) => [l.line, l.calls, l.to_queue]), [['109', 2, 2]])
    assert.deepEqual(executor.lines.lines, [])
    const admin = await figures(line.admin)
    assert.deepEqual([admin.totals.offered, admin.totals.answered], [4, 4], 'two calls, each in two queues')
  })
  it('the list, the call and the export: the centre\'s managers keep the calls they passed on, the executor\'s have them, a third organization\'s neither', async () => {
    const [centreManager, executorManager] = managers
    const other = await makeOrganization(line.database.db, { prefix: '406' })
    const stranger = await login(line.t.app, await makeUser(line.database.db, { role: 'manager', organization_id: other.id }))
    const passed = (await line.calls()).filter((c) => c.queue !== null).map((c) => c.linkedid)
    const listed = async (who: Record<string, string>) => {
      const page = (await line.t.app.inject({ url: '/api/line-calls?limit=100', headers: who })).json() as { items: Call[], total: number }
      return page.items.map((c) => c.linkedid).filter((id) => passed.includes(id)).sort()
    }
    assert.deepEqual(await listed(centreManager!), [...passed].sort(), 'the centre\'s list')
    assert.deepEqual(await listed(executorManager!), [...passed].sort(), 'the executor\'s list')
    assert.deepEqual(await listed(stranger), [])
    for (const [who, status] of [[centreManager!, 200], [executorManager!, 200], [stranger, 404]] as const) {
      const res = await line.t.app.inject({ url: `/api/line-calls/${passed[0]}`, headers: who })
      assert.equal(res.statusCode, status, res.body)
    }
    const exported = async (who: Record<string, string>) => (await line.t.app.inject({ url: '/api/line-calls/export?format=csv', headers: who })).body
    const [centreFile, strangerFile] = [await exported(centreManager!), await exported(stranger)]
    for (const id of passed) {
      assert.ok(centreFile.includes(id), `the centre's export has ${id}`)
      assert.ok(!strangerFile.includes(id))
    }
    // a review is of the operator who had the citizen last: the executor's, not the centre's, which may only see it
    const review = await line.t.app.inject({ method: 'POST', url: `/api/line-calls/${passed[0]}/review`, headers: centreManager!, payload: { comment: 'ок' } })
    assert.deepEqual([review.statusCode, review.json().code], [403, 'not_your_review'], review.body)
    assert.equal((await line.t.app.inject({ method: 'POST', url: `/api/line-calls/${passed[0]}/review`, headers: stranger, payload: { comment: 'ок' } })).statusCode, 404)
    const executorReview = await line.t.app.inject({ method: 'POST', url: `/api/line-calls/${passed[0]}/review`, headers: executorManager!, payload: { comment: 'ок' } })
    assert.equal(executorReview.statusCode, 409, 'the executor\'s own call, unscored')
  })
})

describe('an AMI user whose read lacks `user` (the README before this fix): the dialplan\'s events never arrive', () => {
  let line: Awaited<ReturnType<typeof lineOn>>
  before(async () => { line = await lineOn({ read: 'system,call,agent,reporting', ended: 3 }) })
  after(async () => { await line?.close() })

  it('the queued calls are kept without their line or menu; the others not at all', async () => {
    const calls = await line.calls()
    assert.deepEqual(calls.map((c) => [c.line, c.menu_choice, c.queue]), [[null, null, 'org101-q2'], [null, null, 'org101-queue'], [null, null, 'org101-queue']])
  })
})

describe('the same recording cut at random byte offsets (inside fields, line ends, characters, the blank line)', () => {
  for (const seed of [46, 2026]) {
    it(`seed ${seed}: the same eight calls`, async () => {
      const line = await lineOn({ seed })
      try {
        const calls = await line.calls()
        assert.deepEqual(calls.map((c) => [c.line, c.menu_exit, c.language, c.queue, c.outcome]), [
          ['109', null, null, null, 'announced'], ['109', 'choice', 'kk', 'org101-q2', 'answered'], ['109', 'choice', 'ru', 'org101-queue', 'abandoned'],
          ['109', 'choice', 'kk', 'org101-queue', 'abandoned'], ['109', 'hangup', null, null, 'ended'], ['109', 'timeout', null, null, 'hangup'],
          ['109', 'invalid', null, null, 'announced'], ['5550123', null, null, null, 'refused'],
        ])
      } finally {
        await line.close()
      }
    })
  }
})

describe('a name in Cyrillic and Kazakh letters cut across two TCP segments inside a character', () => {
  it('is read whole: the agent rung keeps its member name', async () => {
    const peer = await startAmiPeer()
    const database = await createTestDatabase()
    const t = await buildTestApp({ database, env: peer.env() })
    try {
      await makeOrganization(database.db, { prefix: '101' })
      const admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
      await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
      const name = 'Оператор Әлия Құрманғазы'
      await peer.replaySplit('queue-answered.txt', (m) => (m.MemberName === undefined ? m : { ...m, MemberName: name }))
      const call = await eventually(async () => {
        const res = await t.app.inject({ url: '/api/line-calls/1795557215.0', headers: admin })
        return res.statusCode === 200 && res.json().ended_at !== null ? res.json() as { attempts: { member_name: string }[] } : undefined
      }, 15_000, 'the call ended')
      assert.deepEqual(call.attempts.map((a) => a.member_name), [name])
    } finally {
      await t.close()
      await peer.close()
    }
  })
})

describe('a half-open events connection (Asterisk gone without a word)', () => {
  it('is found by the keep-alive\'s unanswered Ping and reopened; the calls after it are kept', async () => {
    const peer = await startAmiPeer()
    const database = await createTestDatabase()
    const t = await buildTestApp({ database, env: { ...peer.env({ AMI_TIMEOUT: '1s' }), AMI_KEEPALIVE: '500ms' } })
    try {
      await makeOrganization(database.db, { prefix: '101' })
      const admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
      const streamLogins = () => peer.state.received.filter((a) => a.Action === 'Login' && a.Events === 'call,agent,user').length
      await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
      // a quiet line: pinged, answered, nothing reopened
      await eventually(async () => peer.state.received.some((a) => a.Action === 'Ping'), 10_000, 'a keep-alive Ping')
      const logins = streamLogins()
      // the peer stops answering anything, as a host gone behind a dead route: the next Ping goes unanswered
      peer.state.mode = 'silent'
      await eventually(async () => streamLogins() > logins, 15_000, 'the connection reopened after an unanswered Ping')
      peer.state.mode = 'normal'
      await eventually(async () => peer.streaming() >= 1 && streamLogins() > logins + 1, 40_000, 'streaming again once Asterisk answers')
      // on a loaded machine a Ping answered late (AMI_TIMEOUT 1 s) reopens the connection once more, and
      // what was sent to the one closed is lost with it: the call is told again until it is kept
      let toldAt = 0
      await eventually(async () => {
        if (Date.now() - toldAt > 3000) { peer.replay('queue-answered.txt'); toldAt = Date.now() }
        const res = await t.app.inject({ url: '/api/line-calls/1795557215.0', headers: admin })
        return res.statusCode === 200 && res.json().outcome === 'answered'
      }, 30_000, 'the call after the reconnection kept')
    } finally {
      await t.close()
      await peer.close()
    }
  })
})
