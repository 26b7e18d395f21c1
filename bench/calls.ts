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

export async function benchCalls (): Promise<void> {
  const database = await benchDatabase('calls')
  const sql = rawQuery(database)
  const peer = await startAmiPeer()
  await sql('insert into organizations (name, prefix) values (\'Акимат\', \'101\')')
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const service = await startService(database, { AMI_HOST: '127.0.0.1', AMI_PORT: String(peer.port), AMI_USERNAME: 'appeals', AMI_SECRET: 'ami-secret', AMI_TIMEOUT: '5s' })
  const login = async (email: string, password: string) => (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })).json() as { access_token: string }).access_token
  const admin = { authorization: `Bearer ${await login('bench@appeals.kz', 'Bench-password-1')}`, 'content-type': 'application/json' }
  const [org] = await sql<{ id: number }>('select id from organizations')
  const operators: { terminal: string, headers: Record<string, string> }[] = []
  for (let i = 1; i <= OPERATORS; i++) {
    const extension = String(i).padStart(3, '0')
    const user = await makeUser(database.db, { role: 'manager', organization_id: org!.id, email: `operator${i}@appeals.kz`, password: 'Operator-password-1' })
    const res = await fetch(`${service.url}/api/organizations/${org!.id}/endpoints/`, { method: 'POST', headers: admin, body: JSON.stringify({ name: `Пульт ${extension}`, extension, password: 'Abcdefghij0123456789', employee_id: user.id, allow_long_distance: true }) })
    if (!res.ok) throw new Error(`terminal ${extension}: ${res.status} ${await res.text()}`)
    operators.push({ terminal: `101${extension}`, headers: { authorization: `Bearer ${await login(`operator${i}@appeals.kz`, 'Operator-password-1')}`, 'content-type': 'application/json' } })
  }
  peer.state.endpoints = operators.map((o) => o.terminal)
  peer.state.contacts = operators.map((o) => ({ endpoint: o.terminal, uri: `sip:${o.terminal}@127.0.0.1:5070`, userAgent: 'pjsua', status: 'Reachable', roundtripUsec: '900' }))
  while (peer.streaming() === 0) await new Promise((resolve) => setTimeout(resolve, 100))

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
  await service.app.close()
  await peer.close()
  await database.close()
}
