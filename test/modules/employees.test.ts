import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

describe('employees (/api/employees)', () => {
  let t: TestApp
  let adminAuth: { authorization: string }
  let orgA: { id: number }
  let orgB: { id: number }
  let managerA: { authorization: string }
  let managerAId: number

  before(async () => {
    t = await buildTestApp()
    adminAuth = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    orgA = await makeOrganization(t.database.db)
    orgB = await makeOrganization(t.database.db)
    const manager = await makeUser(t.database.db, { role: 'manager', organization_id: orgA.id })
    managerAId = manager.id
    managerA = await login(t.app, manager)
  })
  after(() => t.close())

  const create = (headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url: '/api/employees', headers, payload })

  it('admin creates an employee (201) with normalised e-mail and phone and no password', async () => {
    const res = await create(adminAuth, { email: ' Asel.Nurlanovna@Akimat.KZ ', last_name: 'Нурланова', first_name: 'Асель', middle_name: 'Ерлановна',
      organization_id: orgA.id, phone: '+7 (701) 555-44-33', role: 'operator', modules: ['appeals', 'calls'], password_hash: 'x', id: 5000 })
    assert.equal(res.statusCode, 201, res.body)
    const e = res.json()
    assert.equal(e.email, 'asel.nurlanovna@akimat.kz')
    assert.equal(e.phone, '+77015554433')
    assert.equal(e.full_name, 'Нурланова Асель Ерлановна')
    assert.equal(e.has_password, false)
    assert.equal(e.is_active, true)
    assert.notEqual(e.id, 5000)
    assert.ok(!('password_hash' in e))
    const got = await t.app.inject({ url: `/api/employees/${e.id}`, headers: adminAuth })
    assert.deepEqual(got.json(), e)
  })

  it('422: missing fields, bad e-mail, bad phone, unknown organization, staff without organization, bad role', async () => {
    const missing = await create(adminAuth, {})
    assert.equal(missing.statusCode, 422)
    assert.deepEqual(missing.json().detail.map((d: { loc: string[] }) => d.loc[1]).sort(), ['email', 'first_name', 'last_name'])
    const cases: [object, string][] = [
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: '12' }, 'phone'],
      [{ organization_id: 999999 }, 'organization_id'],
      [{ organization_id: null }, 'organization_id'],
      [{ role: 'superuser' }, 'role'],
      [{ modules: 'appeals' }, 'modules'],
    ]
    for (const [patch, field] of cases) {
      const res = await create(adminAuth, { email: 'x@y.kz', last_name: 'А', first_name: 'Б', organization_id: orgA.id, ...patch })
      assert.equal(res.statusCode, 422, JSON.stringify(patch))
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
    }
  })

  it('409 on an e-mail that exists in another case', async () => {
    await create(adminAuth, { email: 'dup@akimat.kz', last_name: 'А', first_name: 'Б', organization_id: orgA.id })
    const dup = await create(adminAuth, { email: 'DUP@akimat.kz', last_name: 'В', first_name: 'Г', organization_id: orgB.id })
    assert.equal(dup.statusCode, 409)
  })

  it('a manager creates operators of its own organization only', async () => {
    const own = await create(managerA, { email: 'op1@org-a.kz', last_name: 'Оператор', first_name: 'Один' })
    assert.equal(own.statusCode, 201)
    assert.equal(own.json().organization_id, orgA.id)
    assert.equal(own.json().role, 'operator')
    assert.equal((await create(managerA, { email: 'op2@org-b.kz', last_name: 'О', first_name: 'Д', organization_id: orgB.id })).statusCode, 403)
    assert.equal((await create(managerA, { email: 'boss@org-a.kz', last_name: 'О', first_name: 'Д', role: 'manager' })).statusCode, 403)
    assert.equal((await create(managerA, { email: 'adm@org-a.kz', last_name: 'О', first_name: 'Д', role: 'admin', user_type: 'platform' })).statusCode, 403)
  })

  it('a manager sees its own organization only; another organization\'s employee is 404', async () => {
    const other = (await create(adminAuth, { email: 'other@org-b.kz', last_name: 'Б', first_name: 'Б', organization_id: orgB.id })).json()
    const list = (await t.app.inject({ url: '/api/employees', headers: managerA })).json() as { organization_id: number }[]
    assert.ok(list.length > 0)
    assert.ok(list.every((e) => e.organization_id === orgA.id))
    assert.equal((await t.app.inject({ url: `/api/employees/${other.id}`, headers: managerA })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/employees/${other.id}`, headers: managerA, payload: { position: 'x' } })).statusCode, 404)
    assert.equal((await t.app.inject({ url: `/api/employees?organization_id=${orgB.id}`, headers: managerA })).statusCode, 403)
  })

  it('operators are refused (403); no token is 401', async () => {
    const operator = await makeUser(t.database.db, { role: 'operator', organization_id: orgA.id })
    assert.equal((await t.app.inject({ url: '/api/employees', headers: await login(t.app, operator) })).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/employees' })).statusCode, 401)
  })

  it('list filters: organization, role, q, include_inactive, skip/limit bounds', async () => {
    const a = (await create(adminAuth, { email: 'filter.me@org-b.kz', last_name: 'Жумабеков', first_name: 'Канат', organization_id: orgB.id })).json()
    const ids = async (qs: string) => ((await t.app.inject({ url: `/api/employees${qs}`, headers: adminAuth })).json() as { id: number }[]).map((e) => e.id)
    assert.ok((await ids(`?organization_id=${orgB.id}`)).includes(a.id))
    assert.ok(!(await ids(`?organization_id=${orgA.id}`)).includes(a.id))
    assert.ok((await ids('?q=жумабек')).includes(a.id))
    assert.ok(!(await ids('?q=%25')).includes(a.id) || (await ids('?q=%25')).length === 0)
    assert.ok(!(await ids('?role=manager')).includes(a.id))
    await t.app.inject({ method: 'PUT', url: `/api/employees/${a.id}`, headers: adminAuth, payload: { is_active: false } })
    assert.ok(!(await ids('')).includes(a.id))
    assert.ok((await ids('?include_inactive=true')).includes(a.id))
    assert.equal((await ids('?limit=1')).length, 1)
    for (const bad of ['?limit=0', '?limit=1001', '?skip=-1', '?limit=x', '?role=boss']) {
      assert.equal((await t.app.inject({ url: `/api/employees${bad}`, headers: adminAuth })).statusCode, 422, bad)
    }
  })

  it('update is partial; nobody deactivates or deletes themselves; DELETE removes', async () => {
    const e = (await create(managerA, { email: 'partial@org-a.kz', last_name: 'Старая', first_name: 'Фамилия', position: 'Оператор' })).json()
    const res = await t.app.inject({ method: 'PUT', url: `/api/employees/${e.id}`, headers: managerA, payload: { last_name: 'Новая' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().last_name, 'Новая')
    assert.equal(res.json().position, 'Оператор')
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/employees/${e.id}`, headers: managerA, payload: { role: 'manager' } })).statusCode, 403)
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/employees/${managerAId}`, headers: managerA, payload: { is_active: false } })).statusCode, 403)
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/employees/${e.id}`, headers: managerA })).statusCode, 200)
    assert.equal((await t.app.inject({ url: `/api/employees/${e.id}`, headers: adminAuth })).statusCode, 404)
    const self = (await t.app.inject({ url: '/api/auth/profile', headers: adminAuth })).json()
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/employees/${self.id}`, headers: adminAuth, payload: { is_active: false } })).statusCode, 409)
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/employees/${self.id}`, headers: adminAuth })).statusCode, 409)
  })
})
