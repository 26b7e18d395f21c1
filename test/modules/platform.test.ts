import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { openSse } from '../helpers/sse.js'

const SERVICE_TOKEN = 'platform-service-token-0123456789'
const machine = { authorization: `Bearer ${SERVICE_TOKEN}` }
type Status = 'active' | 'suspended' | 'deleted'

describe('platform tenants: the registry and its state machine', () => {
  let t: TestApp
  let sequence = 0
  before(async () => { t = await buildTestApp({ env: { SERVICE_TOKEN, CELL_ID: 'kz-ast-1' } }) })
  after(async () => { await t.close() })

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = machine) =>
    t.app.inject({ method, url: `/platform${url}`, headers, ...(payload ? { payload } : {}) })
  const newTenant = async (status: Status = 'active') => {
    const id = `tenant-${++sequence}`
    assert.equal((await call('POST', '/tenants', { tenant_id: id, name: `Акимат ${sequence}`, cell_id: 'kz-ast-1' })).statusCode, 200)
    if (status === 'suspended') await call('POST', `/tenants/${id}/suspend`)
    if (status === 'deleted') await call('DELETE', `/tenants/${id}`)
    return id
  }
  const auditOf = async (id: string) => (await call('GET', `/audit?tenant_id=${id}`)).json() as { action: string, from_status: string | null, to_status: string, actor: string }[]

  it('creates a tenant with its fields, answers it, and writes the change to the audit log', async () => {
    const res = await call('POST', '/tenants', { tenant_id: 'akimat_astana', name: ' Акимат Астаны ', cell_id: 'kz-ast-1', metadata: { plan: 'gov', seats: 40 } })
    assert.equal(res.statusCode, 200, res.body)
    const tenant = res.json()
    assert.deepEqual({ ...tenant, created_at: typeof tenant.created_at, updated_at: typeof tenant.updated_at }, {
      tenant_id: 'akimat_astana', name: 'Акимат Астаны', cell_id: 'kz-ast-1', metadata: { plan: 'gov', seats: 40 }, status: 'active',
      created_at: 'string', updated_at: 'string', suspended_at: null, deleted_at: null,
    })
    assert.deepEqual((await call('GET', '/tenants/akimat_astana')).json(), tenant)
    const [entry] = await auditOf('akimat_astana')
    assert.deepEqual([entry!.action, entry!.from_status, entry!.to_status, entry!.actor], ['create', null, 'active', 'service-token'])
    assert.ok((await call('GET', '/tenants')).json().some((x: { tenant_id: string }) => x.tenant_id === 'akimat_astana'))
  })

  it('create is idempotent for an identical body (200), 409 for a different one, also when both race', async () => {
    const body = { tenant_id: 'same', name: 'Same', cell_id: 'kz-ast-1', metadata: { a: [1, 2], b: { c: true } } }
    const [x, y] = await Promise.all([call('POST', '/tenants', body), call('POST', '/tenants', body)])
    assert.deepEqual([x.statusCode, y.statusCode], [200, 200])
    assert.equal((await auditOf('same')).filter((e) => e.action === 'create').length, 1, 'created once')
    assert.deepEqual(x.json(), y.json())
    assert.equal((await call('POST', '/tenants', { ...body, metadata: { b: { c: true }, a: [1, 2] } })).statusCode, 200, 'key order does not matter')
    for (const different of [{ name: 'Other' }, { metadata: { a: [2, 1], b: { c: true } } }, { metadata: undefined }]) {
      const res = await call('POST', '/tenants', { ...body, ...different })
      assert.equal(res.statusCode, 409, JSON.stringify(different))
      assert.match(res.json().detail, /exists with a different/)
    }
    assert.equal((await auditOf('same')).length, 1, 'one creation, one audit entry')
  })

  it('cell_id must be this cell\'s CELL_ID (409), and nothing is written', async () => {
    const res = await call('POST', '/tenants', { tenant_id: 'elsewhere', name: 'X', cell_id: 'kz-alm-2' })
    assert.equal(res.statusCode, 409)
    assert.match(res.json().detail, /This is cell 'kz-ast-1'/)
    assert.equal((await call('GET', '/tenants/elsewhere')).statusCode, 404)
  })

  it('every operation from every state', async () => {
    // [from, operation, status code, resulting state, audited]
    const table: [Status, 'suspend' | 'activate' | 'delete', number, Status, boolean][] = [
      ['active', 'suspend', 200, 'suspended', true],
      ['active', 'activate', 200, 'active', false],
      ['active', 'delete', 200, 'deleted', true],
      ['suspended', 'suspend', 200, 'suspended', false],
      ['suspended', 'activate', 200, 'active', true],
      ['suspended', 'delete', 200, 'deleted', true],
      ['deleted', 'suspend', 409, 'deleted', false],
      ['deleted', 'activate', 409, 'deleted', false],
      ['deleted', 'delete', 200, 'deleted', false],
    ]
    for (const [from, operation, code, to, audited] of table) {
      const id = await newTenant(from)
      const before = (await auditOf(id)).length
      const res = operation === 'delete' ? await call('DELETE', `/tenants/${id}`) : await call('POST', `/tenants/${id}/${operation}`)
      assert.equal(res.statusCode, code, `${operation} from ${from}: ${res.body}`)
      const now = (await call('GET', `/tenants/${id}`)).json()
      assert.equal(now.status, to, `${operation} from ${from}`)
      if (code === 200) assert.equal(res.json().status, to)
      else assert.match(res.json().detail, /is deleted/)
      const entries = await auditOf(id)
      assert.equal(entries.length - before, audited ? 1 : 0, `${operation} from ${from} audited`)
      if (audited) assert.deepEqual([entries[0]!.action, entries[0]!.from_status, entries[0]!.to_status], [operation, from, to])
    }
    const deleted = await newTenant('deleted')
    const again = await call('POST', '/tenants', { tenant_id: deleted, name: `Акимат ${sequence}`, cell_id: 'kz-ast-1' })
    assert.equal(again.statusCode, 409, 'a deleted id is not created again')
    const suspended = (await call('GET', `/tenants/${await newTenant('suspended')}`)).json()
    assert.equal(typeof suspended.suspended_at, 'string')
  })

  it('unknown ids are 404 for every operation; bad ids and bodies are 422', async () => {
    for (const [method, url] of [['GET', '/tenants/nobody'], ['POST', '/tenants/nobody/suspend'], ['POST', '/tenants/nobody/activate'], ['DELETE', '/tenants/nobody']] as const) {
      const res = await call(method, url)
      assert.equal(res.statusCode, 404, `${method} ${url}`)
      assert.equal(res.json().detail, 'Tenant not found')
    }
    assert.equal((await call('GET', '/tenants/Upper')).statusCode, 422)
    const bad: [object, string][] = [
      [{ name: 'x', cell_id: 'kz-ast-1' }, 'tenant_id'],
      [{ tenant_id: '-x', name: 'x', cell_id: 'kz-ast-1' }, 'tenant_id'],
      [{ tenant_id: 'a'.repeat(64), name: 'x', cell_id: 'kz-ast-1' }, 'tenant_id'],
      [{ tenant_id: 'Caps', name: 'x', cell_id: 'kz-ast-1' }, 'tenant_id'],
      [{ tenant_id: 'ok', name: '  ', cell_id: 'kz-ast-1' }, 'name'],
      [{ tenant_id: 'ok', name: 'x' }, 'cell_id'],
      [{ tenant_id: 'ok', name: 'x', cell_id: 'kz-ast-1', metadata: [1] }, 'metadata'],
      [{ tenant_id: 'ok', name: 'x', cell_id: 'kz-ast-1', metadata: 'text' }, 'metadata'],
      [{ tenant_id: 'ok', name: 'x', cell_id: 'kz-ast-1', metadata: { blob: 'x'.repeat(20_000) } }, 'metadata'],
    ]
    for (const [body, field] of bad) {
      const res = await call('POST', '/tenants', body)
      assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 80))
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
    }
    assert.equal((await call('GET', '/tenants/ok')).statusCode, 404, 'nothing was created')
  })

  it('with SERVICE_TOKEN set the platform routes accept only it and a platform administrator (the console)', async () => {
    const staffAdmin = await login(t.app, await makeUser(t.database.db, { role: 'admin', user_type: 'staff', organization_id: (await makeOrganization(t.database.db)).id }))
    const platformManager = await login(t.app, await makeUser(t.database.db, { role: 'manager', user_type: 'platform' }))
    for (const headers of [{}, staffAdmin, platformManager, { authorization: 'Bearer wrong-token-wrong-token' }]) {
      assert.equal((await call('GET', '/tenants/akimat_astana', undefined, headers)).statusCode, 401)
      assert.equal((await call('POST', '/tenants', { tenant_id: 'sneaky', name: 'x', cell_id: 'kz-ast-1' }, headers)).statusCode, 401)
      assert.equal((await call('GET', '/audit', undefined, headers)).statusCode, 401)
    }
    assert.equal((await call('GET', '/tenants/sneaky')).statusCode, 404)

    const platformAdmin = await makeUser(t.database.db, { role: 'admin', user_type: 'platform' })
    const headers = await login(t.app, platformAdmin)
    const created = await call('POST', '/tenants', { tenant_id: 'console-made', name: 'Акимат', cell_id: 'kz-ast-1' }, headers)
    assert.equal(created.statusCode, 200, created.body)
    assert.equal((await call('POST', '/tenants/console-made/suspend', undefined, headers)).json().status, 'suspended')
    assert.deepEqual((await auditOf('console-made')).map((e) => e.actor), [`user:${platformAdmin.id}`, `user:${platformAdmin.id}`])
  })
})

