import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createDb } from '../src/db/client.js'
import { runMigrations } from '../src/db/migrate.js'
import { testEnv } from './helpers/app.js'

const workDirs: string[] = []
function tempDir (): string {
  const dir = mkdtempSync(join(tmpdir(), 'appeals-proc-'))
  workDirs.push(dir)
  return dir
}
after(() => { for (const dir of workDirs) rmSync(dir, { recursive: true, force: true }) })

function startService (env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...testEnv, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
      if (m) resolve(m[1]!)
    })
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)))
  })
  listening.catch(() => {}) // a test that expects the exit does not wait for listening
  return { child, exited, listening, output: () => ({ stdout, stderr }) }
}

describe('the service process', () => {
  it('starts on the embedded database, answers /health, and exits 0 on SIGTERM', async () => {
    const service = startService({ DATA_DIR: tempDir() })
    const base = await service.listening
    const res = await fetch(`${base}/health`)
    assert.equal(res.status, 200)
    assert.equal((await res.json() as { database: string }).database, 'pglite')
    service.child.kill('SIGTERM')
    assert.equal(await service.exited, 0)
    const lines = service.output().stdout.trim().split('\n').map((l) => JSON.parse(l) as { msg: string, generated_password?: string })
    assert.ok(lines.some((l) => l.msg === 'stopping'))
    assert.ok(lines.some((l) => l.generated_password), 'the first administrator\'s generated password is shown once')
    assert.ok(lines.some((l) => /SERVICE_TOKEN is not set/.test(l.msg)), 'running without SERVICE_TOKEN is warned about at start')
  })

  it('a stop under load finishes every request that had reached it: no reset, no 503', async () => {
    const service = startService({ DATA_DIR: tempDir() })
    const { hostname, port } = new URL(await service.listening)
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`
    const opened = async (): Promise<Socket> => {
      const socket = connect(Number(port), hostname)
      await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
      return socket
    }
    /** everything the socket receives until the service closes it; a reset is an error */
    const answered = (socket: Socket) => new Promise<string>((resolve, reject) => {
      let text = ''
      socket.on('data', (d: Buffer) => { text += d.toString() })
      socket.once('error', (err) => reject(new Error(`${(err as NodeJS.ErrnoException).code ?? err.message} after ${JSON.stringify(text.slice(0, 40))}`)))
      socket.once('end', () => resolve(text))
    })
    // a kept-alive connection that already had one answer
    const kept = await opened()
    const keptText = answered(kept)
    kept.write(request('/health'))
    await new Promise((resolve) => setTimeout(resolve, 300)) // its first answer has come
    // 150 connections accepted by the kernel, each with its request sent, then the stop
    const sockets = await Promise.all(Array.from({ length: 150 }, opened))
    const texts = sockets.map(answered)
    for (const socket of sockets) socket.write(request('/api/shared/regions'))
    service.child.kill('SIGTERM')
    // the kept connection's second request once the stop has begun: its answer must end the connection
    while (!service.output().stdout.includes('"stopping"')) await new Promise((resolve) => setTimeout(resolve, 5))
    kept.write(request('/health'))
    const results = await Promise.allSettled(texts)
    const failures = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))
    assert.deepEqual(failures, [], `${failures.length} connections were reset`)
    const statuses = results.map((r) => /^HTTP\/1\.1 (\d+)/.exec((r as PromiseFulfilledResult<string>).value)?.[1])
    assert.deepEqual(statuses.filter((s) => s !== '200'), [], 'every request answered 200')
    const keptAnswers = (await keptText).split(/(?=HTTP\/1\.1 )/)
    assert.deepEqual(keptAnswers.map((a) => a.slice(0, 12)), ['HTTP/1.1 200', 'HTTP/1.1 200'], 'the kept-alive connection\'s second request after the stop is served too')
    assert.match(keptAnswers[0]!, /^connection: keep-alive\r$/im)
    assert.match(keptAnswers[1]!, /^connection: close\r$/im, 'an answer during the stop ends its connection')
    assert.equal(await service.exited, 0)
  })

  it('npm run cli -- create-admin creates an administrator who can log in', async () => {
    const dataDir = tempDir()
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'create-admin', '--email', 'Ops@Akimat.kz'], {
      env: { ...process.env, ...testEnv, DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => { out += d.toString() })
    assert.equal(await new Promise((resolve) => child.on('exit', resolve)), 0)
    const password = /password \(shown once.*\): (\S+)/.exec(out)?.[1]
    assert.ok(password, out)
    const database = await createDb({ dataDir })
    const app = await buildApp({ config: loadConfig({ ...testEnv, DATA_DIR: dataDir }), database, logger: false })
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ops@akimat.kz', password } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().must_change_password, true)
    await app.close()
    await database.close()
  })

  it('refuses a bad variable with one line naming it', async () => {
    const service = startService({ PORT: 'eighty', DATA_DIR: tempDir() })
    assert.equal(await service.exited, 2)
    assert.equal(service.output().stderr.trim(), 'Invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")')
  })
})

describe('the embedded database', () => {
  it('keeps its data across restarts and serves one process at a time', async () => {
    const dataDir = tempDir()
    const config = loadConfig({ ...testEnv, DATA_DIR: dataDir })
    const first = await createDb({ dataDir })
    await runMigrations(first)
    await assert.rejects(createDb({ dataDir }), /in use by process/)
    const app = await buildApp({ config, database: first, logger: false })
    const created = (await app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name: 'Постоянная' } })).json()
    await app.close()
    await first.close()

    const second = await createDb({ dataDir })
    await runMigrations(second)
    const again = await buildApp({ config, database: second, logger: false })
    const got = await again.inject({ url: `/api/shared/groups/${created.id}` })
    assert.deepEqual(got.json(), created)
    await again.close()
    await second.close()
  })
})

describe('backups of the embedded database (npm run cli -- backup FILE | restore FILE)', () => {
  /** the CLI as `npm run cli` runs it; answers its exit code and what it wrote */
  function cli (args: string[], env: Record<string, string>): Promise<{ code: number | null, out: string, err: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env: { ...process.env, ...testEnv, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => { out += d.toString() })
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })))
  }
  const admin = { email: 'root@backup.kz', password: 'Backup-passw0rd-1' }
  async function groupsOf (base: string): Promise<string[]> {
    const { access_token: token } = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })).json() as { access_token: string }
    const groups = await (await fetch(`${base}/api/shared/groups`, { headers: { authorization: `Bearer ${token}` } })).json() as { name: string }[]
    return groups.map((g) => g.name)
  }
  async function addGroup (base: string, name: string): Promise<void> {
    const { access_token: token } = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })).json() as { access_token: string }
    const res = await fetch(`${base}/api/shared/groups`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
    assert.ok(res.ok, await res.text())
  }

  it('a backup taken while the service runs comes back whole after a restore; what was written after it is gone; the replaced database is kept', async () => {
    const dir = tempDir()
    const file = join(tempDir(), 'appeals.tar.gz')
    const env = { DATA_DIR: dir, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }
    const first = startService(env)
    const base = await first.listening
    await addGroup(base, 'До резервной копии')
    const taken = await cli(['backup', file], env)
    assert.equal(taken.code, 0, taken.err)
    assert.match(taken.out, /written to .*appeals\.tar\.gz \(\d+ bytes, from the running service, pid \d+\)/)
    await addGroup(base, 'После резервной копии')
    const refused = await cli(['restore', file], env)
    assert.equal(refused.code, 1)
    assert.match(refused.err, /runs on .*: stop it before a restore/)
    first.child.kill('SIGTERM')
    assert.equal(await first.exited, 0)

    const restored = await cli(['restore', file], env)
    assert.equal(restored.code, 0, restored.err)
    assert.match(restored.out, /restored into .*; the database it replaced is kept in .*pgdata\.replaced-/)
    const second = startService(env)
    const names = await groupsOf(await second.listening)
    assert.ok(names.includes('До резервной копии'), names.join())
    assert.ok(!names.includes('После резервной копии'), 'written after the backup: not in it')
    second.child.kill('SIGTERM')
    assert.equal(await second.exited, 0)

    // with the service stopped the CLI opens the database itself
    const offline = await cli(['backup', `${file}.2`], env)
    assert.equal(offline.code, 0, offline.err)
    assert.match(offline.out, /the service stopped/)
  })

  it('refused, changing nothing: a file that is not a backup, no file named, a PostgreSQL database (pg_dump and pg_restore are its tools)', async () => {
    const dir = tempDir()
    const junk = join(tempDir(), 'junk.tar.gz')
    writeFileSync(junk, 'not a backup at all')
    const env = { DATA_DIR: dir }
    assert.equal((await cli(['migrate'], env)).code, 0)
    const bad = await cli(['restore', junk], env)
    assert.equal(bad.code, 1)
    assert.match(bad.err, /not a gzip'd backup/)
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('pgdata')), ['pgdata'], 'the database is left where it was')
    const none = await cli(['backup'], env)
    assert.equal(none.code, 1)
    assert.match(none.err, /usage: npm run cli -- backup FILE/)
    const postgres = await cli(['backup', junk], { DATABASE_URL: 'postgresql://u:p@127.0.0.1:1/db' })
    assert.equal(postgres.code, 1)
    assert.match(postgres.err, /PostgreSQL database with pg_dump/)
  })
})
