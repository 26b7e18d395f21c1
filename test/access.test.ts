import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { requirementText } from '../src/lib/access-table.js'
import { requirementOf, type AccessContext, type MarkedRoute, type Requirement } from '../src/lib/auth.js'
import type { Role } from '../src/db/schema/users.js'
import { ACCESS_PAGE, withAccessTable } from '../scripts/write-access-table.js'
import { buildTestApp, type TestApp } from './helpers/app.js'
import { createTestDatabase } from './helpers/database.js'
import { login, makeOrganization, makeTerminal, makeUser } from './helpers/factories.js'
import { activatedEmployee, ADMIN, apiToken, serviceApi, startServiceAsReadme } from './helpers/console.js'
import { startSmtpServer } from './helpers/smtp.js'

/** a password digest with its value, as pjsip.conf carries it; a masked one is stars */
const DIGEST_LINE = /password_digest\s*=\s*(?:MD5|SHA-256):[0-9a-f]{8}|md5_cred\s*=\s*[0-9a-f]{8}/i
const PBX_WIDE = [['GET', '/api/pbx/status'], ['GET', '/api/pbx/preview/sip'], ['GET', '/api/pbx/preview/queues'], ['GET', '/api/pbx/preview/extensions'], ['POST', '/api/pbx/generate-configs?save_to_disk=false'], ['POST', '/api/pbx/reload']] as const

/** routes whose answer is a stream that stays open: only their refusals are tried */
const STREAMS = new Set(['/api/call-events/stream', '/api/call-events/ws'])

const ADMIN_ONLY = 'admin'
const TENANT_STAFF = (param: string) => `admin, manager of \`:${param}\``
const SUPERVISORS = 'admin, manager'
const OPERATOR = 'user token'

/**
 * The policy of DESIGN.md section 4, written apart from the routes' marks: what each write should
 * ask in strict mode. A write this does not know fails the test until someone decides its role.
 */
