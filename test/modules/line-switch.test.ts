import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeWav } from '../../src/lib/audio/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

type Headers = Record<string, string>
const HOUR = 3_600_000

// A line closed at a switch (issue 49): the state in Asterisk's database through the AMI test peer
// (DBPut / DBDel as main/db.c answers them), each switch kept with who did it.
describe('a line closed at a switch (/api/organizations/{tenant_id}/lines/{line_id}/close, /open)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let t: TestApp
  let dir: string
  const clock = manualClock()
  let admin: Headers
  let manager: Headers
  let otherManager: Headers
  let operator: Headers
  let org: { id: number }
  let other: { id: number }
  let line: number
  let otherLine: number
  let prompt: number
  let silent: number

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Headers = manager) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const base = (tenant: number) => `/api/organizations/${tenant}`

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appeals-switch-'))
    peer = await startAmiPeer()
    t = await buildTestApp({ env: { ...peer.env(), PBX_CONFIG_DIR: join(dir, 'conf'), PBX_SOUNDS_DIR: join(dir, 'sounds') }, deps: { clock } })
    const db = t.database.db
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    org = await makeOrganization(db, { prefix: '101', name: 'Контакт-центр 109' })
    other = await makeOrganization(db, { prefix: '202', name: 'Другая' })
    manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
    otherManager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: other.id }))
    operator = await login(t.app, await makeUser(db, { role: 'operator', organization_id: org.id }))
    const made = async (tenant: number, path: string, payload: object) => {
      const res = await call('POST', `${base(tenant)}/${path}`, payload, admin)
      assert.equal(res.statusCode, 201, res.body)
      return res.json().id as number
    }
    prompt = await made(org.id, 'prompts', { name: 'Линия закрыта' })
    silent = await made(org.id, 'prompts', { name: 'Без записи' })
    const wav = makeWav(8000, Int16Array.from({ length: 8000 }, (_, i) => Math.round(6000 * Math.sin(i / 3))))
    const put = await t.app.inject({ method: 'PUT', url: `${base(org.id)}/prompts/${prompt}/recordings/ru`, headers: { ...admin, 'content-type': 'audio/wav' }, payload: wav })
    assert.equal(put.statusCode, 200, put.body)
    line = await made(org.id, 'lines', { number: '109', name: 'Единый номер', destination: { kind: 'hangup' } })
    otherLine = await made(other.id, 'lines', { number: '1414', name: 'Чужая линия', destination: { kind: 'hangup' } })
  })
  after(async () => {
    await t.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('closed now by the organization\'s manager: Asterisk\'s database has the end and the announcement; every line says its state', async () => {
    const until = new Date(clock().getTime() + 2 * HOUR)
    const res = await call('POST', `${base(org.id)}/lines/${line}/close`, { reason: 'Авария на линии', until: until.toISOString(), prompt_id: prompt })
    assert.equal(res.statusCode, 200, res.body)
    const s = res.json()
    assert.deepEqual([s.closed, s.reason, s.until, s.prompt_id, s.number], [true, 'Авария на линии', until.toISOString(), prompt, '109'])
    assert.equal(s.by.name, 'Иванов Иван')
    assert.equal(peer.state.db.get('appeals-closed/109'), `${Math.floor(until.getTime() / 1000)}:appeals/org101/${prompt}`)
    const all = await call('GET', `${base(org.id)}/line-switches`)
    assert.deepEqual(all.json().map((l: { number: string, closed: boolean }) => [l.number, l.closed]), [['109', true]])
    const closed = await call('GET', '/api/line-switches/closed', undefined, admin)
    assert.deepEqual(closed.json().map((l: { number: string }) => l.number), ['109'])
    assert.deepEqual((await call('GET', '/api/line-switches/closed', undefined, otherManager)).json(), [], 'another organization\'s manager sees none of it')
  })

  it('422 on the field, 404 for another organization\'s line, 403 for others; nothing reaches Asterisk', async () => {
    const before = new Map(peer.state.db)
    const cases: [object, string][] = [
      [{ reason: '' }, 'body.reason'],
      [{ reason: 'x', until: new Date(clock().getTime() - 1000).toISOString() }, 'body.until'],
      [{ reason: 'x', until: 'tomorrow' }, 'body.until'],
      [{ reason: 'x', prompt_id: silent }, 'body.prompt_id'],
      [{ reason: 'x', prompt_id: 999999 }, 'body.prompt_id'],
    ]
    for (const [payload, loc] of cases) {
      const res = await call('POST', `${base(org.id)}/lines/${line}/close`, payload)
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
      assert.ok(res.json().detail.some((d: { loc: string[] }) => d.loc.join('.') === loc), `${JSON.stringify(payload)} on ${loc}: ${res.body}`)
    }
    assert.equal((await call('POST', `${base(org.id)}/lines/${otherLine}/close`, { reason: 'x' })).statusCode, 404)
    assert.equal((await call('POST', `${base(org.id)}/lines/${line}/open`, undefined, operator)).statusCode, 403)
    assert.equal((await call('POST', `${base(org.id)}/lines/${line}/open`, undefined, otherManager)).statusCode, 403)
    assert.equal((await call('GET', '/api/line-switches/closed', undefined, operator)).statusCode, 403)
    assert.deepEqual(peer.state.db, before)
  })

  it('its end passed: open by itself, in the service as in the dialplan (which compares the end with ${EPOCH})', async () => {
    clock.advance(3 * HOUR)
    try {
      const [state] = (await call('GET', `${base(org.id)}/line-switches`)).json()
      assert.equal(state.closed, false)
      assert.deepEqual((await call('GET', '/api/line-switches/closed', undefined, admin)).json(), [])
    } finally {
      clock.advance(-3 * HOUR)
    }
  })

  it('until opened again, then opened: the key removed; the history says who did what', async () => {
    const closed = await call('POST', `${base(org.id)}/lines/${line}/close`, { reason: 'Закрыта на время мероприятия' }, admin)
    assert.equal(closed.json().until, null)
    assert.equal(peer.state.db.get('appeals-closed/109'), '4102444800:', 'no end, no announcement')
    const opened = await call('POST', `${base(org.id)}/lines/${line}/open`)
    assert.equal(opened.statusCode, 200, opened.body)
    assert.equal(opened.json().closed, false)
    assert.equal(peer.state.db.has('appeals-closed/109'), false)
    assert.equal((await call('POST', `${base(org.id)}/lines/${line}/open`)).statusCode, 200, 'opening an open line is no error (Asterisk has no key to delete)')
    assert.deepEqual(peer.state.dbWarnings, [], 'no key deleted that Asterisk does not have: it would log a WARNING for each')
    const history = (await call('GET', `${base(org.id)}/lines/${line}/switches`)).json()
    assert.deepEqual(history.map((h: { action: string, reason: string | null }) => [h.action, h.reason]), [['open', null], ['open', null], ['close', 'Закрыта на время мероприятия'], ['close', 'Авария на линии']])
    assert.equal((await call('GET', `${base(org.id)}/lines/${otherLine}/switches`)).statusCode, 404)
  })

  it('a generation that reloads Asterisk puts the switches back into its database (a new Asterisk, a lost database)', async () => {
    await call('POST', `${base(org.id)}/lines/${line}/close`, { reason: 'Авария', prompt_id: prompt })
    peer.state.db.clear()
    peer.state.db.set('appeals-closed/1414', '4102444800:')
    const res = await call('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true', undefined, admin)
    assert.equal(res.json().outcome, 'written_reloaded', res.body)
    assert.equal(peer.state.db.get('appeals-closed/109'), `4102444800:appeals/org101/${prompt}`)
    assert.equal(peer.state.db.has('appeals-closed/1414'), false, 'an open line\'s stale key removed')
    // an edit of a line reloads the dialplan and puts the switches back: only what differs is touched
    const edited = await call('PUT', `${base(org.id)}/lines/${line}`, { name: 'Единый номер 109' }, admin)
    assert.equal(edited.statusCode, 200, edited.body)
    const again = await call('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true', undefined, admin)
    assert.equal(again.json().outcome, 'written_reloaded', again.body)
    assert.deepEqual(peer.state.dbWarnings, [], 'Asterisk\'s log stays clean of the service\'s doing')
  })

  it('a close and an open at once, on two instances, Asterisk\'s answer to the close slow to come back: the line ends as its last switch says, in Asterisk too', async () => {
    const second = await buildTestApp({ database: t.database, env: { ...peer.env(), PBX_CONFIG_DIR: join(dir, 'conf'), PBX_SOUNDS_DIR: join(dir, 'sounds') }, deps: { clock } })
    try {
      assert.equal(peer.state.db.has('appeals-closed/109'), true, 'closed before')
      peer.state.answerLatency.DBPut = 600
      const closing = call('POST', `${base(org.id)}/lines/${line}/close`, { reason: 'Повторно закрыта' })
      await new Promise((resolve) => setTimeout(resolve, 150))
      const opening = second.app.inject({ method: 'POST', url: `${base(org.id)}/lines/${line}/open`, headers: manager })
      assert.deepEqual([(await closing).statusCode, (await opening).statusCode], [200, 200])
      const [latest] = (await call('GET', `${base(org.id)}/lines/${line}/switches`)).json()
      assert.equal(peer.state.db.has('appeals-closed/109'), latest.action === 'close', `the last switch (${latest.action}) is what Asterisk does`)
    } finally {
      peer.state.answerLatency = {}
      await second.app.close()
    }
    await call('POST', `${base(org.id)}/lines/${line}/close`, { reason: 'Авария', prompt_id: prompt })
  })

  it('Asterisk not answering: 503, and the switch is not recorded either', async () => {
    const count = (await call('GET', `${base(org.id)}/lines/${line}/switches`)).json().length
    peer.state.mode = 'silent'
    try {
      const res = await call('POST', `${base(org.id)}/lines/${line}/open`)
      assert.equal(res.statusCode, 503)
      assert.match(res.json().detail, /^Asterisk did not take the change/)
    } finally {
      peer.state.mode = 'normal'
    }
    assert.equal((await call('GET', `${base(org.id)}/lines/${line}/switches`)).json().length, count)
    assert.equal((await call('GET', `${base(org.id)}/line-switches`)).json()[0].closed, true)
  })
})

describe('a line switch without AMI', () => {
  it('503 that says AMI is not configured; nothing recorded', async () => {
    const t = await buildTestApp()
    try {
      const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      const org = await makeOrganization(t.database.db, { prefix: '303' })
      const line = (await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/lines`, headers: admin, payload: { number: '3030', name: 'Линия', destination: { kind: 'hangup' } } })).json().id
      const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/lines/${line}/close`, headers: admin, payload: { reason: 'Авария' } })
      assert.equal(res.statusCode, 503)
      assert.match(res.json().detail, /not configured/)
      assert.equal(res.json().code, 'pbx_not_configured', 'the console says the PBX is not connected, not "try later" (test/console/refusals.test.ts)')
      assert.deepEqual((await t.app.inject({ url: `/api/organizations/${org.id}/lines/${line}/switches`, headers: admin })).json(), [])
    } finally {
      await t.close()
    }
  })
})
