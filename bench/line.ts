// Issue 34's figures: Asterisk's events taken at 1,000 a second (the AMI test peer sending the real
// recording's calls under new ids), with the backlog of unsaved calls each second; the screen pop's
// delay from the AgentConnect leaving the peer to call.answered arriving at the operator's console
// (SSE); and the queue figures of a day of 50,000 calls (GET /api/line-calls/kpis, /board).
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { startAmiPeer } from '../test/helpers/ami-peer.js'
import { recordedEvents } from '../test/helpers/ami-recording.js'
import { makeUser } from '../test/helpers/factories.js'
import { openSse } from '../test/helpers/sse.js'
import { BENCH_SECONDS, benchDatabase, load, rawQuery, startService } from './harness.js'

const EVENTS_PER_SECOND = 1000
const CALLS_A_DAY = 50_000
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN

export async function benchLine (): Promise<void> {
  const database = await benchDatabase('line')
  const sql = rawQuery(database)
  const peer = await startAmiPeer()
  await sql('insert into regions (name, phone_code, phone_zone, local_digits) values (\'Астана\', \'7172\', \'717\', 6)')
  await sql('insert into organizations (name, prefix, region_id) values (\'Акимат\', \'101\', (select id from regions limit 1))')
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const service = await startService(database, { AMI_HOST: '127.0.0.1', AMI_PORT: String(peer.port), AMI_USERNAME: 'appeals', AMI_SECRET: 'ami-secret', AMI_TIMEOUT: '5s' })
  const login = async (email: string, password: string) => (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })).json() as { access_token: string }).access_token
  const admin = { authorization: `Bearer ${await login('bench@appeals.kz', 'Bench-password-1')}` }
  const post = async (path: string, body: object) => {
    const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<{ id: number }>
  }
  const [org] = await sql<{ id: number }>('select id from organizations')
  const operator = await makeUser(database.db, { role: 'operator', organization_id: org!.id, email: 'operator@appeals.kz', password: 'Operator-password-1' })
  await post(`/api/organizations/${org!.id}/endpoints/`, { name: 'Пульт 001', extension: '001', password: 'Abcdefghij0123456789', employee_id: operator.id })
  while (peer.streaming() === 0) await new Promise((resolve) => setTimeout(resolve, 100))

  // the operator's console: each pop's arrival
  const sent = new Map<string, number>()
  const popDelays: number[] = []
  const desk = await openSse(`${service.url}/api/call-events/stream`, { authorization: `Bearer ${await login('operator@appeals.kz', 'Operator-password-1')}` }, (e) => {
    const callId = (e.data.call as { call_id?: string } | undefined)?.call_id
    const at = callId === undefined ? undefined : sent.get(callId)
    if (e.event === 'call.answered' && at !== undefined) popDelays.push(e.at - at)
  })

  // the recorded call under a new id every 41 ms: 41 events each, 1,000 a second
  const perCall = recordedEvents('queue-answered.txt', 1).length
  const connectAt = recordedEvents('queue-answered.txt', 1).findIndex((e) => e.message.Event === 'AgentConnect')
  const seconds = BENCH_SECONDS * 2
  const calls = Math.round(seconds * EVENTS_PER_SECOND / perCall)
  const ended = async () => Number((await sql<{ n: string }>('select count(*) as n from line_calls where ended_at is not null'))[0]!.n)
  const backlog: number[] = []
  const started = performance.now()
  for (let i = 0; i < calls; i++) {
    const due = started + i * perCall * 1000 / EVENTS_PER_SECOND
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const id = String(1_800_000_000 + i)
    const rewrite = (m: Record<string, string>) => ({ ...m, Uniqueid: m.Uniqueid?.replace('1795557215', id), Linkedid: m.Linkedid?.replace('1795557215', id) })
    peer.replay('queue-answered.txt', { to: connectAt, rewrite })
    sent.set(`${id}.0`, performance.now())
    peer.replay('queue-answered.txt', { from: connectAt, rewrite })
    if (i % Math.round(EVENTS_PER_SECOND / perCall) === 0 && i > 0) backlog.push(i - await ended())
  }
  const sending = (performance.now() - started) / 1000
  while (await ended() < calls) await new Promise((resolve) => setTimeout(resolve, 20))
  const drained = (performance.now() - started) / 1000 - sending
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await desk.close()
  popDelays.sort((a, b) => a - b)
  process.stdout.write(`\nAMI events: ${calls} calls x ${perCall} events = ${calls * perCall} events sent in ${sending.toFixed(1)} s (${(calls * perCall / sending).toFixed(0)} events/s)\n`)
  process.stdout.write(`  calls not yet saved, sampled each second: ${backlog.join(' ')}; the last saved ${(drained * 1000).toFixed(0)} ms after the last event\n`)
  process.stdout.write(`  screen pop, AgentConnect sent -> call.answered at the console (SSE): ${popDelays.length} pops, p50 ${percentile(popDelays, 0.5).toFixed(1)} ms, p99 ${percentile(popDelays, 0.99).toFixed(1)} ms, max ${popDelays.at(-1)?.toFixed(1)} ms\n`)

  // a day of 50,000 calls in the queue, spread over the centre's day, in every outcome
  await sql(`insert into line_calls (linkedid, organization_id, caller_number, queue, joined_at, position, attempts, answered_by, answered_at, hold_seconds, talk_seconds, ended_by, service_level_seconds, wrapup_seconds, outcome, started_at, ended_at)
    select '17000' || i || '.0', $1, '+7701' || lpad((i % 10000000)::text, 7, '0'), 'org101-queue', t, 1, '[]'::jsonb,
      case when i % 10 < 8 then 'PJSIP/101' || lpad((1 + i % 40)::text, 3, '0') end, case when i % 10 < 8 then t + (i % 60) * interval '1 second' end,
      i % 60, case when i % 10 < 8 then 60 + i % 300 end, case when i % 10 < 8 then 'caller' end, 20, 5,
      case when i % 10 < 8 then 'answered' when i % 10 = 8 then 'abandoned' else 'timed_out' end, t, t + interval '5 minutes'
    from generate_series(1, ${CALLS_A_DAY}) i, lateral (select date_trunc('day', now() at time zone 'Asia/Almaty') at time zone 'Asia/Almaty' + (i * 86400.0 / ${CALLS_A_DAY + 1}) * interval '1 second' as t) x`, [org!.id])
  await sql('analyze line_calls')
  process.stdout.write(`\nQueue figures of a day of ${CALLS_A_DAY} calls (40 operators), one connection then 10, ${BENCH_SECONDS} s each\n| case | req/s | p50 ms | p99 ms |\n|---|---:|---:|---:|\n`)
  for (const [name, path] of [['kpis (today)', '/api/line-calls/kpis'], ['board', '/api/line-calls/board']] as const) {
    for (const connections of [1, 10]) {
      const r = await load(`${service.url}${path}`, admin, { connections })
      process.stdout.write(`| ${name}, ${connections} conn. | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} |${r.errors + r.non2xx > 0 ? ` errors ${r.errors + r.non2xx}` : ''}\n`)
    }
  }
  await service.app.close()
  await peer.close()
  await database.close()
}