function leastRoleOfWrite (method: string, url: string): string {
  const tenant = /^\/api\/organizations\/:(tenant_id|organization_id)\/(endpoints|lines|menus|queues|schedules|prompts|outbound-routes|notifications)/.exec(url)
  if (tenant) return TENANT_STAFF(tenant[1]!)
  if (/^\/api\/(shared\/)?(organizations|groups|regions)(\/|$)/.test(url)) return ADMIN_ONLY
  if (/^\/api\/(classifiers|trunks|pbx)(\/|$)/.test(url)) return ADMIN_ONLY
  if (/^\/api\/references\/(sources|response-methods|kazakh-names)\//.test(url)) return ADMIN_ONLY
  if (/^\/api\/(appeals\/calendar|appeals\/notifications|agents\/break-reasons)(\/|$)/.test(url)) return ADMIN_ONLY
  if (/^\/api\/(employees(\/|$)|(shared\/)?auth\/send-invite\/|calls\/spy$|line-calls\/:linkedid\/review$)/.test(url)) return SUPERVISORS
  if (/^\/api\/(shared\/)?auth\/(login|forgot-password|reset-password|invite\/activate)$/.test(url)) return 'open'
  if (/^\/api\/call-events\/(answered|transcription)$/.test(url)) return 'admin'
  if (url.startsWith('/platform/')) return 'platform admin'
  // the centre's work: appeals and their actions, citizens' records, its own profile, availability and calls, the language model
  if (/^\/api\/(appeals|references\/persons|(shared\/)?auth\/(change-password|profile)$|agents\/me(\/phones)?$|calls(\/transfer(\/complete|\/cancel|\/conference)?)?$|llm\/)/.test(url)) return OPERATOR
  return `unknown: decide ${method} ${url}`
}

interface Persona { name: string, headers: Record<string, string>, role?: Role, platform?: boolean, organization?: 'A' | 'B' }

/**
 * What the gate does to a persona under a requirement: refuse with 401 or 403 (and its code), let it
 * through, or leave it to the route (a token the route judges itself: without one, 401).
 */
function expected (required: Requirement, persona: Persona): { status: 401 } | { status: 403, code: string } | 'through' | 'the route' {
  switch (required.kind) {
    case 'open': return 'through'
    case 'own_token': return persona.role === undefined ? { status: 401 } : 'the route'
    case 'service':
      return persona.role !== undefined && required.platformAdmins && persona.platform ? 'through' : { status: 401 }
    case 'user':
      if (persona.role === undefined) return { status: 401 }
      if (required.platform && !persona.platform) return { status: 403, code: 'platform_administrators_only' }
      if (required.admits !== true && !required.admits.includes(persona.role)) {
        return { status: 403, code: required.admits.length === 1 && required.admits[0] === 'admin' ? 'administrators_only' : 'role_not_allowed' }
      }
      // the probes name organization A
      if (required.organization !== undefined && persona.role !== 'admin' && persona.organization !== 'A') return { status: 403, code: 'own_organization_only' }
      return 'through'
  }
}

/** the gate's own refusals; a service's (another organization's data, a role inside a route) carry other codes */
const GATE_CODES = new Set(['administrators_only', 'platform_administrators_only', 'role_not_allowed', 'own_organization_only'])

describe('access: every route, in both modes, as the routes\' marks say (docs/access.md)', () => {
  let strict: TestApp
  let open: FastifyInstance
  let personas: Persona[]
  let orgA: number
  const pbxDir = mkdtempSync(join(tmpdir(), 'access-pbx-'))

  before(async () => {
    const database = await createTestDatabase()
    const env = { PBX_CONFIG_DIR: pbxDir }
    strict = await buildTestApp({ database, env: { ...env, AUTH_MODE: 'strict' } })
    open = (await buildTestApp({ database, env: { ...env, AUTH_MODE: 'interface' } })).app
    const db = database.db
    const admin = await makeUser(db, { role: 'admin' })
    const adminHeaders = await login(strict.app, admin)
    orgA = (await makeOrganization(db, { prefix: '101' })).id
    const orgB = (await makeOrganization(db, { prefix: '202' })).id
    await makeTerminal(strict.app, adminHeaders, orgA, '001')
    await makeTerminal(strict.app, adminHeaders, orgB, '001')
    personas = [
      { name: 'anonymous', headers: {} },
      { name: 'operator', headers: await login(strict.app, await makeUser(db, { role: 'operator', organization_id: orgA })), role: 'operator', organization: 'A' },
      { name: 'manager of another organization', headers: await login(strict.app, await makeUser(db, { role: 'manager', organization_id: orgB })), role: 'manager', organization: 'B' },
      { name: 'manager', headers: await login(strict.app, await makeUser(db, { role: 'manager', organization_id: orgA })), role: 'manager', organization: 'A' },
      { name: 'admin', headers: adminHeaders, role: 'admin', platform: true },
    ]
  })
  after(async () => {
    await open.close()
    await strict.close()
    rmSync(pbxDir, { recursive: true, force: true })
  })

  it('the table of docs/access.md is the routes\' marks as they are now (npm run docs:access writes it)', () => {
    const page = readFileSync(ACCESS_PAGE, 'utf8')
    assert.equal(page, withAccessTable(page, strict.app), `${ACCESS_PAGE} is stale: run npm run docs:access`)
  })

  it('strict: every write has the least role that needs it (the structure an administrator\'s, an organization\'s telephony its manager\'s, the centre\'s work an operator\'s)', () => {
    const context: AccessContext = { authMode: 'strict', serviceToken: false }
    const wrong: string[] = []
    const writes = strict.app.markedRoutes().filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
    for (const route of writes) {
      const want = leastRoleOfWrite(route.method, route.url)
      const got = requirementText(requirementOf(route.marks, route.method, context))
      if (want !== got) wrong.push(`${route.method} ${route.url}: ${got}, should be ${want}`)
    }
    assert.deepEqual(wrong, [])
    assert.ok(writes.length > 120, `${writes.length} writes`)
  })

  /** a request a route's gate can judge: its parameters filled in (an organization's: one that exists), an empty JSON body */
  function probe (route: MarkedRoute): { method: InjectOptions['method'], url: string, payload?: object } {
    const url = route.url.replace(/:(\w+)/g, (_, name: string) => {
      if (/organization|tenant_id|org_id/.test(name)) return name === 'tenant_id' && route.url.startsWith('/platform') ? 'no-such-tenant' : String(orgA)
      if (name === 'day') return '2031-01-02'
      if (name === 'token') return 'no-such-token'
      return '999999'
    }).replace(/\*$/, 'anything')
    return { method: route.method as InjectOptions['method'], url, ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}) }
  }

  function judge (res: LightMyRequestResponse, want: ReturnType<typeof expected>, what: string): void {
    assert.doesNotMatch(res.body, DIGEST_LINE, `${what}: an answer with a password digest`)
    if (want === 'the route') return
    if (want === 'through') {
      const refusedByGate = res.statusCode === 401 || (res.statusCode === 403 && GATE_CODES.has(res.json().code))
      assert.ok(!refusedByGate, `${what}: refused (${res.statusCode} ${res.body.slice(0, 200)}) where the table lets it through`)
      assert.ok(res.statusCode < 500 || res.statusCode === 503, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`)
      return
    }
    assert.equal(res.statusCode, want.status, `${what}: ${res.statusCode} ${res.body.slice(0, 200)}`)
    if (want.status === 403) assert.equal(res.json().code, want.code, what)
    if (want.status === 401) assert.equal(res.headers['www-authenticate'], 'Bearer', what)
  }

  for (const authMode of ['strict', 'interface'] as const) {
    it(`${authMode}: every route answers each persona as its row says, and no answer carries a digest`, async () => {
      const app = authMode === 'strict' ? strict.app : open
      const context: AccessContext = { authMode, serviceToken: false }
      let tried = 0
      for (const route of app.markedRoutes().filter((r) => !r.staticFile && r.method !== 'OPTIONS')) {
        const required = requirementOf(route.marks, route.method, context)
        for (const persona of personas) {
          const want = expected(required, persona)
          if (typeof want === 'string' && STREAMS.has(route.url)) continue // a stream let through stays open
          const request = probe(route)
          const res = await app.inject({ ...request, headers: persona.headers })
          judge(res, want, `${authMode} ${request.method} ${request.url} as ${persona.name}`)
          tried++
        }
      }
      assert.ok(tried > 600, `${tried} requests tried`)
    })
  }

  it('with SERVICE_TOKEN: machine routes take only it (the platform control a platform admin\'s token too), in both modes', async () => {
    const serviceToken = 'service-token-0123456789abcdef'
    for (const authMode of ['strict', 'interface'] as const) {
      const t = await buildTestApp({ env: { AUTH_MODE: authMode, SERVICE_TOKEN: serviceToken } })
      try {
        const admin = { name: 'admin', headers: await login(t.app, await makeUser(t.database.db, { role: 'admin' })), role: 'admin' as const, platform: true }
        const machine = { name: 'the service token', headers: { authorization: `Bearer ${serviceToken}` }, role: 'operator' as const, platform: false }
        for (const route of t.app.markedRoutes().filter((r) => r.marks.machine)) {
          const required = requirementOf(route.marks, route.method, { authMode, serviceToken: true })
          for (const persona of [{ name: 'anonymous', headers: {} }, admin]) {
            judge(await t.app.inject({ ...probe(route), headers: persona.headers }), expected(required, persona), `${authMode} ${route.method} ${route.url} as ${persona.name}`)
          }
          const res = await t.app.inject({ ...probe(route), headers: machine.headers })
          assert.notEqual(res.statusCode, 401, `${route.url} with the service token`)
        }
        // the service token is a machine credential, never a user's: an unmarked write in strict mode refuses it
        const write = await t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name: 'Машина' }, headers: machine.headers })
        assert.equal(write.statusCode, authMode === 'strict' ? 401 : 200)
      } finally { await t.close() }
    }
  })
})

describe('secure by default: the service started as the README says', () => {
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  before(async () => {
    smtp = await startSmtpServer()
    service = await startServiceAsReadme({ SMTP_URL: smtp.url })
  })
  after(async () => {
    await service.stop()
    await smtp.close()
  })

  const call = async (method: string, path: string, token?: string) => {
    const res = await fetch(`${service.url}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} })
    return { status: res.status, body: await res.text() }
  }

  it('anonymous: the SIP preview, generation, reloads, the persons search and the online operators are 401; /ready warns of no opening', async () => {
    for (const [method, path] of [...PBX_WIDE, ['GET', '/api/references/persons?q=900101'], ['GET', '/api/call-events/online-operators']] as const) {
      const res = await call(method, path)
      assert.equal(res.status, 401, `${method} ${path}: ${res.body}`)
    }
    const ready = JSON.parse((await call('GET', '/ready')).body) as { warnings: string[] }
    // (a machine without opus-tools adds the recordings' warning: not an opening)
    assert.deepEqual(ready.warnings.filter((w) => /^(AUTH_MODE|SERVICE_TOKEN)/.test(w)), [])
  })

  it('a manager of another organization is 403 administrators_only on the PBX-wide routes; the admin\'s preview has no digest', async () => {
    const adminToken = await apiToken(service.url, ADMIN)
    const admin = serviceApi(service.url, adminToken)
    const [region] = await admin<{ id: number }[]>('GET', '/api/regions/tree')
    const akimat = await admin<{ id: number }>('POST', '/api/organizations', { name: 'Акимат', region_id: region!.id, prefix: '303' })
    const other = await admin<{ id: number }>('POST', '/api/organizations', { name: 'Другая', region_id: region!.id, prefix: '404' })
    await admin('POST', `/api/organizations/${akimat.id}/endpoints/`, { name: 'Пульт', extension: '001', password: 'Abcdefghij0123456789' })
    const manager = { email: 'manager@other.kz', password: 'Manager-passw0rd-1' }
    await activatedEmployee(service.url, admin, smtp, { email: manager.email, last_name: 'Сеитова', first_name: 'Гульнар', organization_id: other.id, role: 'manager' }, manager.password)
    const managerToken = await apiToken(service.url, manager)
    for (const [method, path] of PBX_WIDE) {
      const res = await call(method, path, managerToken)
      assert.equal(res.status, 403, `${method} ${path}: ${res.body}`)
      assert.equal(JSON.parse(res.body).code, 'administrators_only')
    }
    const preview = await call('GET', '/api/pbx/preview/sip', adminToken)
    assert.equal(preview.status, 200)
    assert.match(preview.body, /password_digest=MD5:\*{32}/)
    assert.doesNotMatch(preview.body, DIGEST_LINE)
  })
})

