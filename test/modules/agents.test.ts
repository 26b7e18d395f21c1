import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/client.js'
import { startAmiPeer, type PeerMember } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser, type MadeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { openSse } from '../helpers/sse.js'

const PASSWORD = 'Abcdefghij0123456789'
type Headers = Record<string, string>

describe('operators\' availability (/api/agents): Asterisk\'s queue member pause, against the AMI peer answering as the recording', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let database: Database
  let t: TestApp
  let url: string
  let admin: Headers
  let manager: Headers
  let first: Headers
  let second: Headers
  let firstUser: MadeUser
  let nobody: Headers

  const member = (iface: string, queue = 'org101-queue'): PeerMember => peer.state.members.find((m) => m.interface === iface && m.queue === queue)!
  const pauses = () => peer.state.received.filter((a) => a.Action === 'QueuePause')
  const get = (path: string, headers: Headers) => t.app.inject({ url: path, headers })
  const choose = (payload: object, headers: Headers = first) => t.app.inject({ method: 'PUT', url: '/api/agents/me', headers, payload })

  before(async () => {
    peer = await startAmiPeer()
    database = await createTestDatabase()
    const env = { ...peer.env({ AMI_TIMEOUT: '1s' }), AGENT_RESTORE_INTERVAL: '200ms' }
    // the organization and its operators are made by a first run of the service; the one under test starts after it
    t = await buildTestApp({ database, env })
    const db = database.db
    const org = await makeOrganization(db, { prefix: '101' })
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
    firstUser = await makeUser(db, { role: 'operator', organization_id: org.id })
    const secondUser = await makeUser(db, { role: 'operator', organization_id: org.id })
    first = await login(t.app, firstUser)
    second = await login(t.app, secondUser)
    nobody = await login(t.app, await makeUser(db, { role: 'operator', organization_id: org.id }))
    for (const [extension, user] of [['001', firstUser], ['002', secondUser]] as const) {
      const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: `Оператор ${extension}`, extension, password: PASSWORD, employee_id: user.id } })
      assert.equal(res.statusCode, 201, res.body)
    }
    await t.app.close()
    // the members as the generated queues.conf makes them: both in the default queue, the first in a second queue too
    peer.state.members.push(
      { queue: 'org101-queue', name: '101001', interface: 'PJSIP/101001', paused: false, reason: '', lastPause: 0 },
      { queue: 'org101-queue', name: '101002', interface: 'PJSIP/101002', paused: false, reason: '', lastPause: 0 },
      { queue: 'org101-q2', name: '101001', interface: 'PJSIP/101001', paused: false, reason: '', lastPause: 0 }
    )
    t = await buildTestApp({ database, env })
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(async () => {
    await t.app.close()
    await database.close()
    await peer.close()
  })

  it('when the service starts, operators with no console open are put offline: their phones do not ring', async () => {
    await eventually(async () => peer.state.members.every((m) => m.paused && m.reason === 'offline'), 10_000, 'every member paused offline')
    const me = (await get('/api/agents/me', first)).json()
    const asked = peer.state.received.filter((a) => a.Action === 'QueueStatus').at(-1)!
    assert.equal(asked.Member, 'PJSIP/101001', 'the desk asks Asterisk for its own terminal only')
    assert.equal(me.state, 'offline')
    assert.deepEqual(me.terminals, [{ id: '101001', queues: ['org101-queue', 'org101-q2'], paused: true, reason: 'offline' }])
    assert.equal(me.pbx, 'connected')
  })

  it('a console opening puts the operator\'s choice back (ready when none); closing the last one makes them offline again', async () => {
    const stream = await openSse(`${url}/api/call-events/stream`, first)
    await eventually(async () => !member('PJSIP/101001').paused && !member('PJSIP/101001', 'org101-q2').paused, 10_000, 'the first operator unpaused')
    assert.ok(member('PJSIP/101002').paused, 'the other operator, whose console is closed, stays offline')
    assert.equal((await get('/api/agents/me', first)).json().state, 'ready')
    await stream.close()
    await eventually(async () => member('PJSIP/101001').paused && member('PJSIP/101001').reason === 'offline', 10_000, 'offline once the console closed')
  })

  it('the desk\'s switch: a break with its reason pauses every queue the terminal is in, ready unpauses; the choice is kept', async () => {
    const stream = await openSse(`${url}/api/call-events/stream`, first)
    await eventually(async () => !member('PJSIP/101001').paused, 10_000, 'ready once the console opened')
    const before = pauses().length
    const onBreak = await choose({ state: 'break', reason: 'lunch' })
    assert.equal(onBreak.statusCode, 200, onBreak.body)
    assert.deepEqual(pauses().slice(before).map((a) => [a.Interface, a.Paused, a.Reason, a.Queue]), [['PJSIP/101001', 'true', 'lunch', undefined]])
    assert.equal(onBreak.json().state, 'break')
    assert.equal(onBreak.json().reason, 'lunch')
    assert.equal(onBreak.json().chosen.state, 'break')
    assert.ok(member('PJSIP/101001', 'org101-q2').paused)
    await stream.close()
    await eventually(async () => member('PJSIP/101001').reason === 'offline', 10_000, 'offline')
    const again = await openSse(`${url}/api/call-events/stream`, first)
    await eventually(async () => member('PJSIP/101001').reason === 'lunch', 10_000, 'the break is put back when the console opens again')
    const ready = await choose({ state: 'ready' })
    assert.equal(ready.json().state, 'ready')
    assert.ok(!member('PJSIP/101001').paused && !member('PJSIP/101001', 'org101-q2').paused)
    await again.close()
    await eventually(async () => member('PJSIP/101001').reason === 'offline', 10_000, 'offline once the console closed')
  })

  it('a pause made on the PBX shows to supervisors as Asterisk has it; operators see only their own', async () => {
    Object.assign(member('PJSIP/101002'), { paused: true, reason: 'supervisor' })
    const list = await get('/api/agents', manager)
    assert.equal(list.statusCode, 200, list.body)
    const states = Object.fromEntries((list.json() as { user_id: number, state: string, reason: string | null }[]).map((a) => [a.user_id, [a.state, a.reason]]))
    assert.deepEqual(states[firstUser.id], ['offline', 'offline'])
    assert.equal(Object.keys(states).length, 2, 'the operators with a terminal')
    assert.ok(Object.values(states).some(([state, reason]) => state === 'break' && reason === 'supervisor'))
    assert.equal((await get('/api/agents', second)).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/agents/me' })).statusCode, 401)
  })

  it('422 for a reason that is the service\'s own, a reason when ready, unknown states and reasons; 409 for an operator without a terminal', async () => {
    const before = pauses().length
    for (const payload of [{ state: 'break', reason: 'offline' }, { state: 'ready', reason: 'lunch' }, { state: 'away' }, { state: 'break', reason: 'Обед' }, { state: 'break', reason: 'x'.repeat(41) }, {}]) {
      const res = await choose(payload)
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
    }
    const none = await choose({ state: 'ready' }, nobody)
    assert.equal(none.statusCode, 409)
    assert.equal(none.json().code, 'no_terminal')
    assert.equal((await get('/api/agents/me', nobody)).json().state, 'no_terminal')
    assert.equal(pauses().length, before, 'nothing reached Asterisk')
  })

  it('the desk and the line\'s board name each state alike (one model): on a call, on a break, ready', async () => {
    const saved = structuredClone(peer.state.members)
    try {
      for (const m of peer.state.members) Object.assign(m, m.interface === 'PJSIP/101002' ? { paused: false, reason: '', inCall: true } : { paused: true, reason: 'lunch', inCall: false })
      // the board's states are the events' (here: QueueStatus read after a new connection)
      peer.dropStreams()
      const board = async () => Object.fromEntries(((await get('/api/line-calls/board', admin)).json().agents as { interface: string, state: string }[]).map((a) => [a.interface, a.state]))
      await eventually(async () => (await board())['PJSIP/101002'] === 'on_call', 15_000, 'the board from QueueStatus')
      const desk = [(await get('/api/agents/me', first)).json(), (await get('/api/agents/me', second)).json()]
      assert.deepEqual(desk.map((d) => [d.state, d.reason]), [['break', 'lunch'], ['on_call', null]])
      assert.deepEqual(await board(), { 'PJSIP/101001': 'break', 'PJSIP/101002': 'on_call' })
    } finally {
      peer.state.members = saved
    }
  })

  it('after Asterisk restarts (its startup time changes) the states are put back', async () => {
    const stream = await openSse(`${url}/api/call-events/stream`, first)
    assert.equal((await choose({ state: 'break', reason: 'training' })).statusCode, 200)
    // a restarted Asterisk has forgotten every pause
    for (const m of peer.state.members) Object.assign(m, { paused: false, reason: '' })
    peer.state.startup = '2026-11-26 10:00:00'
    await eventually(async () => member('PJSIP/101001').reason === 'training' && member('PJSIP/101002').reason === 'offline', 10_000, 'the states put back')
    await stream.close()
  })

  it('Asterisk not answering: the choice is kept and the answer is 503; the state is unknown', async () => {
    peer.state.mode = 'silent'
    try {
      const res = await choose({ state: 'ready' })
      assert.equal(res.statusCode, 503, res.body)
      assert.match(res.json().detail, /Asterisk did not take the change/)
      const me = (await get('/api/agents/me', first)).json()
      assert.equal(me.state, 'unknown')
      assert.equal(me.pbx, 'unreachable')
      assert.equal(me.chosen.state, 'ready', 'the choice is kept, to be put back')
    } finally {
      peer.state.mode = 'normal'
    }
  })
})

describe('operators\' availability without AMI', () => {
  it('the choice is kept; the state is unknown and says the PBX is not configured', async () => {
    const t = await buildTestApp()
    try {
      const org = await makeOrganization(t.database.db, { prefix: '303' })
      const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      const user = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
      const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: 'Оператор', extension: '001', password: PASSWORD, employee_id: user.id } })
      assert.equal(res.statusCode, 201, res.body)
      const chosen = await t.app.inject({ method: 'PUT', url: '/api/agents/me', headers: await login(t.app, user), payload: { state: 'break', reason: 'lunch' } })
      assert.equal(chosen.statusCode, 200, chosen.body)
      assert.deepEqual([chosen.json().state, chosen.json().pbx, chosen.json().chosen.reason], ['unknown', 'not_configured', 'lunch'])
    } finally {
      await t.close()
    }
  })
})
