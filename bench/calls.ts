// Issue 50's figures: from the click (POST /api/calls) to Asterisk being asked to ring the user's
// phone (the Originate reaching the AMI test peer), for 50 operators calling over and over: each call
// answered and connected at once by the real Asterisk 22's events (placed-call.txt) under its own
// Linkedid, talked TALK_MS, hung up, and the next placed.
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { startAmiPeer } from '../test/helpers/ami-peer.js'
import { replayedEvents } from '../test/helpers/ami-recording.js'
import { makeUser } from '../test/helpers/factories.js'
import { BENCH_SECONDS, benchDatabase, rawQuery, startService } from './harness.js'

const OPERATORS = Number(process.env.BENCH_CALL_OPERATORS ?? 50)
const RECORDED = '1795954364.7000000001'
/** a talk, compressed: the centre's minutes would make the run hours long */
const TALK_MS = Number(process.env.BENCH_CALL_TALK_MS ?? 2000)
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN

/**
 * The stand both measure on: a database of its own, the AMI peer, the service, an organization with
 * OPERATORS terminals whose phones are registered; `staffed`: each terminal an employee's, signed in.
 */
async function startStand (suite: string, staffed: boolean) {
  const database = await benchDatabase(suite)
  const sql = rawQuery(database)
  const peer = await startAmiPeer()
  await sql('insert into organizations (name, prefix) values (\'Акимат\', \'101\')')
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const service = await startService(database, { AMI_HOST: '127.0.0.1', AMI_PORT: String(peer.port), AMI_USERNAME: 'appeals', AMI_SECRET: 'ami-secret', AMI_TIMEOUT: '5s' })
  const login = async (email: string, password: string) => (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })).json() as { access_token: string }).access_token
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' })
  const admin = bearer(await login('bench@appeals.kz', 'Bench-password-1'))
  const [org] = await sql<{ id: number }>('select id from organizations')
  const operators: { terminal: string, headers: Record<string, string> }[] = []
  for (let i = 1; i <= OPERATORS; i++) {
    const extension = String(i).padStart(3, '0')
    const email = `operator${i}@appeals.kz`
    // managers: they may call any number
    const user = staffed ? await makeUser(database.db, { role: 'manager', organization_id: org!.id, email, password: 'Operator-password-1' }) : undefined
    const res = await fetch(`${service.url}/api/organizations/${org!.id}/endpoints/`, { method: 'POST', headers: admin, body: JSON.stringify({ name: `Пульт ${extension}`, extension, password: 'Abcdefghij0123456789', employee_id: user?.id ?? null, allow_long_distance: true }) })
    if (!res.ok) throw new Error(`terminal ${extension}: ${res.status} ${await res.text()}`)
    operators.push({ terminal: `101${extension}`, headers: user ? bearer(await login(email, 'Operator-password-1')) : {} })
  }
  peer.state.endpoints = operators.map((o) => o.terminal)
  peer.state.contacts = operators.map((o) => ({ endpoint: o.terminal, uri: `sip:${o.terminal}@127.0.0.1:5070`, userAgent: 'pjsua', status: 'Reachable', roundtripUsec: '900' }))
  while (peer.streaming() === 0) await new Promise((resolve) => setTimeout(resolve, 100))
  return {
    database, sql, peer, service, operators,
    stop: async () => { await service.app.close(); await peer.close(); await database.close() },
  }
}