describe('AUTH_MODE=interface, chosen explicitly: the interface\'s open routes, never a digest', () => {
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  before(async () => { service = await startServiceAsReadme({ AUTH_MODE: 'interface' }) })
  after(async () => { await service.stop() })

  it('anonymous previews, generation and the persons search answer as the interface says, the previews masked; the start and /ready warn', async () => {
    const admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    const anonymous = serviceApi(service.url)
    const [region] = await anonymous<{ id: number }[]>('GET', '/api/regions/tree')
    const org = await anonymous<{ id: number }>('POST', '/api/organizations', { name: 'Акимат', region_id: region!.id, prefix: '303' })
    await admin('POST', `/api/organizations/${org.id}/endpoints/`, { name: 'Пульт', extension: '001', password: 'Abcdefghij0123456789' })
    for (const type of ['sip', 'queues', 'extensions']) {
      const res = await fetch(`${service.url}/api/pbx/preview/${type}`)
      assert.equal(res.status, 200)
      assert.doesNotMatch(await res.text(), DIGEST_LINE)
    }
    assert.equal((await fetch(`${service.url}/api/pbx/generate-configs?save_to_disk=false`, { method: 'POST' })).status, 200)
    assert.equal((await fetch(`${service.url}/api/references/persons?q=900101`)).status, 200)
    const ready = await (await fetch(`${service.url}/ready`)).json() as { warnings: string[] }
    assert.ok(ready.warnings.some((w) => w.startsWith('AUTH_MODE=interface')), JSON.stringify(ready.warnings))
    assert.match(service.output(), /AUTH_MODE=interface: the routes the interface leaves unmarked are open/)
  })
})
