import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { describe, it } from 'node:test'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createDb } from '../src/db/client.js'
import { runMigrations } from '../src/db/migrate.js'
import { testEnv } from './helpers/app.js'
import { nodeArgs } from './helpers/runnable.js'
import { cli, startService, tempDir } from './helpers/service-process.js'

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

  it('LOG_FORMAT=readable (a terminal\'s): lines a person reads, the first sign-in said last with its address, account and password', async () => {
    const service = startService({ DATA_DIR: tempDir(), LOG_FORMAT: 'readable', PUBLIC_URL: 'http://centre.example:8000' })
    await service.listening
    service.child.kill('SIGTERM')
    assert.equal(await service.exited, 0)
    const lines = service.output().stdout.trim().split('\n')
    assert.deepEqual(lines.filter((l) => l.startsWith('{')), [], 'no JSON line')
    assert.ok(lines.every((l) => /^\d\d:\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /.test(l) || /^\s+at /.test(l) || /^\w*Error/.test(l)), lines.join('\n'))
    const started = lines.findIndex((l) => / service started /.test(l))
    const signIn = lines.findIndex((l) => /WARN {2}sign in at http:\/\/centre\.example:8000\/console\/ as admin@localhost with the password \S{12,} /.test(l))
    assert.ok(started >= 0 && signIn > started, `the sign-in line after the start's:\n${lines.join('\n')}`)
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
    const readiness = await opened()
    const readinessText = answered(readiness)
    // 150 connections accepted by the kernel, each with its request sent, then the stop
    const sockets = await Promise.all(Array.from({ length: 150 }, opened))
    const texts = sockets.map(answered)
    for (const socket of sockets) socket.write(request('/api/shared/regions'))
    service.child.kill('SIGTERM')
    // the kept connection's second request once the stop has begun: its answer must end the connection
    while (!service.output().stdout.includes('"stopping"')) await new Promise((resolve) => setTimeout(resolve, 5))
    kept.write(request('/health'))
    // a balancer asking then is told to take the instance out
    readiness.write(request('/ready'))
    const ready = await readinessText
    assert.match(ready, /^HTTP\/1\.1 503/, ready.slice(0, 200))
    assert.match(ready, /"detail":"Not ready: stopping"/)
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

  it('npm run cli -- create-admin creates an administrator who can log in; data-protection grants the audit to an employee', async () => {
    const dataDir = tempDir()
    const child = spawn(process.execPath, [...nodeArgs('src/cli.ts'), 'create-admin', '--email', 'Ops@Akimat.kz'], {
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

    // the audit of personal data is granted here, on the server, to an existing employee
    const granted = await cli(['data-protection', '--email', 'ops@akimat.kz'], { DATA_DIR: dataDir })
    assert.equal(granted.code, 0, granted.err)
    assert.match(granted.out, /ops@akimat\.kz reads the audit of personal data/)
    const unknown = await cli(['data-protection', '--email', 'nobody@akimat.kz'], { DATA_DIR: dataDir })
    assert.notEqual(unknown.code, 0)
    assert.match(unknown.err, /no active employee nobody@akimat\.kz/)
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
