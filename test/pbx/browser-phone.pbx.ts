// The browser phone on a real Asterisk 22.10.1 (`npm run test:pbx`, DESIGN 11): a terminal made a
// browser phone through the API registers over Asterisk's WebSocket with the key its employee's
// session is given, through JsSIP (the console's SIP library); the key renewed at sign-out is void
// once the configuration has applied itself, and the new one registers.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import JsSIP from 'jssip'
import { WebSocket } from 'ws'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { pbxTools, startAsterisk, type Asterisk } from './asterisk.js'

const tools = pbxTools()
const AMI = { username: 'appeals', secret: 'appeals-ami-secret' }
type Headers = Record<string, string>
interface MyPhones { websocket_url: string, phones: { terminal_id: string, sip_uri: string, realm: string, ha1: string }[] }

/** JsSIP as the console runs it, in Node: its WebSocket is the `ws` package's */
function registration (websocketUrl: string, phone: MyPhones['phones'][number]): Promise<{ registered: boolean, cause?: string, ua: JsSIP.UA }> {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket
  const ua = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(websocketUrl)], uri: phone.sip_uri, authorization_user: phone.terminal_id, realm: phone.realm, ha1: phone.ha1,
    register: true, connection_recovery_min_interval: 60, user_agent: 'appeals-test',
  })
  return new Promise((resolve) => {
    ua.on('registered', () => resolve({ registered: true, ua }))
    ua.on('registrationFailed', (e) => { ua.stop(); resolve({ registered: false, cause: String(e.cause), ua }) })
    ua.start()
  })
}

describe('the browser phone on a real Asterisk 22: registered over its WebSocket with the key of the employee\'s session', { skip: 'missing' in tools ? `no Asterisk to test against: set ${tools.missing}` : undefined }, () => {
  const { asteriskDir } = tools as { asteriskDir: string }
  const amiPort = 16_038 + (process.pid % 1000)
  const httpPort = 19_088 + (process.pid % 1000)
  let dir: string
  let t: TestApp
  let asterisk: Asterisk
  let admin: Headers
  let operator: Headers
  let orgId: number
  const agents: JsSIP.UA[] = []

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Headers = admin, payload?: object) => {
    const res = await t.app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${res.body}`)
    return res.body === '' ? undefined : res.json()
  }
  const mine = async () => await api('GET', '/api/agents/me/phones', operator) as MyPhones
  const register = async (phones: MyPhones) => {
    const result = await registration(phones.websocket_url, phones.phones[0]!)
    agents.push(result.ua)
    return result
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appeals-pbx-browser-'))
    const generated = join(dir, 'generated')
    mkdirSync(generated)
    const database = await createTestDatabase()
    t = await buildTestApp({
      database,
      env: {
        AMI_HOST: '127.0.0.1', AMI_PORT: String(amiPort), AMI_USERNAME: AMI.username, AMI_SECRET: AMI.secret, AMI_TIMEOUT: '10s',
        PBX_CONFIG_DIR: generated, PBX_ASTERISK_LOG: join(dir, 'asterisk', 'log', 'messages.log'), PBX_SOUNDS_DIR: join(dir, 'asterisk', 'var', 'sounds'),
        PBX_WEBSOCKET_URL: `ws://127.0.0.1:${httpPort}/ws`,
      },
    })
    const org = await makeOrganization(database.db, { prefix: '404', name: 'Контакт-центр (браузер)' })
    orgId = org.id
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    const user = await makeUser(database.db, { role: 'operator', organization_id: org.id })
    operator = await login(t.app, user)
    await api('POST', `/api/organizations/${org.id}/endpoints/`, admin, { name: 'Оператор в браузере', extension: '001', password: 'Abcdefghij0123456789', employee_id: user.id, phone: 'browser' })
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true')
    assert.equal(generation.success, true, JSON.stringify(generation.errors))
    asterisk = await startAsterisk({ asteriskDir, generatedDir: generated, dir: join(dir, 'asterisk'), amiPort, httpPort, ami: AMI })
  })

  after(async () => {
    for (const ua of agents) ua.stop()
    await asterisk?.stop()
    await t?.close()
    if (!process.env.PBX_KEEP) rmSync(dir, { recursive: true, force: true })
  })

  it('registers with the key its employee is given; the SIP password does not register it; Asterisk and the service see the contact over the WebSocket', async () => {
    const phones = await mine()
    const first = await register(phones)
    assert.equal(first.registered, true, first.cause)
    const contacts = await asterisk.cli('pjsip show contacts')
    assert.match(contacts, /404001\/sip:\S+@127\.0\.0\.1:\d+;transport=\S* +\S+ +Avail/, contacts)
    const status = await api('GET', `/api/organizations/${orgId}/endpoints/status`)
    assert.equal(status.endpoints[0].registered, true, JSON.stringify(status))
    assert.match(status.endpoints[0].user_agent, /appeals-test/)
    first.ua.unregister({ all: true })
    first.ua.stop()
    // a desk phone's way in, the SIP password's digest, is not a browser phone's
    const password = await register({ ...phones, phones: [{ ...phones.phones[0]!, ha1: createHash('md5').update('404001:asterisk:Abcdefghij0123456789').digest('hex') }] })
    assert.equal(password.registered, false)
  })

  it('signed out: the key given before is refused once the configuration has applied itself, the new one registers', async () => {
    const before = await mine()
    await api('DELETE', '/api/agents/me/phones', operator)
    const renewed = await mine()
    assert.notEqual(renewed.phones[0]!.ha1, before.phones[0]!.ha1)
    await eventually(async () => {
      const old = await register(before)
      old.ua.stop()
      return !old.registered
    }, 60_000, 'the old key refused by Asterisk')
    const now = await register(renewed)
    assert.equal(now.registered, true, now.cause)
    now.ua.stop()
  })
})
