import assert from 'node:assert/strict'
import { once } from 'node:events'
import { after, before, describe, it } from 'node:test'
import WebSocket from 'ws'
import type { Database } from '../../src/db/client.js'
import { createNotifier } from '../../src/db/notify.js'
import type { Principal } from '../../src/lib/auth.js'
import { createLiveEvents, type LiveBatch, type LiveEncoding } from '../../src/modules/call-events/live.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { assertLiveEvents, openSse } from '../helpers/sse.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('live call events over SSE, fanned out through PostgreSQL LISTEN/NOTIFY', () => {
  let database: Database
  let a: TestApp
  let b: TestApp
  let urlA: string
  let urlB: string
  const auth: Record<string, Record<string, string>> = {}

  before(async () => {
    database = await createTestDatabase()
    // two instances of the service on one database
    a = await buildTestApp({ database })
    b = await buildTestApp({ database })
    urlA = await a.app.listen({ port: 0, host: '127.0.0.1' })
    urlB = await b.app.listen({ port: 0, host: '127.0.0.1' })
    const admin = await makeUser(database.db, { role: 'admin' })
    auth.admin = await login(a.app, admin)
    const org1 = await makeOrganization(database.db, { prefix: '101' })
    const org2 = await makeOrganization(database.db, { prefix: '202' })
    const op1 = await makeUser(database.db, { role: 'operator', organization_id: org1.id })
    const op2 = await makeUser(database.db, { role: 'operator', organization_id: org1.id })
    auth.op1 = await login(a.app, op1)
    auth.op2 = await login(a.app, op2)
    auth.manager2 = await login(a.app, await makeUser(database.db, { role: 'manager', organization_id: org2.id }))
    for (const [org, ext, employee] of [[org1.id, '001', op1.id], [org1.id, '002', op2.id], [org2.id, '001', null]] as const) {
      const res: { statusCode: number, body: string } = await a.app.inject({ method: 'POST', url: `/api/organizations/${org}/endpoints/`, headers: auth.admin!, payload: { name: 'Оператор', extension: ext, password: PASSWORD, employee_id: employee } })
      assert.equal(res.statusCode, 201, res.body)
    }
  })
  after(async () => {
    await a.app.close()
    await b.app.close()
    await database.close()
  })

  it('each console gets the events meant for it, on either instance', async () => {
    const consoles = {
      admin: await openSse(`${urlB}/api/call-events/stream`, auth.admin!),
      op1: await openSse(`${urlB}/api/call-events/stream`, auth.op1!),
      op2: await openSse(`${urlA}/api/call-events/stream`, auth.op2!),
      manager2: await openSse(`${urlB}/api/call-events/stream`, auth.manager2!),
    }
    try {
      assert.equal(consoles.admin.status, 200)
      assert.match(consoles.admin.contentType ?? '', /text\/event-stream/)
      // posted to instance A; consoles on instance B must see it
      const answered = await a.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '101001', caller_phone: '87011234567', call_datetime: '2026-11-21T10:00:00Z' } })
      assert.equal(answered.statusCode, 200)
      await a.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: 'live-1', operator_num: '101001', channel: 'caller', chunk_text: 'Алло', full_text: 'Алло' } })
      await a.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: 'live-1', operator_num: '101001', channel: 'caller', chunk_text: 'Спасибо', full_text: 'Алло. Спасибо', is_final: true } })
      await a.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '202001', caller_phone: '87017654321', call_datetime: '2026-11-21T10:05:00Z' } })

      const callEvents = (c: { events: { event: string, data: Record<string, unknown> }[] }) => c.events.filter((e) => e.event.startsWith('call.'))
      await eventually(async () => callEvents(consoles.admin).length >= 4, 30_000, 'admin sees all four')
      assert.deepEqual(callEvents(consoles.admin).map((e) => e.event), ['call.answered', 'call.transcription', 'call.final', 'call.answered'])
      await eventually(async () => callEvents(consoles.op1).length >= 3, 30_000, 'operator 1 sees its call')
      await eventually(async () => callEvents(consoles.manager2).length >= 1, 30_000, 'manager of organization 2 sees its call')
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.deepEqual(callEvents(consoles.op1).map((e) => e.event), ['call.answered', 'call.transcription', 'call.final'])
      assert.equal(callEvents(consoles.op1)[1]!.data.chunk_text, 'Алло')
      assert.deepEqual(callEvents(consoles.op2), [], 'another operator sees nothing of it')
      assert.deepEqual(callEvents(consoles.manager2).map((e) => (e.data.call as { operator_num: string }).operator_num), ['202001'])
      // the answered event the service builds, the chunks the intake's statement builds, the consoles' presence
      for (const c of Object.values(consoles)) assertLiveEvents(c.events)
      assert.ok(consoles.admin.events.some((e) => e.event === 'operator.online'), 'the admin saw consoles come online')
    } finally {
      await Promise.all(Object.values(consoles).map((c) => c.close()))
    }
  })

  it('online-operators: a connected console, seen by every instance, idle or on a call; the caller\'s number in full only to who may see the call', async () => {
    type Online = { operator_num: string, console_connected: boolean, state: string, caller_phone: string | null, since: string | null }
    const online = async (base: string, headers: Record<string, string> = auth.admin!) => (await (await fetch(`${base}/api/call-events/online-operators`, { headers })).json()) as Online[]
    // the consoles of the test before are closed by the client; the server sees them go a moment later
    await eventually(async () => (await online(urlA)).length === 0, 30_000, 'no console online at the start')
    const console1 = await openSse(`${urlB}/api/call-events/stream`, auth.op1!)
    try {
      const idle = (await online(urlA)).find((o) => o.operator_num === '101001')
      assert.deepEqual([idle?.console_connected, idle?.state], [true, 'idle'])
      assert.ok(!(await online(urlA)).some((o) => o.operator_num === '101002'), 'no console, not registered: not online')
      await a.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '101001', caller_phone: '87019998877', call_datetime: '2026-11-21T11:00:00Z' } })
      const busy = (await online(urlB)).find((o) => o.operator_num === '101001')!
      assert.deepEqual([busy.state, busy.caller_phone, busy.since], ['on_call', '+77019998877', '2026-11-21T11:00:00.000Z'])
      const phoneSeenBy = async (headers: Record<string, string>) => (await online(urlA, headers)).find((o) => o.operator_num === '101001')!.caller_phone
      assert.equal(await phoneSeenBy({}), '+7701*****77', 'no token: masked')
      assert.equal(await phoneSeenBy(auth.op1!), '+77019998877', 'the operator on the call')
      assert.equal(await phoneSeenBy(auth.op2!), '+7701*****77', 'another operator of the organization')
      assert.equal(await phoneSeenBy(auth.manager2!), '+7701*****77', 'a manager of another organization')
      await a.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: 'live-2', operator_num: '101001', channel: 'caller', chunk_text: 'Всё', full_text: 'Всё', is_final: true } })
      assert.equal((await online(urlB)).find((o) => o.operator_num === '101001')!.state, 'idle')
    } finally {
      await console1.close()
    }
    await eventually(async () => (await online(urlA)).length === 0, 30_000, 'offline once the console closed')
  })

  it('WebSocket consoles: token as ?token= or as the bearer subprotocol; the same events; no token is refused', async () => {
    const token = (h: Record<string, string>) => h.authorization!.slice('Bearer '.length)
    const open = (url: string, protocols?: string[]) => new Promise<{ socket: WebSocket, messages: Record<string, unknown>[] }>((resolve, reject) => {
      const socket = new WebSocket(url, protocols)
      const messages: Record<string, unknown>[] = []
      socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>))
      socket.once('open', () => resolve({ socket, messages }))
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
      socket.once('error', reject)
    })
    const wsA = urlA.replace('http', 'ws')
    const byQuery = await open(`${wsA}/api/call-events/ws?token=${token(auth.op1!)}`)
    const byProtocol = await open(`${urlB.replace('http', 'ws')}/api/call-events/ws`, ['bearer', token(auth.admin!)])
    assert.equal(byProtocol.socket.protocol, 'bearer')
    try {
      await a.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '101001', caller_phone: '87015550000', call_datetime: '2026-11-21T12:00:00Z' } })
      await eventually(async () => byQuery.messages.some((m) => m.type === 'call.answered'), 30_000, 'operator socket')
      await eventually(async () => byProtocol.messages.some((m) => m.type === 'call.answered'), 30_000, 'admin socket on the other instance')
      await a.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '202001', caller_phone: '87015550001', call_datetime: '2026-11-21T12:00:00Z' } })
      await eventually(async () => byProtocol.messages.filter((m) => m.type === 'call.answered').length === 2, 30_000, 'admin sees both')
      assert.equal(byQuery.messages.filter((m) => m.type === 'call.answered').length, 1, 'the operator sees its own only')
    } finally {
      byQuery.socket.close()
      byProtocol.socket.close()
    }
    await assert.rejects(open(`${wsA}/api/call-events/ws`), /401/)
    await assert.rejects(open(`${wsA}/api/call-events/ws?token=forged`), /401/)
  })

  it('an upgrade to a path without a WebSocket gets 404 and its connection closed, also where an HTTP route is; a plain GET of the WebSocket path gets the same 404', async () => {
    const { connect } = await import('node:net')
    const { port } = new URL(urlA)
    const upgrade = (path: string) => new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1')
      let raw = ''
      socket.setEncoding('utf8').on('data', (text: string) => { raw += text })
      socket.once('end', () => resolve(raw)).once('error', reject)
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: ${auth.admin!.authorization}\r\n\r\n`)
    })
    for (const path of ['/api/regions', '/api/call-events/stream', '/api/call-events/ws/', '/nowhere']) {
      const answer = await upgrade(path) // resolves only once the service ended the connection
      assert.match(answer, /^HTTP\/1\.1 404 Not Found\r\n/, path)
      assert.match(answer, /\r\nx-request-id: [0-9a-f-]{36}\r\n/, path)
      assert.ok(answer.endsWith('\r\n\r\n{"detail":"Not Found"}'), path)
    }
    // the WebSocket route itself still upgrades
    assert.match(await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1')
      socket.setEncoding('utf8').once('data', (text: string) => { resolve(text); socket.destroy() }).once('error', reject)
      socket.write('GET /api/call-events/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: ${auth.admin!.authorization}\r\n\r\n`)
    }), /^HTTP\/1\.1 101 Switching Protocols\r\n/)
    // a plain GET of it, with no upgrade, is answered as a path without a route is
    const plain = await fetch(`${urlA}/api/call-events/ws`, { headers: auth.admin })
    assert.equal(plain.status, 404)
    assert.deepEqual(await plain.json(), { detail: 'Not Found' })
    assert.match(plain.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    assert.equal((await fetch(`${urlA}/api/call-events/ws`)).status, 401, 'without a token: 401, as before')
  })

  it('the events of one commit leave in one chunk of the stream, in order', async () => {
    const { connect } = await import('node:net')
    const { port } = new URL(urlB)
    const socket = connect(Number(port), '127.0.0.1')
    let raw = ''
    socket.setEncoding('utf8').on('data', (text: string) => { raw += text })
    socket.write(`GET /api/call-events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth.admin!.authorization}\r\n\r\n`)
    try {
      await eventually(async () => raw.includes(': connected'), 30_000, 'stream open')
      const payload = JSON.stringify({ type: 'call.transcription', organization_id: null, employee_id: null, seq: 'SEQ', chunk_text: 'бір' })
      await database.query('select pg_notify($1, replace($2, \'SEQ\', i::text)) from generate_series(1, 5) i', ['call_events', payload])
      await eventually(async () => raw.includes('"seq":"5"'), 30_000, 'five events')
      // the chunked body: a size line in hex, then that many bytes; the comment line is the first chunk
      const body = raw.slice(raw.indexOf('\r\n\r\n') + 4)
      const chunks: string[] = []
      for (let at = 0; at < body.length;) {
        const line = body.indexOf('\r\n', at)
        const size = Number.parseInt(body.slice(at, line), 16)
        const bytes = Buffer.from(body.slice(line + 2)).subarray(0, size).toString()
        chunks.push(bytes)
        at = line + 2 + bytes.length + 2
      }
      const events = chunks.filter((chunk) => chunk.includes('event: call.transcription'))
      assert.equal(events.length, 1, JSON.stringify(chunks))
      assert.deepEqual([...events[0]!.matchAll(/"seq":"(\d)"/g)].map((m) => m[1]), ['1', '2', '3', '4', '5'])
    } finally {
      socket.destroy()
    }
  })

  it('a burst is sorted once per view: consoles that see the same events share one batch, encoded once for them all', async () => {
    const notifier = createNotifier(database, 'call_events_fan_out')
    await notifier.start()
    const live = createLiveEvents(notifier)
    const principal = (role: 'admin' | 'operator', id: number, organization: number | null) => ({ id, email: `${id}@test.kz`, role, user_type: 'staff', organization_id: organization }) as Principal
    const got = new Map<string, LiveBatch[]>()
    const attach = (name: string, p: Principal) => live.subscribe(p, (batch) => { got.set(name, [...got.get(name) ?? [], batch]) })
    const leave = [
      attach('admin1', principal('admin', 1, null)), attach('admin2', principal('admin', 2, null)), attach('admin3', principal('admin', 3, 7)),
      attach('op5', principal('operator', 5, 7)), attach('op5again', principal('operator', 5, 7)), attach('op6', principal('operator', 6, 7)),
    ]
    let encoded = 0
    const encoding: LiveEncoding = ({ json }) => { encoded++; return Buffer.from(json) }
    try {
      for (const [seq, employee] of [[1, 5], [2, 6], [3, 5]] as const) {
        await live.publish({ type: 'call.transcription', organization_id: 7, employee_id: employee, seq, call_id: 'c-1', call_row_id: 1, operator_num: '101', channel: 'caller', chunk_text: 'Алло', truncated: false })
      }
      await eventually(async () => (got.get('admin3') ?? []).flatMap((b) => b.deliveries).length === 3, 30_000, 'the admins see all three')
      const seqs = (name: string) => (got.get(name) ?? []).flatMap((b) => b.deliveries.map((d) => (d.event as { seq: number }).seq))
      assert.deepEqual(seqs('admin1'), [1, 2, 3])
      assert.deepEqual(seqs('op5'), [1, 3])
      assert.deepEqual(seqs('op5again'), [1, 3])
      assert.deepEqual(seqs('op6'), [2])
      // the same batches, not copies: the admins', and operator 5's two consoles'
      assert.deepEqual(got.get('admin2'), got.get('admin1'))
      got.get('admin2')!.forEach((batch, i) => { assert.equal(batch, got.get('admin1')![i]) })
      got.get('op5again')!.forEach((batch, i) => { assert.equal(batch, got.get('op5')![i]) })
      const bytes = ['admin1', 'admin2', 'admin3'].map((name) => Buffer.concat(got.get(name)!.map((b) => b.bytes(encoding))).toString())
      assert.equal(encoded, 3, 'each event encoded once for the three admins')
      assert.deepEqual(new Set(bytes).size, 1)
      assert.deepEqual([...bytes[0]!.matchAll(/"seq":(\d)/g)].map((m) => m[1]), ['1', '2', '3'])
    } finally {
      for (const unsubscribe of leave) unsubscribe()
      await notifier.stop()
    }
  })

  /** ~40 MB of events, far more than the kernel's socket buffers and the 1 MiB allowance hold */
  async function flood (): Promise<void> {
    const payload = JSON.stringify({ type: 'call.transcription', organization_id: null, employee_id: null, seq: 'SEQ', chunk_text: 'ж'.repeat(3500) })
    // PostgreSQL folds identical notifications of one transaction into one: each payload differs
    const sql = 'select pg_notify($1, replace($2, \'SEQ\', i::text)) from generate_series(1, 400) i'
    for (let i = 0; i < 14; i++) {
      await database.query(sql, ['call_events', payload])
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }

  /** a console still attached would get all 40 MB and stay open; a cut-off one ends early */
  async function assertCutOff (ended: Promise<unknown>, received: () => number): Promise<void> {
    await Promise.race([ended, new Promise((resolve, reject) => setTimeout(() => reject(new Error(`the slow console was not cut off (${received()} bytes read)`)), 30_000).unref())])
    assert.ok(received() < 20e6, `the server stopped sending early (${received()} bytes of ~40 MB)`)
    const rss = process.memoryUsage().rss
    assert.ok(rss < 2e9, `memory stays bounded (rss ${rss})`)
  }

  it('a console that stops reading is cut off instead of being buffered without end', async () => {
    const { request } = await import('node:http')
    let received = 0
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      request(`${urlB}/api/call-events/stream`, { headers: auth.admin }, resolve).on('error', reject).end()
    })
    assert.equal(stream.statusCode, 200)
    stream.pause() // a console that stops reading
    const ended = new Promise<void>((resolve) => { stream.on('close', resolve); stream.on('error', () => resolve()) })
    await flood()
    // reading again
    stream.on('data', (chunk: Buffer) => { received += chunk.length })
    stream.resume()
    await assertCutOff(ended, () => received)
  })

  it('a WebSocket console that stops reading is cut off too: closed with 1013 (try again later)', async () => {
    const socket = new WebSocket(`${urlB.replace('http', 'ws')}/api/call-events/ws`, ['bearer', auth.admin!.authorization!.slice('Bearer '.length)])
    await once(socket, 'open')
    let received = 0
    socket.on('message', (data: Buffer) => { received += data.length })
    const closed = once(socket, 'close')
    socket.pause() // a console that stops reading
    await flood()
    socket.resume()
    await assertCutOff(closed, () => received)
    assert.equal((await closed)[0], 1013)
  })

  it('the stream needs a user token', async () => {
    const res = await fetch(`${urlA}/api/call-events/stream`)
    assert.equal(res.status, 401)
  })
})
