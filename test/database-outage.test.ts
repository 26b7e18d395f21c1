// A PostgreSQL server that refuses connections or stops answering: requests answer 503 with
// Retry-After, never 500, and none waits forever.
import assert from 'node:assert/strict'
import { createServer, type Server, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createDb, type Database } from '../src/db/client.js'
import { testEnv } from './helpers/app.js'

async function listening (server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

describe('the database is down', () => {
  const sockets = new Set<Socket>()
  // accepts connections and never says a word, as a hung server or a dropped network does
  const silent = createServer((socket) => { sockets.add(socket) })
  // refuses: a port with nothing behind it once this server is closed
  const closedPort = createServer()
  const apps: { app: FastifyInstance, database: Database }[] = []
  let silentUrl: string
  let refusedUrl: string

  before(async () => {
    silentUrl = `postgresql://u:p@127.0.0.1:${await listening(silent)}/db`
    const port = await listening(closedPort)
    await new Promise<void>((resolve) => closedPort.close(() => resolve()))
    refusedUrl = `postgresql://u:p@127.0.0.1:${port}/db`
  })
  after(async () => {
    for (const { app, database } of apps) { await app.close(); await database.close().catch(() => {}) }
    for (const s of sockets) s.destroy()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })

  async function appOn (url: string) {
    const database = await createDb({ databaseUrl: url, poolSize: 2 })
    const app = await buildApp({ config: loadConfig({ ...testEnv, DATABASE_URL: url }), database, logger: false })
    await app.ready()
    apps.push({ app, database })
    return app
  }

  for (const [what, url] of [['refused', () => refusedUrl], ['not answering', () => silentUrl]] as const) {
    it(`connection ${what}: reads and writes answer 503 with Retry-After, /health 503`, async () => {
      const app = await appOn(url())
      for (const request of [{ url: '/api/shared/groups' }, { method: 'POST' as const, url: '/api/shared/groups', payload: { name: 'X' } }]) {
        const started = Date.now()
        const res = await app.inject(request)
        assert.ok(Date.now() - started < 25_000, 'no request waits for the statement time-out (30 s): the connection time-out (5 s) ends it')
        assert.equal(res.statusCode, 503, res.body)
        assert.equal(res.headers['retry-after'], '5')
        assert.match(res.json().detail, /database is unavailable/)
      }
      // transcript chunks written by group commit: the ones waiting behind a failed batch fail with it
      const started = Date.now()
      const chunks = await Promise.all(Array.from({ length: 12 }, (_, n) => app.inject({
        method: 'POST', url: '/api/call-events/transcription', payload: { call_id: `outage-${n % 3}`, operator_num: '101', channel: 'caller', chunk_text: `часть ${n}`, full_text: `часть ${n}` },
      })))
      assert.deepEqual([...new Set(chunks.map((r) => r.statusCode))], [503], chunks[0]!.body)
      assert.ok(Date.now() - started < 20_000, `12 chunks answered in ${Date.now() - started} ms: one connection time-out, not one each (30 s on two connections)`)
      assert.equal((await app.inject({ url: '/health' })).statusCode, 503)
      // not ready: the database, its migrations and the LISTEN connections, each said; nothing of the error's host or port
      const ready = await app.inject({ url: '/ready' })
      assert.equal(ready.statusCode, 503, ready.body)
      const { status, detail, checks } = ready.json()
      assert.equal(status, 'not_ready')
      assert.equal(detail, 'Not ready: database, migrations, listen')
      assert.deepEqual([checks.database.ok, checks.migrations.ok, checks.listen.ok, checks.ami], [false, false, false, null])
      assert.ok(checks.listen.channels.length >= 4 && checks.listen.channels.every((c: { listening: boolean }) => !c.listening))
      assert.doesNotMatch(ready.body, /127\.0\.0\.1|ECONNREFUSED/)
    })
  }
})
