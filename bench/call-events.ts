// Issue 16's transcription figures: SENDERS connections posting the chunks of CALLS concurrent calls
// (each call's chunks one after another), CONSOLES consoles attached over SSE (or WebSockets with
// BENCH_CONSOLE_TRANSPORT=ws); chunks accepted per
// second, the delay from POST to each console (p50/p99), and afterwards every call's chunks checked
// in the database: none lost, none out of order. The senders and the consoles run in processes of
// their own, so that they do not share the service's event loop.
import { fork } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { once } from 'node:events'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { BENCH_SECONDS, benchDatabase, rawQuery, startService } from './harness.js'

const SENDERS = Number(process.env.BENCH_SENDERS ?? 20)
const CALLS = Number(process.env.BENCH_CALLS ?? 100)
const CONSOLES = Number(process.env.BENCH_CONSOLES ?? 50)
/** how long a call's full_text grows (characters) */
const TRANSCRIPT_CHARS = Number(process.env.BENCH_TRANSCRIPT_CHARS ?? 2000)
/** sse, or ws (what the web console uses) */
const TRANSPORT = process.env.BENCH_CONSOLE_TRANSPORT === 'ws' ? 'ws' : 'sse'

interface ConsoleFigures { cpuMs: number, received: number, outOfOrder: number, p50: number | null, p99: number | null, max: number | null }

/** the CPU time of each of this machine's PostgreSQL server processes, from /proc (ms, by pid) */
function postgresCpuMs (): Map<string, number> {
  const byPid = new Map<string, number>()
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    let stat: string
    try { stat = readFileSync(`/proc/${pid}/stat`, 'latin1') } catch { continue }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    if (name !== 'postgres') continue
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    byPid.set(pid, (Number(fields[11]) + Number(fields[12])) * 10) // utime + stime; USER_HZ is 100 on Linux
  }
  return byPid
}

/**
 * what the processes alive at the end spent since `before`: a connection closed meanwhile (the pool
 * closes idle ones) takes what it spent with it, and summing totals would subtract that
 */
function postgresCpuSince (before: Map<string, number>): number {
  let ms = 0
  for (const [pid, total] of postgresCpuMs()) ms += total - (before.get(pid) ?? 0)
  return ms
}

const child = (script: string, args: string[]) => fork(new URL(script, import.meta.url), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })

/** closed calls, so that the run meets a centre's database after a few days, its statistics gathered, not an empty one */
const HISTORY_CALLS = Number(process.env.BENCH_HISTORY_CALLS ?? 2000)
const HISTORY_CHUNKS = 100

async function insertCallHistory (sql: ReturnType<typeof rawQuery>): Promise<void> {
  await sql(`insert into calls (call_id, operator_num, transcript, is_final, closed_at, created_at)
    select 'history-' || c, lpad((101000 + c % 300)::text, 6, '0'), repeat('Здравствуйте у нас нет воды ', 40), true, now() - c * interval '1 minute', now() - c * interval '1 minute'
    from generate_series(1, $1::int) c`, [HISTORY_CALLS])
  await sql(`insert into call_chunks (call_row_id, seq, channel, chunk_text, is_final, fingerprint, received_at)
    select c.id, s, 'left', 'слово ' || s, s = $1::int, decode(md5(c.id || '-' || s) || md5(s || '-' || c.id), 'hex'), c.created_at
    from calls c, generate_series(1, $1::int) s where c.call_id like 'history-%'`, [HISTORY_CHUNKS])
  // vacuumed too: the autovacuum those inserts call for would otherwise run beside the measurement
  await sql('vacuum analyze calls')
  await sql('vacuum analyze call_chunks')
}

export async function benchCallEvents (): Promise<void> {
  const database = await benchDatabase('call-events')
  const sql = rawQuery(database)
  await insertCallHistory(sql)
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false).catch(() => {})
  const service = await startService(database)
  const token = (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })).json() as { access_token: string }).access_token

  const consoles = child('./load/console-streams.ts', [service.url, token, String(CONSOLES), TRANSPORT])
  await once(consoles, 'message')
  const run = `bench${Date.now()}`
  const cpuBefore = process.cpuUsage()
  const postgresBefore = postgresCpuMs()
  const senders = child('./load/transcript-senders.ts', [service.url, String(SENDERS), String(CALLS), String(BENCH_SECONDS), run, String(TRANSCRIPT_CHARS)])
  let output = ''
  senders.stdout!.on('data', (text: Buffer) => { output += text.toString() })
  await once(senders, 'exit')
  const cpu = process.cpuUsage(cpuBefore)
  const postgresMs = postgresCpuSince(postgresBefore)
  const { accepted, failed, cpuMs: sendersMs } = JSON.parse(output) as { accepted: number[], failed: number, cpuMs: number }
  await new Promise((resolve) => setTimeout(resolve, 1000)) // the last events on their way
  consoles.send('stop')
  const [figures] = await once(consoles, 'message') as [ConsoleFigures]

  const stored = await sql<{ call_id: string, chunks: number, gaps: number, reordered: number }>(`
    select c.call_id, count(*)::int as chunks,
      (count(*) - count(distinct k.seq) + (max(k.seq) - count(*)))::int as gaps,
      count(*) filter (where k.chunk_text::numeric < k.before)::int as reordered
    from calls c join lateral (select seq, chunk_text, lag(chunk_text::numeric) over (order by seq) as before from call_chunks where call_row_id = c.id) k on true
    where c.call_id like $1 group by c.call_id`, [`${run}-%`])
  const total = accepted.reduce((a, b) => a + b, 0)
  const storedTotal = stored.reduce((a, s) => a + s.chunks, 0)
  const lost = accepted.reduce((n, count, call) => n + Math.abs(count - (stored.find((s) => s.call_id === `${run}-${call}`)?.chunks ?? 0)), 0)
  const reordered = stored.reduce((n, s) => n + s.gaps + s.reordered, 0)

  const f = (n: number | null) => (n ?? NaN).toFixed(1)
  process.stdout.write(`\nTranscription intake on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}: ${SENDERS} sender connections, ${CALLS} calls, ${CONSOLES} ${TRANSPORT === 'ws' ? 'WebSocket' : 'SSE'} consoles, transcripts of ${TRANSCRIPT_CHARS} characters, ${BENCH_SECONDS} s\n`)
  process.stdout.write(`accepted ${(total / BENCH_SECONDS).toFixed(0)} chunks/s (${total} in all, ${failed} refused); stored ${storedTotal}, lost or extra ${lost}, out of order ${reordered}\n`)
  const serviceMs = (cpu.user + cpu.system) / 1000
  const perChunk = (ms: number) => `${(1000 * ms / Math.max(total, 1)).toFixed(0)} µs`
  process.stdout.write(`CPU a chunk: service ${perChunk(serviceMs)} (${(serviceMs / BENCH_SECONDS / 10).toFixed(0)}% of a core, ${(100 * cpu.system / Math.max(cpu.user + cpu.system, 1)).toFixed(0)}% in the kernel, the consoles' deliveries included)` +
    `${database.kind === 'postgres' ? `, PostgreSQL server ${postgresMs === 0 ? 'not seen (on another machine?)' : perChunk(postgresMs)}` : ''}; the load: senders ${perChunk(sendersMs)}, consoles ${perChunk(figures.cpuMs)}\n`)
  process.stdout.write(`pushed: ${figures.received} of ${total * CONSOLES} deliveries, ${figures.outOfOrder} out of order; POST to console p50 ${f(figures.p50)} ms, p99 ${f(figures.p99)} ms, max ${f(figures.max)} ms\n`)
  await service.app.close()
  await database.close()
}