export async function benchCalls (): Promise<void> {
  const { database, sql, peer, service, operators, stop } = await startStand('calls', true)

  const hangUp = replayedEvents('placed-call.txt').findIndex((e) => e.message.Event === 'BridgeLeave')
  // each Originate: when it arrived, and the call's events replayed at once under its Linkedid
  const asked = new Map<string, number>()
  peer.state.onAction = (action, at) => {
    if (action.Action !== 'Originate' || !action.ChannelId) return
    asked.set(action.Channel!, at)
    const rewrite = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.replace(RECORDED, action.ChannelId!)]))
    setImmediate(() => peer.replay('placed-call.txt', { to: hangUp, rewrite }))
    setTimeout(() => peer.replay('placed-call.txt', { from: hangUp, rewrite }), TALK_MS)
  }
  const delays: number[] = []
  let refused = 0
  const until = performance.now() + BENCH_SECONDS * 1000
  const ended = async (id: number, headers: Record<string, string>) => {
    for (;;) {
      const call = await (await fetch(`${service.url}/api/calls/${id}`, { headers })).json() as { status: string }
      if (call.status === 'ended') return
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  // the operators' clicks spread as people's are: the first within a talk's time, each next after a second's wrap-up
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  await Promise.all(operators.map(async (o, i) => {
    await pause((TALK_MS * i) / OPERATORS)
    while (performance.now() < until) {
      const clicked = performance.now()
      const res = await fetch(`${service.url}/api/calls`, { method: 'POST', headers: o.headers, body: JSON.stringify({ number: '+77010000002' }) })
      if (res.status !== 202) { refused++; await res.text(); continue }
      const call = await res.json() as { id: number }
      delays.push(asked.get(`PJSIP/${o.terminal}`)! - clicked)
      await ended(call.id, o.headers)
      await pause(1000)
    }
  }))
  const sorted = delays.sort((a, b) => a - b)
  const [counts] = await sql<{ ended: string, all: string }>('select count(*) filter (where status = \'ended\') as ended, count(*) as all from placed_calls')
  process.stdout.write(`\n## calls placed (${database.kind}): ${OPERATORS} operators calling for ${BENCH_SECONDS} s, each call connected at once, talked ${TALK_MS} ms, hung up, the next placed a second later\n`)
  process.stdout.write(`click → Originate at the AMI peer: p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms over ${sorted.length} calls; ${counts!.ended} of ${counts!.all} ended; ${refused} refused\n`)
  await stop()
}

/**
 * Callbacks: 200 requests waiting in one queue (the recorded caller's request under 200 ids and
 * places), 50 operators of it coming (unpaused) and going (paused again) at random; each callback
 * connected at once and hung up a moment later. Measured: from an operator becoming ready while
 * requests wait to the Originate through them; and at the end that every request was reached, by one
 * call each, placed in the requests' order.
 */
export async function benchCallbacks (): Promise<void> {
  const REQUESTS = 200
  const { database, sql, peer, operators, stop } = await startStand('callbacks', false)
  const terminals = operators.map((o) => o.terminal)
  peer.state.members = terminals.map((t) => ({ queue: 'org101-queue', name: t, interface: `PJSIP/${t}`, paused: true, reason: 'lunch', lastPause: 0 }))

  // the requests: the recorded one under other ids, each joined a second after the one before
  const RECORDED_CALLBACK = '1795956636.7000000002'
  const events = replayedEvents('callback.txt')
  const callbackStarts = events.findIndex((e) => (e.message.Linkedid ?? e.message.Uniqueid) === RECORDED_CALLBACK)
  const request = events.findIndex((e) => e.message.UserEvent === 'AppealsCall' && e.message.Callback !== undefined)
  const hangUp = events.findIndex((e, i) => i > callbackStarts && e.message.Event === 'BridgeLeave')
  const joinedFrom = Math.floor(Date.now() / 1000) - REQUESTS - 60
  for (let i = 0; i < REQUESTS; i++) {
    const caller = `${joinedFrom}.${i + 1}`
    peer.replay('callback.txt', { from: request, to: request + 1, rewrite: (m) => ({ ...m, Linkedid: caller, Uniqueid: caller, Joined: String(joinedFrom + i) }) })
  }
  while (Number((await sql<{ n: string }>('select count(*) as n from callback_requests'))[0]!.n) < REQUESTS) await new Promise((resolve) => setTimeout(resolve, 100))

  // operators come (unpaused: ready) and go (paused), at random; a rung one is in use until the callback ends
  const readySince = new Map<string, number>()
  const delays: number[] = []
  peer.state.onAction = (action, at) => {
    if (action.Action !== 'Originate' || !action.ChannelId) return
    const member = peer.state.members.find((m) => m.interface === action.Channel)!
    const since = readySince.get(member.interface)
    if (since !== undefined) delays.push(at - since)
    readySince.delete(member.interface)
    member.inCall = true
    const rewrite = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v === RECORDED_CALLBACK ? action.ChannelId! : v]))
    setImmediate(() => peer.replay('callback.txt', { from: callbackStarts, to: hangUp, rewrite }))
    setTimeout(() => {
      peer.replay('callback.txt', { from: hangUp, rewrite })
      member.inCall = false
      if (!member.paused) readySince.set(member.interface, performance.now())
    }, 300)
  }
  const reached = async () => Number((await sql<{ n: string }>('select count(*) as n from callback_requests where status = \'reached\''))[0]!.n)
  const started = performance.now()
  while (await reached() < REQUESTS && performance.now() - started < 120_000) {
    for (const m of peer.state.members) {
      if (Math.random() < 0.2) {
        m.paused = !m.paused
        if (!m.paused && !m.inCall) readySince.set(m.interface, performance.now())
        else readySince.delete(m.interface)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  peer.state.onAction = undefined
  const [counts] = await sql<{ reached: string, calls: string, requests_called: string, twice: string }>(`select
      (select count(*) from callback_requests where status = 'reached') as reached,
      (select count(*) from placed_calls where kind = 'callback') as calls,
      (select count(distinct callback_id) from placed_calls where kind = 'callback') as requests_called,
      (select count(*) from (select callback_id from placed_calls where kind = 'callback' and connected_at is not null group by callback_id having count(*) > 1) t) as twice`)
  // the order placed (the calls' ids) against the requests' places (joined_at)
  const order = await sql<{ joined: string }>('select r.joined_at as joined from placed_calls p join callback_requests r on r.id = p.callback_id where p.kind = \'callback\' order by p.id')
  let outOfOrder = 0
  for (let i = 1; i < order.length; i++) if (new Date(order[i]!.joined) < new Date(order[i - 1]!.joined)) outOfOrder++
  const sorted = delays.sort((a, b) => a - b)
  process.stdout.write(`\n## callbacks (${database.kind}): ${REQUESTS} requests in one queue, ${OPERATORS} operators coming and going at random, each callback connected and hung up 0.3 s later\n`)
  process.stdout.write(`an operator ready → their callback placed: p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms over ${sorted.length} placements\n`)
  process.stdout.write(`reached ${counts!.reached} of ${REQUESTS}; ${counts!.calls} calls for ${counts!.requests_called} requests; reached twice: ${counts!.twice}; placed out of their order: ${outOfOrder}; ${((performance.now() - started) / 1000).toFixed(1)} s in all\n`)
  await stop()
}
