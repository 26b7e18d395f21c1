// A terminal's phone in the browser (DESIGN 11): its key reaches only its employee's own session,
// changes with its hands and at sign-out, and the generated pjsip.conf lets only that key register it.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { parseConf } from '../helpers/asterisk-config.js'

const PASSWORD = 'Abcdefghij0123456789'
const WS = 'wss://pbx.centre.kz:8089/ws'

describe('the browser phone: a terminal\'s key for its employee\'s console (/api/agents/me/phones)', () => {
  let t: TestApp
  let admin: Record<string, string>
  let org: { id: number, prefix: string }
  let operator: { id: number, headers: Record<string, string> }
  let colleague: { id: number, headers: Record<string, string> }
  let manager: Record<string, string>

  before(async () => {
    t = await buildTestApp({ env: { PBX_WEBSOCKET_URL: WS } })
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    org = await makeOrganization(t.database.db, { prefix: '505' })
    const person = async (role: 'operator' | 'manager') => {
      const user = await makeUser(t.database.db, { role, organization_id: org.id })
      return { id: user.id, headers: await login(t.app, user) }
    }
    operator = await person('operator')
    colleague = await person('operator')
    manager = (await person('manager')).headers
  })
  after(() => t.close())

  const base = () => `/api/organizations/${org.id}/endpoints`
  const create = (payload: object) => t.app.inject({ method: 'POST', url: `${base()}/`, headers: admin, payload: { password: PASSWORD, ...payload } })
  const update = (id: string, payload: object, headers = admin) => t.app.inject({ method: 'PUT', url: `${base()}/${id}`, headers, payload })
  const mine = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ url: '/api/agents/me/phones', headers })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['cache-control'], 'no-store', 'a key is never kept by a cache')
    return res.json() as { websocket_url: string | null, phones: { terminal_id: string, extension: string, sip_uri: string, realm: string, ha1: string }[] }
  }
  const sip = async () => parseConf((await t.app.inject({ url: '/api/pbx/preview/sip', headers: admin })).json().content as string)

  it('a terminal is a desk phone unless it says browser; anything else is 422 on the field', async () => {
    const desk = await create({ name: 'Стол', extension: '001' })
    assert.equal(desk.statusCode, 201, desk.body)
    assert.equal(desk.json().phone, 'desk')
    for (const phone of ['both', 'webrtc', '', null, 1]) {
      const res = await create({ name: 'Браузер', extension: '002', phone })
      assert.equal(res.statusCode, 422, `${JSON.stringify(phone)}: ${res.body}`)
      assert.deepEqual(res.json().detail.map((d: { loc: string[] }) => d.loc), [['body', 'phone']])
    }
    const browser = await create({ name: 'Браузер', extension: '002', phone: 'browser', employee_id: operator.id })
    assert.equal(browser.statusCode, 201, browser.body)
    assert.equal(browser.json().phone, 'browser')
  })

  it('the employee gets the key, the WebSocket and the address; nobody else does, and no other answer holds it', async () => {
    const own = await mine(operator.headers)
    assert.equal(own.websocket_url, WS)
    assert.equal(own.phones.length, 1)
    const [phone] = own.phones
    assert.deepEqual({ ...phone, ha1: undefined }, { terminal_id: '505002', extension: '002', name: 'Браузер', sip_uri: 'sip:505002@pbx.centre.kz', realm: 'asterisk', ha1: undefined })
    assert.match(phone!.ha1, /^[0-9a-f]{32}$/)
    assert.notEqual(phone!.ha1, createHash('md5').update(`505002:asterisk:${PASSWORD}`).digest('hex'), 'not the SIP password\'s digest')
    // a colleague, the organization's manager, the administrator: no phone of theirs, and not this one
    for (const headers of [colleague.headers, manager, admin]) assert.deepEqual((await mine(headers)).phones, [])
    // the terminal's own answers, its list and the PBX preview never hold the key
    for (const url of [`${base()}/505002`, `${base()}/`, '/api/pbx/preview/sip']) {
      const res = await t.app.inject({ url, headers: admin })
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      assert.ok(!res.body.includes(phone!.ha1), `${url} holds the key`)
    }
    assert.equal((await t.app.inject({ url: '/api/agents/me/phones' })).statusCode, 401, 'a session only')
  })

  it('pjsip.conf: the browser terminal is WebRTC over the WebSocket transport, checked against its key alone; the desk phone as before', async () => {
    const conf = await sip()
    const of = (name: string, type: string) => conf.find((s) => s.name === name && s.options.some(([k, v]) => k === 'type' && v === type))!.options
    const values = (options: [string, string][], key: string) => options.filter(([k]) => k === key).map(([, v]) => v)
    const endpoint = of('505002', 'endpoint')
    assert.deepEqual(values(endpoint, 'webrtc'), ['yes'])
    assert.deepEqual(values(endpoint, 'dtls_auto_generate_cert'), ['yes'])
    assert.deepEqual(values(endpoint, 'transport'), [], 'its WebSocket connection is its transport')
    assert.deepEqual(values(of('505002', 'auth'), 'password_digest'), [`MD5:${'*'.repeat(32)}`], 'its key alone, masked in the preview')
    assert.deepEqual(values(of('505002', 'aor'), 'qualify_frequency'), ['30'])
    assert.deepEqual(values(of('505001', 'endpoint'), 'transport'), ['transport-udp'])
    assert.deepEqual(values(of('505001', 'endpoint'), 'webrtc'), [])
    assert.equal(values(of('505001', 'auth'), 'password_digest').length, 2, 'MD5 and SHA-256 of the SIP password')
    // PBX_WEBSOCKET_URL is wss: the WebSocket transport is the TLS one
    assert.deepEqual(values(of('transport-wss', 'transport'), 'protocol'), ['wss'])
  })

  it('the key changes with the terminal\'s hands, and goes with the browser', async () => {
    const before = (await mine(operator.headers)).phones[0]!.ha1
    const renamed = await update('505002', { name: 'Браузер 2' })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.equal((await mine(operator.headers)).phones[0]!.ha1, before, 'a rename keeps the key')
    assert.equal((await update('505002', { employee_id: colleague.id })).statusCode, 200)
    assert.deepEqual((await mine(operator.headers)).phones, [], 'the old hands have nothing')
    const theirs = (await mine(colleague.headers)).phones[0]!.ha1
    assert.notEqual(theirs, before, 'the new hands a new key')
    assert.equal((await update('505002', { phone: 'desk' })).statusCode, 200)
    assert.deepEqual((await mine(colleague.headers)).phones, [], 'a desk phone has no key')
    assert.equal((await update('505002', { phone: 'browser' })).statusCode, 200)
    assert.notEqual((await mine(colleague.headers)).phones[0]!.ha1, theirs, 'a browser phone again: a new key')
  })

  it('sign-out renews the keys of the employee\'s browser phones and no one else\'s', async () => {
    assert.equal((await create({ name: 'Браузер 3', extension: '003', phone: 'browser', employee_id: operator.id })).statusCode, 201)
    const others = (await mine(colleague.headers)).phones[0]!.ha1
    const before = (await mine(operator.headers)).phones[0]!.ha1
    const res = await t.app.inject({ method: 'DELETE', url: '/api/agents/me/phones', headers: operator.headers })
    assert.equal(res.statusCode, 204, res.body)
    const after = (await mine(operator.headers)).phones[0]!.ha1
    assert.match(after, /^[0-9a-f]{32}$/)
    assert.notEqual(after, before)
    assert.equal((await mine(colleague.headers)).phones[0]!.ha1, others)
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/agents/me/phones' })).statusCode, 401)
    // a manager signing out with no browser phone: nothing to renew, still 204
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/agents/me/phones', headers: manager })).statusCode, 204)
  })

  it('without PBX_WEBSOCKET_URL the phones are listed and the console says the service has no WebSocket', async () => {
    const bare = await buildTestApp({ database: t.database })
    try {
      const res = await bare.app.inject({ url: '/api/agents/me/phones', headers: operator.headers })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().websocket_url, null)
      assert.equal(res.json().phones.length, 1)
      const page = await bare.app.inject({ url: '/console/' })
      assert.match(String(page.headers['content-security-policy']), /connect-src 'self';/, 'nothing but the service')
    } finally { await bare.app.close() }
  })

  it('the console\'s pages may connect to Asterisk\'s WebSocket and nowhere else', async () => {
    const page = await t.app.inject({ url: '/console/desk' })
    assert.equal(page.statusCode, 200, 'the console is built before the tests (scripts/ensure-deps.mjs)')
    assert.match(String(page.headers['content-security-policy']), /connect-src 'self' wss:\/\/pbx\.centre\.kz:8089;/)
  })
})
