// Issue 48's figures for the recordings: one hour of 8 kHz audio through the encoder the service runs
// (opus-tools), the time it takes (the encoder is one process on one core, so its wall time on an
// idle machine is a core's time), and the bytes kept per second of call; then 50 listeners at once
// asking ranges of recordings (autocannon in its own process), each listen audited as in production.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { performance } from 'node:perf_hooks'
import { createLibopusEncoder, createOpusToolsEncoder } from '../src/integrations/recordings/index.js'
import { asteriskWav } from '../test/helpers/asterisk-wav.js'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { BENCH_SECONDS, benchDatabase, load, rawQuery, startService } from './harness.js'

const LISTENERS = 50
/** a three-minute call as kept: 1.5 kB a second */
const RECORDING_BYTES = 180 * 1545

const SECONDS = Number(process.env.BENCH_RECORDING_SECONDS ?? 3600)

/** speech-like: a voiced sound whose pitch and loudness wander, in syllables with pauses, over a little noise */
function speechLike (seconds: number): Int16Array {
  let seed = 7
  const noise = () => { seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31; return seed / 2 ** 31 - 0.5 }
  return Int16Array.from({ length: 8000 * seconds }, (_, i) => {
    const t = i / 8000
    const pitch = 120 + 40 * Math.sin(2 * Math.PI * 0.7 * t)
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 3 * t)) * (Math.sin(2 * Math.PI * 0.2 * t) > -0.6 ? 1 : 0)
    let voiced = 0
    for (let h = 1; h <= 12; h++) voiced += Math.sin(2 * Math.PI * pitch * h * t) / h
    return Math.round(3000 * syllable * voiced + 300 * noise())
  })
}

export async function benchRecordings (): Promise<void> {
  await benchRanges()
  await benchCompression()
}

/** the first byte of a Range request: 50 listeners at once, 16 kB ranges of a three-minute recording (the whole answer's time: an upper bound) */
async function benchRanges (): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-recordings-http-'))
  const database = await benchDatabase('recordings')
  try {
    const sql = rawQuery(database)
    mkdirSync(join(dir, 'kept/2026-11-29'), { recursive: true })
    writeFileSync(join(dir, 'kept/2026-11-29/1795922610.0-1795922610.1.opus'), randomBytes(RECORDING_BYTES))
    const [row] = await sql<{ id: number }>(`insert into call_recordings (linkedid, leg, terminal, file, format, started_at, seconds, bytes, sha256)
      values ('1795922610.0', '1795922610.1', '101001', 'kept/2026-11-29/1795922610.0-1795922610.1.opus', 'opus', now(), 180, $1, $2) returning id`, [RECORDING_BYTES, '0'.repeat(64)])
    await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
    const service = await startService(database, { RECORDINGS_DIR: dir })
    try {
      const login = await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })).json() as { access_token: string }
      const headers = { authorization: `Bearer ${login.access_token}` }
      const url = `${service.url}/api/recordings/${row!.id}`
      const range = { ...headers, range: 'bytes=65536-81919' }
      // a player asks its next range a second or so ahead of where it plays: 50 of them, out of step
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/listeners.ts', url, headers.authorization, String(LISTENERS), String(BENCH_SECONDS), '16384', String(RECORDING_BYTES)])
      const listening = JSON.parse(stdout) as { requests: number, failures: number, p50: number, p99: number, max: number }
      // and all 50 asking at the same instant, each second (autocannon's -R: its requests of a second go together)
      const together = await load(url, range, { connections: LISTENERS, rate: LISTENERS })
      const ranged = await load(url, range, { connections: LISTENERS })
      const whole = await load(url, headers, { connections: LISTENERS })
      const audited = (await sql<{ n: number }>('select count(*)::int as n from personal_data_access where subject = \'recording\''))[0]!.n
      process.stdout.write([
        '', `## recordings: heard with HTTP Range (${LISTENERS} listeners at once, ${BENCH_SECONDS} s each; every listen written to the audit)`, '',
        '| request | req/s | p50 ms | p99 ms | errors and non-2xx |', '|---|---:|---:|---:|---:|',
        `| Range: 16 kB of a three-minute call: 50 listeners, each its next range a second, out of step (time to the first byte) | ${(listening.requests / BENCH_SECONDS).toFixed(0)} | ${listening.p50.toFixed(1)} | ${listening.p99.toFixed(1)} | ${listening.failures} |`,
        `| the same, the 50 asking at one instant each second (the whole answer) | ${together.rps.toFixed(0)} | ${together.p50} | ${together.p99} | ${together.errors + together.non2xx} |`,
        `| the same, as fast as 50 connections go (saturation) | ${ranged.rps.toFixed(0)} | ${ranged.p50} | ${ranged.p99} | ${ranged.errors + ranged.non2xx} |`,
        `| the whole file, ${(RECORDING_BYTES / 1024).toFixed(0)} kB (200) | ${whole.rps.toFixed(0)} | ${whole.p50} | ${whole.p99} | ${whole.errors + whole.non2xx} |`,
        '', `${audited} listens audited.`, '',
      ].join('\n'))
    } finally {
      await service.app.close()
    }
  } finally {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function benchCompression (): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-recordings-'))
  try {
    const wav = join(dir, 'call.wav')
    writeFileSync(wav, asteriskWav(speechLike(SECONDS)))
    const rows: string[] = []
    for (const [name, encoder] of [['libopus in the process (the default)', createLibopusEncoder()], ['opus-tools (opusenc, opusdec)', createOpusToolsEncoder()]] as const) {
      if (await encoder.probe() === undefined) { rows.push(`| ${name} | not installed here | | | |`); continue }
      const out = join(dir, `call-${rows.length}.opus`)
      const started = performance.now()
      const cpu = process.cpuUsage()
      await encoder.compress(wav, out)
      const took = (performance.now() - started) / 1000
      // opus-tools works in child processes: the wall time on an idle machine is its core's time
      const used = process.cpuUsage(cpu)
      const ownCpu = (used.user + used.system) / 1e6
      const bytes = statSync(out).size
      rows.push(`| ${name} | ${took.toFixed(1)} s (${ownCpu.toFixed(1)} s of this process's CPU) | ${(took * 3600 / SECONDS).toFixed(1)} s | ${bytes} | ${(bytes / SECONDS).toFixed(0)} B; ${(bytes / SECONDS * 180 * 50_000 / 1e9).toFixed(1)} GB a day for 50,000 three-minute calls |`)
    }
    process.stdout.write([
      '', `## recordings: compression of ${SECONDS} s of speech-like 8 kHz audio (12 kbit/s CBR, 60 ms frames, complexity 0; encoded, then read back and decoded to check)`, '',
      '| encoder | compressed and checked in | per hour of audio | bytes kept | per second of call |', '|---|---|---|---|---|',
      ...rows, '',
    ].join('\n'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
