import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/client.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { eventually } from '../helpers/http-target.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('PBX over AMI against a fake Asterisk speaking the real wire format', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let database: Database
  let t: TestApp
  let dir: string
  let admin: Record<string, string>
  let org: { id: number }
  // the reloads asked here, not the applies of the edits (test/modules/pbx-apply.test.ts)
  const amiEnv = (secret = 'ami-secret') => peer.env({ AMI_SECRET: secret, AMI_RELOAD_TIMEOUT: '10s', PBX_CONFIG_DIR: dir, PBX_APPLY: 'off' })

  before(async () => {
    peer = await startAmiPeer()
    dir = mkdtempSync(join(tmpdir(), 'appeals-ami-'))
    database = await createTestDatabase()
    t = await buildTestApp({ database, env: amiEnv() })
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    org = await makeOrganization(database.db, { prefix: '101' })
    for (const extension of ['001', '002']) {
      await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: `Оператор ${extension}`, extension, password: PASSWORD } })
    }
  })
  after(async () => {
    await t.app.close()
    await database.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('status reports version, uptime, last reload and current calls (CoreSettings, CoreStatus)', async () => {
    const res = await t.app.inject({ url: '/api/pbx/status' })
    assert.deepEqual(res.json(), { connected: true, message: 'Asterisk is answering', asterisk_version: '22.10.1', uptime_seconds: 3600, last_reload_seconds: 120, current_calls: 2 })
    // actions on a connection without events; Asterisk's call and agent events on one of their own
    // (as sets: on a loaded machine an action past the AMI_TIMEOUT drops its connection, and the next logs in again)
    const logins = new Set(peer.state.received.filter((a) => a.Action === 'Login').map((a) => a.Events))
    assert.deepEqual([...logins].sort(), ['call,agent,user', 'off'])
  })

  it('reload maps modules to Asterisk commands; output holds Asterisk\'s answer despite interleaved events', async () => {
    const all = (await t.app.inject({ method: 'POST', url: '/api/pbx/reload' })).json()
    assert.deepEqual([all.success, all.outcome], [true, 'reloaded'])
    assert.match(all.output, /> module reload res_pjsip.so\nModule 'res_pjsip.so' reloaded successfully.\n> dialplan reload\nDialplan reloaded.\n> queue reload all\n/)
    peer.state.received.length = 0
    for (const [module, command] of [['pjsip', 'module reload res_pjsip.so'], ['dialplan', 'dialplan reload'], ['queues', 'queue reload all']]) {
      const res = (await t.app.inject({ method: 'POST', url: `/api/pbx/reload?module=${module}` })).json()
      assert.equal(res.success, true, module)
      assert.equal(peer.state.received.at(-1)!.Command, command)
    }
  })

  it('a reload slower than AMI_TIMEOUT (3 s against 2 s) succeeds within AMI_RELOAD_TIMEOUT on a connection of its own; the desks\' actions answer meanwhile', async () => {
    // Asterisk answers one session's actions in turn: a res_pjsip reload of a large PBX holds up its session
    peer.state.delays['module reload res_pjsip.so'] = 3000
    try {
      const reloading = t.app.inject({ method: 'POST', url: '/api/pbx/reload?module=pjsip' })
      await eventually(async () => peer.state.received.some((a) => a.Command === 'module reload res_pjsip.so'), 30_000, 'the reload sent')
      const status = (await t.app.inject({ url: '/api/pbx/status' })).json()
      assert.equal(status.connected, true, 'the status answered on the actions\' connection while the reload runs')
      const pending = await Promise.race([reloading.then(() => 'answered'), Promise.resolve('pending')])
      assert.equal(pending, 'pending', 'the status came before the reload\'s answer')
      const reload = (await reloading).json()
      assert.deepEqual([reload.success, reload.outcome], [true, 'reloaded'], reload.message)
    } finally {
      delete peer.state.delays['module reload res_pjsip.so']
    }
  })

  it('endpoints/status: "No endpoints found" is an empty list; a registered terminal shows contact, agent and round trip', async () => {
    const base = `/api/organizations/${org.id}/endpoints/status`
    const empty = (await t.app.inject({ url: base, headers: admin })).json()
    assert.equal(empty.ami_connected, true)
    assert.deepEqual(empty.endpoints.map((e: { id: string, registered: boolean }) => [e.id, e.registered]), [['101001', false], ['101002', false]])
    peer.state.endpoints = ['101001', '101002', '202001']
    peer.state.contacts = [{ endpoint: '101001', uri: 'sip:101001@127.0.0.1:5070;ob', userAgent: 'PJSUA/v2.17 Linux', status: 'Reachable', roundtripUsec: '1234' },
      { endpoint: '202001', uri: 'sip:202001@10.0.0.9', userAgent: 'other tenant', status: 'Reachable', roundtripUsec: '99' }]
    const res = (await t.app.inject({ url: base, headers: admin })).json()
    assert.deepEqual(res.endpoints.map((e: { id: string }) => e.id), ['101001', '101002'], 'only this tenant\'s terminals')
    const [registered, idle] = res.endpoints
    assert.deepEqual([registered.registered, registered.contact_uri, registered.user_agent, registered.roundtrip_ms, registered.device_state], [true, 'sip:101001@127.0.0.1:5070;ob', 'PJSUA/v2.17 Linux', 1.234, 'Not in use'])
    assert.deepEqual([idle.registered, idle.contact_uri], [false, null])
    assert.equal((await t.app.inject({ url: base })).statusCode, 401)
  })

  it('generate-configs with reload_pbx=true reloads after writing', async () => {
    const res = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?reload_pbx=true' })).json()
    assert.deepEqual([res.success, res.outcome], [true, 'written_reloaded'], JSON.stringify(res))
    assert.match(res.message, /Asterisk reloaded/)
  })

  it('a silent peer: every action times out, the routes answer instead of hanging', async () => {
    peer.state.mode = 'silent'
    const started = Date.now()
    const status = (await t.app.inject({ url: '/api/pbx/status' })).json()
    assert.equal(status.connected, false)
    assert.match(status.message, /no answer within 2000 ms|not answering/)
    assert.ok(Date.now() - started < 15_000, 'answered after the action time-out, not hanging')
    const reload = (await t.app.inject({ method: 'POST', url: '/api/pbx/reload' })).json()
    assert.deepEqual([reload.success, reload.outcome], [false, 'reload_failed'])
    const endpoints = (await t.app.inject({ url: `/api/organizations/${org.id}/endpoints/status`, headers: admin })).json()
    assert.equal(endpoints.ami_connected, false)
    assert.equal(endpoints.endpoints[0].registered, null)
  })

  it('a peer that drops the connection: a clear failure, then a reconnect after the backoff', async () => {
    peer.state.mode = 'drop'
    await new Promise((resolve) => setTimeout(resolve, 1100)) // past any backoff left by the silent test
    const dropped = (await t.app.inject({ method: 'POST', url: '/api/pbx/reload?module=dialplan' })).json()
    assert.equal(dropped.success, false)
    assert.match(dropped.message, /closed the connection|unavailable/)
    peer.state.mode = 'normal'
    const connections = peer.state.connections
    let ok = false
    for (let i = 0; i < 40 && !ok; i++) {
      ok = (await t.app.inject({ method: 'POST', url: '/api/pbx/reload?module=dialplan' })).json().success
      if (!ok) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.ok(ok, 'the client reconnects once the peer answers again')
    assert.ok(peer.state.connections > connections)
  })

  it('a refused login is reported, not retried in a loop', async () => {
    const wrong = await buildTestApp({ database, env: amiEnv('wrong-secret') })
    try {
      const status = (await wrong.app.inject({ url: '/api/pbx/status' })).json()
      assert.equal(status.connected, false)
      assert.match(status.message, /login refused: Authentication failed/)
      // the actions' connection (the event stream has one of its own, with a backoff of its own)
      const actionLogins = () => peer.state.received.filter((a) => a.Action === 'Login' && a.Events === 'off').length
      const before = actionLogins()
      const again = (await wrong.app.inject({ url: '/api/pbx/status' })).json()
      assert.match(again.message, /next attempt in/)
      assert.equal(actionLogins(), before, 'no new connection during the backoff')
    } finally {
      await wrong.app.close()
    }
  })
})
