// A PostgreSQL server that refuses connections or stops answering: requests answer 503 with
// Retry-After, never 500, and none waits forever.
import assert from 'node:assert/strict'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createDb, type Database } from '../src/db/client.js'
import pg from 'pg'
import { adminQuery } from '../src/db/admin.js'
import { testEnv } from './helpers/app.js'
import { eventually } from './helpers/http-target.js'
import { createPostgresTestDatabaseUrl } from './helpers/database.js'

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

/** a server that speaks PostgreSQL's protocol only to refuse every session with one error, as a server starting up, crashed or failing does */
function refusingWith (code: string, message: string): Server {
  const cstring = (text: string) => Buffer.from(`${text}\0`)
  return createServer((socket) => {
    socket.once('data', () => {
      const fields = Buffer.concat([cstring('SFATAL'), cstring('VFATAL'), cstring(`C${code}`), cstring(`M${message}`), Buffer.from([0])])
      const header = Buffer.alloc(5)
      header.write('E', 0)
      header.writeInt32BE(fields.length + 4, 1)
      socket.end(Buffer.concat([header, fields]))
    })
    socket.on('error', () => {})
  })
}

describe('the database refuses sessions with a SQLSTATE of its own (on the wire)', () => {
  const servers: Server[] = []
  const apps: { app: FastifyInstance, database: Database }[] = []
  after(async () => {
    for (const { app, database } of apps) { await app.close(); await database.close().catch(() => {}) }
    for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()))
  })
  const refusals: [string, string][] = [
    ['57P03', 'the database system is starting up'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P01', 'terminating connection due to administrator command'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08P01', 'invalid startup packet layout'],
    ['55000', 'database "appeals" is not currently accepting connections'],
  ]
  for (const [code, message] of refusals) {
    it(`${code} (${message}): 503 with Retry-After`, async () => {
      const server = refusingWith(code, message)
      servers.push(server)
      const url = `postgresql://u:p@127.0.0.1:${await listening(server)}/appeals`
      const database = await createDb({ databaseUrl: url, poolSize: 2 })
      const app = await buildApp({ config: loadConfig({ ...testEnv, DATABASE_URL: url }), database, logger: false })
      await app.ready()
      apps.push({ app, database })
      const res = await app.inject({ url: '/api/shared/groups' })
      assert.equal(res.statusCode, 503, res.body)
      assert.equal(res.headers['retry-after'], '5')
      assert.equal(res.json().code, 'database_unavailable')
    })
  }
})

describe('a real PostgreSQL refusing: closed for maintenance, at its connection limit, terminating the sessions', { skip: process.env.TEST_DATABASE_URL ? undefined : 'needs a PostgreSQL server (TEST_DATABASE_URL)' }, () => {
  const serverUrl = process.env.TEST_DATABASE_URL!
  let url: string
  let name: string
  let drop: () => Promise<void>
  let app: FastifyInstance
  let database: Database

  before(async () => {
    ({ url, drop } = await createPostgresTestDatabaseUrl(serverUrl))
    name = new URL(url).pathname.slice(1)
    database = await createDb({ databaseUrl: url, poolSize: 2 })
    app = await buildApp({ config: loadConfig({ ...testEnv, DATABASE_URL: url }), database, logger: false })
    await app.ready()
  })
  after(async () => {
    await adminQuery(serverUrl, `alter database "${name}" allow_connections true connection limit -1`).catch(() => {})
    await app.close()
    await database.close()
    await drop()
  })

  const groupNames = async () => (await app.inject({ url: '/api/shared/groups?limit=1000' })).json().map((g: { name: string }) => g.name) as string[]
  /** the service's own sessions ended, so that its next request opens a new one */
  // client sessions only: an autovacuum worker on the database is the server's, and not ours to end (42501)
  const endSessions = () => adminQuery(serverUrl, `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and backend_type = 'client backend' and pid <> pg_backend_pid()`)
  const refused = async (what: string) => {
    for (const request of [{ url: '/api/shared/groups' }, { method: 'POST' as const, url: '/api/shared/groups', payload: { name: `while ${what}` } }]) {
      const res = await app.inject(request)
      assert.equal(res.statusCode, 503, `${what}: ${res.body}`)
      assert.equal(res.headers['retry-after'], '5')
      assert.equal(res.json().code, 'database_unavailable')
    }
  }

  it('ALLOW_CONNECTIONS false (55000), then CONNECTION LIMIT 0 (53300): 503 with Retry-After, nothing written; served again once reopened', async () => {
    assert.equal((await app.inject({ url: '/api/shared/groups' })).statusCode, 200)
    for (const [setting, what] of [['allow_connections false', 'closed for maintenance'], ['connection limit 0', 'at its connection limit']] as const) {
      await adminQuery(serverUrl, `alter database "${name}" ${setting}`)
      await endSessions()
      await refused(what)
      await adminQuery(serverUrl, `alter database "${name}" allow_connections true connection limit -1`)
      assert.ok(!(await groupNames()).includes(`while ${what}`), `nothing written while ${what}`)
    }
  })

  it('a session terminated while its write waits (57P01): 503, the write not half-done', async () => {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      // the group's insert waits behind this lock; then its session is terminated
      await admin.query('begin')
      await admin.query('lock table organization_groups in access exclusive mode')
      const write = app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name: 'terminated midway' } })
      await eventually(async () => {
        const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = $2 and pid <> pg_backend_pid()', [name, 'Lock'])
        return rows[0].n > 0
      }, 10_000, 'the write waiting for the lock')
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and wait_event_type = $2 and pid <> pg_backend_pid()', [name, 'Lock'])
      const res = await write
      assert.equal(res.statusCode, 503, res.body)
      assert.equal(res.headers['retry-after'], '5')
      await admin.query('rollback')
    } finally { await admin.end() }
    assert.ok(!(await groupNames()).includes('terminated midway'))
  })
})

