import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { shippedMigrations } from '../src/db/migrate.js'
import { buildTestApp, type TestApp } from './helpers/app.js'
import { startAmiPeer } from './helpers/ami-peer.js'

// GET /ready, beyond the interface's /health: what a load balancer or an orchestrator asks before
// sending work to an instance.
describe('readiness (GET /ready)', () => {
  let t: TestApp
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  const dir = mkdtempSync(join(tmpdir(), 'appeals-ready-'))
  const ready = async (app = t) => {
    const res = await app.app.inject({ url: '/ready' })
    return { code: res.statusCode, body: res.json() }
  }

  before(async () => {
    peer = await startAmiPeer()
    t = await buildTestApp({ env: { ...peer.env({ AMI_TIMEOUT: '1500ms' }), PBX_CONFIG_DIR: dir } })
  })
  after(async () => {
    await t.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('ready: the database answers, every migration applied, every channel heard, Asterisk answers; no token needed', async () => {
    const { code, body } = await ready()
    assert.equal(code, 200, JSON.stringify(body))
    assert.equal(body.status, 'ready')
    assert.equal(body.detail, undefined)
    assert.deepEqual(body.checks.database, { ok: true, detail: null })
    assert.deepEqual(body.checks.migrations, { ok: true, detail: null, applied: shippedMigrations(), expected: shippedMigrations() })
    assert.deepEqual(body.checks.listen.channels.map((c: { channel: string }) => c.channel).sort(), ['calendar_changed', 'call_events', 'pbx_changed', 'principal_changed', 'reference_changed'])
    assert.ok(body.checks.listen.ok)
    assert.deepEqual(body.checks.ami, { ok: true, detail: null })
  })

  it('a migration not applied: 503 naming it, and ready again once it is', async () => {
    const [last] = await t.database.query<Record<string, unknown>>('select * from drizzle.__drizzle_migrations order by id desc limit 1')
    await t.database.query('delete from drizzle.__drizzle_migrations where id = $1', [last!.id])
    try {
      const { code, body } = await ready()
      assert.equal(code, 503)
      assert.equal(body.status, 'not_ready')
      assert.equal(body.detail, 'Not ready: migrations')
      assert.deepEqual(body.checks.migrations, { ok: false, detail: '1 not applied', applied: shippedMigrations() - 1, expected: shippedMigrations() })
    } finally {
      await t.database.query('insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)', [last!.id, last!.hash, last!.created_at])
    }
    assert.equal((await ready()).code, 200)
  })

  it('Asterisk not answering: 503 naming AMI; ready again when it answers', async () => {
    peer.state.mode = 'silent'
    try {
      const { code, body } = await ready()
      assert.equal(code, 503)
      assert.equal(body.detail, 'Not ready: ami')
      assert.equal(body.checks.ami.ok, false)
      assert.ok(body.checks.database.ok && body.checks.migrations.ok && body.checks.listen.ok)
      assert.doesNotMatch(JSON.stringify(body), /127\.0\.0\.1|5038|ami-secret/)
    } finally { peer.state.mode = 'normal' }
    // the client reconnects with its backoff: ready within a generous bound
    const deadline = Date.now() + 60_000
    while ((await ready()).code !== 200) {
      assert.ok(Date.now() < deadline, 'ready again once Asterisk answers')
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  })

  it('without AMI configured the check is absent, not failed', async () => {
    const plain = await buildTestApp()
    try {
      const { code, body } = await ready(plain)
      assert.equal(code, 200)
      assert.equal(body.checks.ami, null)
    } finally { await plain.close() }
  })
})
