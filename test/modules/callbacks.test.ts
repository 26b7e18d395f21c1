import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq, inArray, sql } from 'drizzle-orm'
import { callbackRequests, placedCalls } from '../../src/db/schema/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { replayedEvents } from '../helpers/ami-recording.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeTerminal, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { openSse } from '../helpers/sse.js'

type Headers = Record<string, string>
const EVENTS = 'callback.txt'
/** the recorded caller's call, and the callback the service placed for it (its Linkedid the service's own) */
const CALLER = '1795956624.9'
const RECORDED_CALLBACK = '1795956636.7000000002'

// A callback instead of waiting, against the AMI peer replaying the real Asterisk 22's traffic
// (callback.txt: a caller dials 109, waits in org101-queue, hears the offer after 10 s, presses 1;
// the dialplan tells the service and ends the call; operator 101001 becomes ready and the service
// calls back: 101001's phone, then the caller's, connected, hung up).
describe('callbacks instead of waiting (replayed from Asterisk 22)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let t: TestApp
  let admin: Headers
  let supervisor: Headers
  let operator: Headers
  let orgId: number
  let desk: Awaited<ReturnType<typeof openSse>>
  /** where the recording's callback begins: the caller's part before it */
  const ready = replayedEvents(EVENTS).findIndex((e) => (e.message.Linkedid ?? e.message.Uniqueid) === RECORDED_CALLBACK)

  before(async () => {
    peer = await startAmiPeer()
    t = await buildTestApp({ env: peer.env() })
    const db = t.database.db
    const org = await makeOrganization(db, { prefix: '101' })
    orgId = org.id
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    supervisor = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
    const staff = await makeUser(db, { role: 'operator', organization_id: org.id })
    operator = await login(t.app, staff)
    await makeTerminal(t.app, admin, org.id, '001', staff.id)
    const res = await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/endpoints/101001`, headers: admin, payload: { allow_long_distance: true } })
    assert.equal(res.statusCode, 200, res.body)
    peer.state.endpoints = ['101001']
    peer.state.contacts = [{ endpoint: '101001', uri: 'sip:101001@127.0.0.1:5201', userAgent: 'pjsua', status: 'Reachable', roundtripUsec: '900' }]
    // the organization's queue with its one member on a break
    peer.state.members = [{ queue: 'org101-queue', name: '101001', interface: 'PJSIP/101001', paused: true, reason: 'lunch', lastPause: 0 }]
    await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
    // the operator at work: their console open (else they are offline), on a break
    desk = await openSse(`${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/call-events/stream`, operator)
    await available('break')
  })
  after(async () => {
    await desk.close()
    await t.close()
    await peer.close()
  })

  /** the operator's availability, through the service (it pauses the member in Asterisk: here the peer) */
  const available = async (state: 'ready' | 'break') => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/agents/me', headers: operator, payload: state === 'break' ? { state, reason: 'lunch' } : { state } })
    assert.equal(res.statusCode, 200, res.body)
    await eventually(async () => peer.state.members[0]!.paused === (state === 'break'), 10_000, `the member ${state}`)
  }
  const board = async () => (await t.app.inject({ url: '/api/line-calls/board', headers: supervisor })).json()
  const originates = () => peer.state.received.filter((a) => a.Action === 'Originate')
  /** the recording under other ids: the caller's call as `caller`, the callback as `callback` */
  const ids = (caller: string, callback = RECORDED_CALLBACK) => (m: Record<string, string>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v === CALLER ? caller : v === RECORDED_CALLBACK ? callback : v]))
  const requestOf = async (linkedid: string) => (await t.database.db.select().from(callbackRequests).where(eq(callbackRequests.linkedid, linkedid)))[0]

  it('the queue\'s settings: the offer needs its prompt, is the queue\'s periodic announcement, and each value its bounds (422 on the field, nothing changed)', async () => {
    const [queue] = (await t.app.inject({ url: `/api/organizations/${orgId}/queues`, headers: admin })).json()
    const prompt = (await t.app.inject({ method: 'POST', url: `/api/organizations/${orgId}/prompts`, headers: admin, payload: { name: 'Предложение перезвонить' } })).json().id
    const put = (payload: object) => t.app.inject({ method: 'PUT', url: `/api/organizations/${orgId}/queues/${queue.id}`, headers: admin, payload })
    const refusals: [object, (string | number)[]][] = [
      [{ callback_offer_after: 30 }, ['body', 'callback_prompt_id']],
      [{ callback_offer_after: 30, callback_prompt_id: prompt, periodic_prompt_id: prompt }, ['body', 'callback_offer_after']],
      [{ callback_offer_after: 5, callback_prompt_id: prompt }, ['body', 'callback_offer_after']],
      [{ callback_retries: 11 }, ['body', 'callback_retries']],
      [{ callback_retry_interval: 10 }, ['body', 'callback_retry_interval']],
    ]
    for (const [payload, loc] of refusals) {
      const res = await put(payload)
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, loc, res.body)
    }
    // a prompt of no one (or of another organization) is refused as the queue's other prompts are
    const foreign = await put({ callback_offer_after: 30, callback_prompt_id: 999_999 })
    assert.deepEqual([foreign.statusCode, foreign.json().code], [409, 'not_in_tenant'])
    const after = (await t.app.inject({ url: `/api/organizations/${orgId}/queues/${queue.id}`, headers: admin })).json()
    assert.deepEqual([after.callback_offer_after, after.callback_prompt_id, after.callback_retries, after.callback_retry_interval], [null, null, 2, 300])
    const set = await put({ callback_offer_after: 30, callback_prompt_id: prompt, callback_retries: 1, callback_retry_interval: 60 })
    assert.equal(set.statusCode, 200, set.body)
    assert.deepEqual([set.json().callback_offer_after, set.json().callback_prompt_id], [30, prompt])
    const off = await put({ callback_offer_after: null, callback_prompt_id: null, callback_retries: 2, callback_retry_interval: 300 })
    assert.equal(off.statusCode, 200, off.body)
  })

  it('the caller who pressed 1 waits in the list in their place, on the board; nobody ready, nothing placed', async () => {
    peer.replay(EVENTS, { to: ready })
    const listed = await eventually(async () => { const b = await board(); return b.callbacks.length === 1 ? b : undefined }, 10_000, 'the request on the board')
    const [request] = listed.callbacks
    assert.deepEqual([request.queue, request.number, request.line, request.status, request.attempts, request.language], ['org101-queue', '+77010000001', '109', 'waiting', 0, 'ru'])
    assert.equal(request.joined_at, new Date(1795956625 * 1000).toISOString(), 'its place: when the caller joined the queue (the dialplan\'s Joined)')
    const call = await eventually(async () => { const c = (await t.app.inject({ url: `/api/line-calls/${CALLER}`, headers: supervisor })).json(); return c.ended_at ? c : undefined }, 10_000, 'the caller\'s call kept')
    assert.deepEqual([call.queue, call.outcome], ['org101-queue', 'callback'])
    await new Promise((resolve) => setTimeout(resolve, 1500))
    assert.equal(originates().length, 0, 'no operator ready')
    // the same request told again (a replay, a second instance reading): still one
    peer.replay(EVENTS, { to: ready })
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.equal((await board()).callbacks.length, 1)
  })

  it('an operator of the queue ready: their phone rung for it, the desk pops the caller, the caller reached; the figures count it', async () => {
    const told = desk.events.length
    {
      // how soon is the benchmark's to measure (npm run bench calls): here, that it is placed
      await available('ready')
      const order = await eventually(async () => originates()[0], 10_000, 'the callback placed')
      assert.deepEqual([order.Channel, order.Context, order.Exten], ['PJSIP/101001', 'org101-internal', '87010000001'])
      await eventually(async () => desk.events.slice(told).some((e) => e.event === 'call.answered' && (e.data.call as { caller_phone: string }).caller_phone === '+77010000001'), 10_000, 'the pop on the operator\'s desk')
      peer.replay(EVENTS, { from: ready, rewrite: ids(CALLER, order.ChannelId!) })
      await eventually(async () => (await requestOf(CALLER))?.status === 'reached', 10_000, 'reached')
      assert.deepEqual((await board()).callbacks, [])
      const placed = desk.events.slice(told).filter((e) => e.event === 'call.placed').map((e) => e.data.call as { kind: string, status: string, callback_id: number })
      assert.ok(placed.every((c) => c.kind === 'callback'))
      await eventually(async () => desk.events.slice(told).some((e) => e.event === 'call.placed' && (e.data.call as { status: string }).status === 'ended'), 10_000, 'the callback ended')
      const kpis = (await t.app.inject({ url: '/api/line-calls/kpis', headers: supervisor })).json()
      assert.deepEqual([kpis.callbacks.requested, kpis.callbacks.placed, kpis.callbacks.reached, kpis.callbacks.failed], [1, 1, 1, 0])
      assert.ok(kpis.callbacks.mean_seconds_to_reach >= 0)
    }
  })

  it('not answered: retried after the interval, then failed and shown on the board; an operator who did not answer spends no attempt', async () => {
    const [queue] = (await t.app.inject({ url: `/api/organizations/${orgId}/queues`, headers: admin })).json()
    const changed = await t.app.inject({ method: 'PUT', url: `/api/organizations/${orgId}/queues/${queue.id}`, headers: admin, payload: { callback_retries: 1 } })
    assert.equal(changed.statusCode, 200, changed.body)
    const caller = '1795956624.41'
    await available('break')
    const before = originates().length
    peer.replay(EVENTS, { to: ready, rewrite: ids(caller) })
    await eventually(async () => (await requestOf(caller))?.status === 'waiting', 10_000, 'the request')
    await available('ready')
    /** the next attempt placed, and how Asterisk says it ended: the caller's phone (`citizen`) or the operator's (`you`) not answering */
    const attempt = async (n: number, who: 'citizen' | 'you') => {
      const order = await eventually(async () => originates()[before + n], 10_000, `attempt ${n + 1}`)
      peer.replay(EVENTS, {
        from: ready,
        rewrite: (m) => {
          const e = ids(caller, order.ChannelId!)(m)
          if (who === 'you') return e.Event === 'OriginateResponse' ? { ...e, Response: 'Failure', Reason: '3' } : { Event: 'Ignored' }
          return e.Event === 'DialEnd' && e.DialStatus === 'ANSWER' && e.Uniqueid === order.ChannelId ? { ...e, DialStatus: 'NOANSWER' } : e.Event === 'BridgeEnter' ? { Event: 'Ignored' } : e
        },
      })
    }
    await attempt(0, 'you')
    await new Promise((resolve) => setTimeout(resolve, 3000))
    // the operator's phone not answered: placed again at once, no attempt spent
    await attempt(1, 'citizen')
    const retried = await eventually(async () => { const r = await requestOf(caller); return r?.status === 'waiting' && r.attempts === 1 ? r : undefined }, 10_000, 'waiting for its retry')
    assert.ok(retried.next_attempt_at.getTime() - Date.now() > 200_000, 'the retry after the queue\'s interval (300 s)')
    // the interval passed
    await t.database.db.update(callbackRequests).set({ next_attempt_at: new Date() }).where(eq(callbackRequests.id, retried.id))
    await attempt(2, 'citizen')
    const failed = await eventually(async () => { const r = await requestOf(caller); return r?.status === 'failed' ? r : undefined }, 10_000, 'failed')
    assert.deepEqual([failed.attempts, failed.reason], [2, 'NOANSWER'])
    const shown = (await board()).callbacks
    assert.deepEqual(shown.map((c: { status: string, number: string }) => [c.status, c.number]), [['failed', '+77010000001']])
    await new Promise((resolve) => setTimeout(resolve, 1500))
    assert.equal(originates().length, before + 3, 'no more attempts')
  })

  it('two instances placing on one database (each claims from the list): no request placed twice', async () => {
    // the embedded database's instances both lead: what keeps a request from being placed twice is its
    // claim; on PostgreSQL the second waits for the lock (one streams the events, one places)
    const second = await buildTestApp({ database: t.database, env: peer.env() })
    try {
      const streams = t.database.kind === 'pglite' ? 2 : 1
      await eventually(async () => peer.streaming() === streams, 10_000, 'the instances streaming')
      await available('break')
      const callers = ['1795956624.51', '1795956624.52', '1795956624.53']
      // each joined a second after the one before (the recording has one time): their places are theirs, not the order the two instances wrote them in
      callers.forEach((caller, i) => peer.replay(EVENTS, { to: ready, rewrite: (m) => { const e = ids(caller)(m); return e.Joined ? { ...e, Joined: String(Number(e.Joined) + i) } : e } }))
      await eventually(async () => (await Promise.all(callers.map(requestOf))).every((r) => r?.status === 'waiting'), 10_000, 'the requests')
      const before = originates().length
      // the operator's phone in use once rung (as Asterisk's device state says)
      peer.state.onAction = (a) => { if (a.Action === 'Originate' && a.Channel === 'PJSIP/101001') peer.state.members[0]!.inCall = true }
      await available('ready')
      await eventually(async () => originates().length > before, 10_000, 'a callback placed')
      await new Promise((resolve) => setTimeout(resolve, 2500))
      const requests = await Promise.all(callers.map(requestOf))
      const placed = originates().slice(before)
      const attempts = requests.filter((r) => r!.status === 'placing')
      assert.equal(placed.length, attempts.length, `${placed.length} placed for ${attempts.length} requests being placed`)
      assert.equal(new Set(attempts.map((r) => r!.placed_call_id)).size, attempts.length, 'each its own call')
      assert.equal(requests[0]!.status, 'placing', 'the first in its place first')
    } finally {
      peer.state.onAction = undefined
      await second.app.close().catch(() => {})
    }
  })

  it('an attempt that fails before Asterisk takes it (the desk\'s pop refused by the database) is not left live: the next pass places the request', async () => {
    const db = t.database.db
    // a clean slate: the instances' attempts above are still live in their rows (the recording never ends them)
    await db.delete(callbackRequests)
    await db.delete(placedCalls)
    await available('break')
    peer.state.members[0]!.inCall = false
    await t.database.db.execute(sql`create function refuse_pops() returns trigger language plpgsql as $$ begin raise exception 'the desk is down'; end $$`)
    await t.database.db.execute(sql`create trigger refuse_pops before insert or update on calls for each row execute function refuse_pops()`)
    const caller = '1795956624.61'
    const dialled = originates().length
    try {
      peer.replay(EVENTS, { to: ready, rewrite: ids(caller) })
      const request = await eventually(async () => { const r = await requestOf(caller); return r?.status === 'waiting' ? r : undefined }, 10_000, 'the request')
      await available('ready')
      const attempt = await eventually(async () => (await db.select().from(placedCalls).where(eq(placedCalls.callback_id, request.id)))[0], 10_000, 'an attempt')
      await eventually(async () => (await db.select().from(placedCalls).where(eq(placedCalls.id, attempt.id)))[0]!.status === 'failed', 10_000, 'the attempt failed, not live')
      assert.equal(originates().length, dialled, 'nothing dialled while the desk cannot pop')
    } finally {
      await t.database.db.execute(sql`drop trigger refuse_pops on calls`)
      await t.database.db.execute(sql`drop function refuse_pops()`)
    }
    await eventually(async () => originates().length > dialled, 10_000, 'the callback placed once the desk pops')
    await eventually(async () => (await requestOf(caller))?.status === 'placing', 10_000, 'the request being placed')
  })

  it('requests left being placed (a crash between the claim and the call, a lost write of the attempt) go back to their place or are settled from their attempt, however many', async () => {
    const db = t.database.db
    const now = Date.now()
    const claimedLongAgo = new Date(now - 10 * 60_000)
    const base = { organization_id: orgId, queue: 'org999-queue', number: '+77010000009', joined_at: new Date(now), requested_at: claimedLongAgo, next_attempt_at: claimedLongAgo, status: 'placing' as const, placed_at: claimedLongAgo }
    // more than a pass reads: the ones before it must not hide the last
    const stuck = await db.insert(callbackRequests).values(Array.from({ length: 201 }, (_, i) => ({ ...base, linkedid: `1795950000.${i}` }))).returning()
    // one whose attempt was placed and ended, its id never written on the request
    const [unwritten] = await db.insert(callbackRequests).values({ ...base, linkedid: '1795950001.1' }).returning()
    await db.insert(placedCalls).values({
      kind: 'callback', callback_id: unwritten!.id, linkedid: '1795950001.7000000001', terminal_id: '101001', number: base.number, dialled: '87010000009',
      status: 'failed', failed_side: 'citizen', reason: 'BUSY', placed_at: new Date(now - 9 * 60_000), ended_at: new Date(now - 9 * 60_000),
    })
    try {
      await eventually(async () => (await db.select().from(callbackRequests).where(inArray(callbackRequests.id, stuck.map((r) => r.id)))).every((r) => r.status === 'waiting'), 20_000, 'every lost claim back in its place')
      // the last pass may settle it just after the last lost claim
      const settled = await eventually(async () => { const r = await requestOf('1795950001.1'); return r?.status !== 'placing' ? r : undefined }, 20_000, 'the request settled from its attempt')
      assert.deepEqual([settled!.status, settled!.attempts, settled!.reason], ['failed', 1, 'BUSY'])
    } finally {
      await db.delete(callbackRequests).where(eq(callbackRequests.queue, 'org999-queue'))
    }
  })
})