describe('stopped while a lost connection is being made again (PostgreSQL)', { skip: process.env.TEST_DATABASE_URL ? undefined : 'needs a PostgreSQL server (TEST_DATABASE_URL)' }, () => {
  const serverUrl = process.env.TEST_DATABASE_URL!

  /** a proxy in front of the server that holds new connections while `hold` is set, until released */
  async function holdingProxy (url: string) {
    const target = new URL(url)
    const held: (() => void)[] = []
    const sockets = new Set<Socket>()
    let hold = false
    const proxy = createServer((socket) => {
      sockets.add(socket)
      socket.on('error', () => {})
      const forward = () => {
        const upstream = createConnection(Number(target.port || 5432), target.hostname)
        sockets.add(upstream)
        upstream.on('error', () => socket.destroy())
        socket.on('close', () => upstream.destroy())
        socket.pipe(upstream).pipe(socket)
      }
      if (hold) held.push(forward)
      else forward()
    })
    const proxied = new URL(url)
    proxied.hostname = '127.0.0.1'
    proxied.port = String(await listening(proxy))
    return {
      url: proxied.toString(),
      held: () => held.length,
      setHold: (now: boolean) => { hold = now },
      release: () => { for (const forward of held.splice(0)) forward() },
      close: async () => { for (const s of sockets) s.destroy(); await new Promise<void>((resolve) => proxy.close(() => resolve())) },
    }
  }

  it('the LISTEN and the leadership connections made after the stop are ended at once; the lock won then leads nothing', async () => {
    const { url, drop } = await createPostgresTestDatabaseUrl(serverUrl)
    const name = new URL(url).pathname.slice(1)
    const proxy = await holdingProxy(url)
    const database = await createDb({ databaseUrl: proxy.url, poolSize: 1 })
    const count = async (query: string) => {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      try { return (await client.query<{ n: number }>(query, [name])).rows[0]!.n } finally { await client.end() }
    }
    try {
      const states: boolean[] = []
      const unlisten = await database.listen('stop_race', () => {})
      const unlead = await database.lead(4242, (leading) => states.push(leading))
      await eventually(async () => states.at(-1) === true, 30_000, 'leading')
      // both connections lost; their new ones held in the proxy while the service stops
      proxy.setHold(true)
      await adminQuery(serverUrl, `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and backend_type = 'client backend'`)
      await eventually(async () => proxy.held() >= 2, 30_000, 'the two connections being made again')
      await unlisten()
      await unlead()
      const stoppedAt = states.length
      proxy.release()
      await eventually(async () => await count('select count(*)::int as n from pg_stat_activity where datname = $1 and backend_type = \'client backend\'') === 0, 30_000, 'no session left on the database')
      assert.deepEqual(states.slice(stoppedAt), [], 'nothing began to lead after the stop')
      assert.equal(await count('select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where d.datname = $1 and l.locktype = \'advisory\''), 0)
    } finally {
      await database.close()
      await proxy.close()
      await drop()
    }
  })
})