describe('platform tenants without SERVICE_TOKEN and CELL_ID', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp() })
  after(async () => { await t.close() })

  it('are open (the start warns about it), any cell is accepted, and the caller is recorded', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/platform/tenants', payload: { tenant_id: 'open', name: 'Open', cell_id: 'any-cell' } })
    assert.equal(res.statusCode, 200)
    const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    await t.app.inject({ method: 'POST', url: '/platform/tenants/open/suspend', headers: admin })
    const audit = (await t.app.inject({ url: '/platform/audit' })).json()
    assert.deepEqual(audit.map((e: { action: string, actor: string }) => [e.action, e.actor.replace(/\d+$/, 'N')]), [['suspend', 'user:N'], ['create', 'anonymous']])
  })
})

describe('a suspended tenant switches its organization\'s telephony off', () => {
  let t: TestApp
  let url: string
  let org: { id: number }
  const auth: Record<string, Record<string, string>> = {}
  before(async () => {
    t = await buildTestApp({ env: { SERVICE_TOKEN } })
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    org = await makeOrganization(t.database.db, { prefix: '731' })
    const other = await makeOrganization(t.database.db, { prefix: '732' })
    auth.admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    const operator = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
    auth.operator = await login(t.app, operator)
    for (const [o, ext, employee] of [[org.id, '001', operator.id], [other.id, '001', null]] as const) {
      const res: { statusCode: number, body: string } = await t.app.inject({ method: 'POST', url: `/api/organizations/${o}/endpoints/`, headers: auth.admin!, payload: { name: 'Оператор', extension: ext, password: 'Abcdefghij0123456789', employee_id: employee } })
      assert.equal(res.statusCode, 201, res.body)
    }
  })
  after(async () => { await t.close() })

  const platform = (method: 'POST' | 'DELETE', path: string, payload?: object) => t.app.inject({ method, url: `/platform/tenants${path}`, headers: machine, ...(payload ? { payload } : {}) })
  const terminalRoutes = () => Promise.all([
    t.app.inject({ url: `/api/organizations/${org.id}/endpoints/`, headers: auth.admin! }),
    t.app.inject({ url: `/api/organizations/${org.id}/endpoints/731001`, headers: auth.admin! }),
    t.app.inject({ url: `/api/organizations/${org.id}/endpoints/status`, headers: auth.admin! }),
    t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: auth.admin!, payload: { name: 'Ещё', extension: '009', password: 'Abcdefghij0123456789' } }),
    t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/endpoints/731001`, headers: auth.admin!, payload: { name: 'Новое имя' } }),
    t.app.inject({ method: 'DELETE', url: `/api/organizations/${org.id}/endpoints/731001`, headers: auth.admin! }),
  ])
  const config = async () => {
    const [sip, queues, extensions] = await Promise.all(['sip', 'queues', 'extensions'].map(async (type) => (await t.app.inject({ url: `/api/pbx/preview/${type}`, headers: auth.admin! })).json().content as string))
    return { sip: sip!, queues: queues!, extensions: extensions! }
  }
  const online = async () => ((await t.app.inject({ url: '/api/call-events/online-operators' })).json() as { operator_num: string }[]).map((o) => o.operator_num)

  it('terminal routes, generated configuration and online operators, and all of it back on activation', async () => {
    const console1 = await openSse(`${url}/api/call-events/stream`, auth.operator!)
    try {
      const active = await config()
      assert.ok(active.sip.includes('[731001]') && active.queues.includes('731001') && active.extensions.includes('731'), 'the organization is in every file')
      assert.deepEqual(await online(), ['731001'])
      assert.equal((await platform('POST', '', { tenant_id: String(org.id), name: 'Организация', cell_id: 'any' })).statusCode, 200)
      assert.equal((await t.app.inject({ url: `/api/organizations/${org.id}/endpoints/`, headers: auth.admin! })).statusCode, 200, 'an active tenant changes nothing')

      assert.equal((await platform('POST', `/${org.id}/suspend`)).statusCode, 200)
      for (const res of await terminalRoutes()) {
        assert.equal(res.statusCode, 403, res.body)
        assert.match(res.json().detail, new RegExp(`telephony of organization ${org.id} is switched off: its platform tenant is suspended`))
      }
      const outsider = await t.app.inject({ url: `/api/organizations/${org.id}/endpoints/`, headers: auth.operator! })
      assert.equal(outsider.statusCode, 403)
      assert.equal(outsider.json().code, 'role_not_allowed', 'refused at the gate, before the tenant is looked up')
      assert.doesNotMatch(outsider.json().detail, /switched off|suspended/, 'who may not manage terminals learns nothing about the tenant')
      const suspended = await config()
      assert.ok(!suspended.sip.includes('731001') && !suspended.queues.includes('731001') && !/\b731\d{3}\b/.test(suspended.extensions), 'left out of every file')
      assert.ok(suspended.sip.includes('[732001]'), 'other organizations stay')
      assert.deepEqual(await online(), [])
      const other = await t.app.inject({ url: `/api/organizations/${org.id + 1}/endpoints/`, headers: auth.admin! })
      assert.equal(other.statusCode, 200, 'another organization is not touched')

      assert.equal((await platform('POST', `/${org.id}/activate`)).statusCode, 200)
      assert.equal((await t.app.inject({ url: `/api/organizations/${org.id}/endpoints/731001`, headers: auth.admin! })).statusCode, 200)
      assert.deepEqual(await config(), active)
      await eventually(async () => (await online()).includes('731001'), 30_000, 'online again')

      assert.equal((await platform('DELETE', `/${org.id}`)).statusCode, 200)
      assert.equal((await t.app.inject({ url: `/api/organizations/${org.id}/endpoints/`, headers: auth.admin! })).statusCode, 403, 'a deleted tenant keeps it off')
      assert.ok(!(await config()).sip.includes('731001'))
    } finally {
      await console1.close()
    }
  })
})
