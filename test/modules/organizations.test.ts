import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeUser } from '../helpers/factories.js'

const SHAPE_A = ['employee_count', 'ext_sync_error', 'ext_sync_status', 'ext_synced_at', 'groups', 'id', 'is_active', 'modules', 'name', 'prefix', 'region_id', 'region_name']
const SHAPE_S = [...SHAPE_A, 'city_name', 'oblast_id', 'oblast_name'].sort()
const SHAPE_B = ['city_name', 'created_at', 'endpoints_count', 'id', 'is_active', 'max_operators', 'max_queues', 'oblast_id', 'oblast_name', 'operators_count', 'org_name', 'org_prefix', 'queues_count', 'routes_count']
const UNION = [...new Set([...SHAPE_A, ...SHAPE_B])].sort()

describe('organizations in three shapes', () => {
  let t: TestApp
  let admin: Record<string, string>
  let oblast: { id: number }
  let city: { id: number }
  let otherOblast: { id: number }
  let prefixSeq = 100

  before(async () => {
    t = await buildTestApp()
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    const region = async (payload: object) => (await t.app.inject({ method: 'POST', url: '/api/regions', payload })).json()
    oblast = await region({ name: 'Карагандинская область', phone_code: '7212' })
    city = await region({ name: 'Темиртау', parent_id: oblast.id, phone_code: '7213' })
    otherOblast = await region({ name: 'Костанайская область', phone_code: '7142' })
  })
  after(() => t.close())

  const nextPrefix = () => String(++prefixSeq)
  const createA = (payload: object, base = '/api/organizations') => t.app.inject({ method: 'POST', url: base, payload })
  const createB = (payload: object, headers = admin) => t.app.inject({ method: 'POST', url: '/api/organizations/', payload, headers })
  const group = async (name: string) => (await t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name } })).json() as { id: number, name: string }

  it('Shape A create (200) answers exactly the Shape A fields, with region name, groups and ext sync state', async () => {
    const g1 = await group('Акиматы')
    const g2 = await group('Департаменты')
    const res = await createA({ name: ' Акимат города Темиртау ', region_id: city.id, prefix: nextPrefix(), group_ids: [g2.id, g1.id], modules: ['appeals', 'telephony'] })
    assert.equal(res.statusCode, 200, res.body)
    const o = res.json()
    assert.deepEqual(Object.keys(o).sort(), SHAPE_A)
    assert.equal(o.name, 'Акимат города Темиртау')
    assert.equal(o.region_name, 'Темиртау')
    assert.deepEqual(o.groups, [{ id: g1.id, name: 'Акиматы' }, { id: g2.id, name: 'Департаменты' }])
    assert.equal(o.employee_count, 0)
    assert.equal(o.ext_sync_status, 'disabled')
    assert.equal(o.is_active, true)
  })

  it('Shape A/S validation: required fields, prefix format, unknown region or groups (422); prefix in use (409)', async () => {
    const missing = await createA({})
    assert.deepEqual(missing.json().detail.map((d: { loc: string[] }) => d.loc[1]).sort(), ['name', 'prefix', 'region_id'])
    for (const prefix of ['12', '1234', 'abc', 123, '１２３']) {
      const res = await createA({ name: 'x', region_id: city.id, prefix })
      assert.equal(res.statusCode, 422, String(prefix))
      assert.deepEqual(res.json().detail[0].loc, ['body', 'prefix'])
    }
    const badRegion = await createA({ name: 'x', region_id: 999999, prefix: nextPrefix() })
    assert.deepEqual([badRegion.statusCode, badRegion.json().detail[0].loc], [422, ['body', 'region_id']])
    const badGroup = await createA({ name: 'x', region_id: city.id, prefix: nextPrefix(), group_ids: [999999] })
    assert.deepEqual([badGroup.statusCode, badGroup.json().detail[0].loc], [422, ['body', 'group_ids']])
    const prefix = nextPrefix()
    assert.equal((await createA({ name: 'Первая', region_id: city.id, prefix })).statusCode, 200)
    assert.equal((await createA({ name: 'Вторая', region_id: city.id, prefix }, '/api/shared/organizations')).statusCode, 409)
    assert.equal((await createB({ org_name: 'Третья', org_prefix: prefix })).statusCode, 409)
  })

  it('Shape S adds oblast and city; oblast_id matches organizations anywhere under the oblast', async () => {
    const inCity = (await createA({ name: 'Городская', region_id: city.id, prefix: nextPrefix() }, '/api/shared/organizations')).json()
    assert.deepEqual(Object.keys(inCity).sort(), SHAPE_S)
    assert.deepEqual([inCity.oblast_id, inCity.oblast_name, inCity.city_name], [oblast.id, 'Карагандинская область', 'Темиртау'])
    const inOblast = (await createA({ name: 'Областная', region_id: oblast.id, prefix: nextPrefix() }, '/api/shared/organizations')).json()
    assert.deepEqual([inOblast.oblast_id, inOblast.city_name], [oblast.id, null])
    const elsewhere = (await createA({ name: 'Костанайская', region_id: otherOblast.id, prefix: nextPrefix() })).json()
    const ids = async (qs: string) => ((await t.app.inject({ url: `/api/shared/organizations${qs}` })).json() as { id: number }[]).map((o) => o.id)
    const underOblast = await ids(`?oblast_id=${oblast.id}`)
    assert.ok(underOblast.includes(inCity.id) && underOblast.includes(inOblast.id) && !underOblast.includes(elsewhere.id))
    assert.deepEqual((await ids(`?region_id=${oblast.id}`)).includes(inCity.id), false, 'region_id is the region itself')
    assert.ok((await ids(`?region_id=${city.id}`)).includes(inCity.id))
    assert.equal((await t.app.inject({ url: '/api/shared/organizations?oblast_id=abc' })).statusCode, 422)
  })

  it('Shape S item routes: get, update (name and region_id required, prefix ignored), delete', async () => {
    const o = (await createA({ name: 'Правка', region_id: city.id, prefix: nextPrefix(), modules: ['appeals'] }, '/api/shared/organizations')).json()
    const url = `/api/shared/organizations/${o.id}`
    assert.deepEqual((await t.app.inject({ url })).json(), o)
    assert.deepEqual((await t.app.inject({ method: 'PUT', url, payload: { name: 'x' } })).json().detail.map((d: { loc: string[] }) => d.loc[1]), ['region_id'])
    const upd = await t.app.inject({ method: 'PUT', url, payload: { name: 'Правка 2', region_id: otherOblast.id, prefix: '999' } })
    assert.equal(upd.statusCode, 200)
    assert.deepEqual([upd.json().name, upd.json().region_id, upd.json().prefix, upd.json().modules], ['Правка 2', otherOblast.id, o.prefix, ['appeals']])
    assert.equal((await t.app.inject({ method: 'DELETE', url })).statusCode, 200)
    assert.equal((await t.app.inject({ url })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'PUT', url, payload: { name: 'x', region_id: city.id } })).statusCode, 404)
  })

  it('show_inactive / include_inactive', async () => {
    const o = (await createB({ org_name: 'Неактивная', org_prefix: nextPrefix(), is_active: false })).json()
    const listed = async (url: string, headers = {}) => ((await t.app.inject({ url, headers })).json() as { id: number }[]).some((x) => x.id === o.id)
    assert.equal(await listed('/api/organizations'), false)
    assert.equal(await listed('/api/organizations?show_inactive=true'), true)
    assert.equal(await listed('/api/shared/organizations?show_inactive=true'), true)
    assert.equal(await listed('/api/organizations/', admin), false)
    assert.equal(await listed('/api/organizations/?include_inactive=true', admin), true)
    await t.app.inject({ method: 'PUT', url: `/api/organizations/${o.id}`, headers: admin, payload: { is_active: true } })
    assert.equal(await listed('/api/organizations'), true)
  })

  it('Shape B: Bearer; create 201 with defaults; list with skip/limit and oblast_id; counts are computed', async () => {
    assert.equal((await t.app.inject({ url: '/api/organizations/' })).statusCode, 401)
    assert.equal((await createB({ org_name: 'x', org_prefix: nextPrefix() }, {})).statusCode, 401)
    const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator', organization_id: (await createB({ org_name: 'Операторская', org_prefix: nextPrefix() })).json().id }))
    assert.equal((await createB({ org_name: 'x', org_prefix: nextPrefix() }, operator)).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/organizations/', headers: operator })).statusCode, 200)
    const res = await createB({ org_name: 'Колл-центр', org_prefix: nextPrefix() })
    assert.equal(res.statusCode, 201)
    const b = res.json()
    assert.deepEqual(Object.keys(b).sort(), SHAPE_B)
    assert.deepEqual([b.max_queues, b.max_operators, b.endpoints_count, b.oblast_id], [10, 100, 0, null])
    for (const [payload, field] of [[{ org_name: 'x', org_prefix: '1000' }, 'org_prefix'], [{ org_name: 'x' }, 'org_prefix'], [{ org_prefix: nextPrefix() }, 'org_name'], [{ org_name: 'x', org_prefix: nextPrefix(), max_operators: -1 }, 'max_operators']] as const) {
      const bad = await createB(payload)
      assert.equal(bad.statusCode, 422, JSON.stringify(payload))
      assert.deepEqual(bad.json().detail[0].loc, ['body', field])
    }
    const page = async (qs: string) => ((await t.app.inject({ url: `/api/organizations/${qs}`, headers: admin })).json() as { id: number }[]).map((o) => o.id)
    const all = await page('')
    assert.deepEqual(await page('?skip=1&limit=2'), all.slice(1, 3))
    for (const bad of ['?limit=0', '?limit=1001', '?skip=-1', '?oblast_id=x']) {
      assert.equal((await t.app.inject({ url: `/api/organizations/${bad}`, headers: admin })).statusCode, 422, bad)
    }
    const underOblast = (await createA({ name: 'В области', region_id: city.id, prefix: nextPrefix() })).json()
    assert.deepEqual(await page(`?oblast_id=${otherOblast.id}&limit=1000`).then((ids) => ids.includes(underOblast.id)), false)
    assert.ok((await page(`?oblast_id=${oblast.id}`)).includes(underOblast.id))
  })

  it('the colliding item routes need a token and answer the union of both shapes; PUT takes either body', async () => {
    const o = (await createA({ name: 'Союз', region_id: city.id, prefix: nextPrefix() })).json()
    const url = `/api/organizations/${o.id}`
    assert.equal((await t.app.inject({ url })).statusCode, 401)
    const got = await t.app.inject({ url, headers: admin })
    assert.deepEqual(Object.keys(got.json()).sort(), UNION)
    assert.equal(got.json().org_name, 'Союз')
    assert.equal(got.json().org_prefix, o.prefix)
    const a = await t.app.inject({ method: 'PUT', url, headers: admin, payload: { name: 'Союз A', region_id: otherOblast.id } })
    assert.deepEqual([a.json().name, a.json().org_name, a.json().region_id, a.json().prefix], ['Союз A', 'Союз A', otherOblast.id, o.prefix])
    const newPrefix = nextPrefix()
    const b = await t.app.inject({ method: 'PUT', url, headers: admin, payload: { org_prefix: newPrefix, max_operators: 5 } })
    assert.deepEqual([b.json().name, b.json().prefix, b.json().max_operators, b.json().region_id], ['Союз A', newPrefix, 5, otherOblast.id])
    const clash = await t.app.inject({ method: 'PUT', url, headers: admin, payload: { name: 'X', org_name: 'Y' } })
    assert.equal(clash.statusCode, 422)
    assert.equal((await t.app.inject({ method: 'PUT', url, headers: admin, payload: { org_prefix: '12' } })).statusCode, 422)
    assert.equal((await t.app.inject({ method: 'PUT', url: '/api/organizations/999999', headers: admin, payload: { max_queues: 1 } })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/api/organizations/abc', headers: admin })).statusCode, 422)
  })

  it('deletion: 409 while employees refer to it; group links and notification settings go with it; a used group cannot be deleted', async () => {
    const g = await group('Удаляемая группа')
    const o = (await createA({ name: 'С сотрудником', region_id: city.id, prefix: nextPrefix(), group_ids: [g.id] })).json()
    const usedGroup = await t.app.inject({ method: 'DELETE', url: `/api/shared/groups/${g.id}` })
    assert.equal(usedGroup.statusCode, 409)
    assert.match(usedGroup.json().detail, /used by 1 organizations/)
    await t.app.inject({ method: 'PUT', url: `/api/organizations/${o.id}/notifications`, headers: admin, payload: { sms_enabled: true } })
    const employee = await makeUser(t.database.db, { role: 'operator', organization_id: o.id })
    assert.equal((await t.app.inject({ url: `/api/organizations/${o.id}`, headers: admin })).json().employee_count, 1)
    const blocked = await t.app.inject({ method: 'DELETE', url: `/api/organizations/${o.id}`, headers: admin })
    assert.equal(blocked.statusCode, 409)
    assert.match(blocked.json().detail, /employees/)
    await t.app.inject({ method: 'DELETE', url: `/api/employees/${employee.id}`, headers: admin })
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/organizations/${o.id}`, headers: admin })).statusCode, 200)
    assert.equal((await t.app.inject({ url: `/api/organizations/${o.id}/notifications` })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/shared/groups/${g.id}` })).statusCode, 200)
  })

  it('notification settings: defaults, PUT and POST upsert partially, partner_uuid search, validation, manager scope', async () => {
    const o = (await createB({ org_name: 'Уведомления', org_prefix: nextPrefix() })).json()
    const url = `/api/organizations/${o.id}/notifications`
    const defaults = await t.app.inject({ url })
    assert.deepEqual(defaults.json(), { organization_id: o.id, is_active: false, partner_uuid: null, call_local: true, call_longdistance: false, call_mobile: false, cli_route_id: null, sms_enabled: false })
    const uuid = '6f1c2a8e-4b7d-4c1e-9a3f-2d5e8b7c9a10'
    const put = await t.app.inject({ method: 'PUT', url, headers: admin, payload: { is_active: true, partner_uuid: uuid } })
    assert.equal(put.statusCode, 200)
    const post = await t.app.inject({ method: 'POST', url, headers: admin, payload: { sms_enabled: true, cli_route_id: 7 } })
    assert.deepEqual([post.json().is_active, post.json().partner_uuid, post.json().sms_enabled, post.json().cli_route_id], [true, uuid, true, 7])
    assert.equal((await t.app.inject({ method: 'PUT', url, payload: { sms_enabled: false } })).statusCode, 401)
    const found = await t.app.inject({ url: `/api/organizations/search?partner_uuid=${uuid}` })
    assert.equal(found.statusCode, 200)
    assert.equal(found.json().id, o.id)
    assert.equal((await t.app.inject({ url: '/api/organizations/search?partner_uuid=00000000-0000-4000-8000-000000000000' })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/api/organizations/search?partner_uuid=nope' })).statusCode, 422)
    assert.equal((await t.app.inject({ url: '/api/organizations/search' })).statusCode, 422)
    assert.equal((await t.app.inject({ method: 'PUT', url, headers: admin, payload: { partner_uuid: 'not-a-uuid' } })).statusCode, 422)
    assert.equal((await t.app.inject({ method: 'PUT', url, headers: admin, payload: { call_local: 'yes' } })).statusCode, 422)
    const other = (await createB({ org_name: 'Другая', org_prefix: nextPrefix() })).json()
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${other.id}/notifications`, headers: admin, payload: { partner_uuid: uuid } })).statusCode, 409)
    const manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: other.id }))
    assert.equal((await t.app.inject({ method: 'PUT', url, headers: manager, payload: { sms_enabled: false } })).statusCode, 403)
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${other.id}/notifications`, headers: manager, payload: { sms_enabled: true } })).statusCode, 200)
    assert.equal((await t.app.inject({ url: '/api/organizations/999999/notifications' })).statusCode, 404)
  })

  it('retry routes without a sync target answer clearly and queue nothing', async () => {
    const o = (await createA({ name: 'Без синхронизации', region_id: city.id, prefix: nextPrefix() })).json()
    for (const url of [`/api/organizations/${o.id}/retry-ext-sync`, `/api/shared/organizations/${o.id}/retry-ext-sync`, '/api/organizations/retry-all-failed-ext', '/api/shared/organizations/retry-all-failed-ext']) {
      const res = await t.app.inject({ method: 'POST', url })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.json().queued, 0)
      assert.match(res.json().message, /disabled/)
    }
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/organizations/999999/retry-ext-sync' })).statusCode, 404)
  })

  it('the counts follow every change of employees and terminals (kept counters, no counting per row), a raw SQL write included', async () => {
    const o = (await createA({ name: 'Счётчики', region_id: city.id, prefix: nextPrefix() })).json()
    const counts = async () => {
      const b = (await t.app.inject({ url: `/api/organizations/${o.id}`, headers: admin })).json()
      const a = (await t.app.inject({ url: `/api/organizations?region_id=${city.id}` })).json().find((x: { id: number }) => x.id === o.id)
      const listed = (await t.app.inject({ url: '/api/organizations/?limit=1000', headers: admin })).json().find((x: { id: number }) => x.id === o.id)
      assert.equal(a.employee_count, b.employee_count, 'Shape A and the detail agree')
      assert.deepEqual([listed.operators_count, listed.endpoints_count], [b.operators_count, b.endpoints_count], 'Shape B list and the detail agree')
      return [b.employee_count, b.operators_count, b.endpoints_count]
    }
    assert.deepEqual(await counts(), [0, 0, 0])
    const employee = (payload: object) => t.app.inject({ method: 'POST', url: '/api/employees', headers: admin, payload: { last_name: 'Ким', first_name: 'Ли', organization_id: o.id, ...payload } })
    const operator = (await employee({ email: 'count-op@akimat.kz', role: 'operator' })).json()
    const manager = (await employee({ email: 'count-mgr@akimat.kz', role: 'manager' })).json()
    assert.deepEqual(await counts(), [2, 1, 0])
    await t.app.inject({ method: 'PUT', url: `/api/employees/${manager.id}`, headers: admin, payload: { role: 'operator' } })
    assert.deepEqual(await counts(), [2, 2, 0])
    await t.app.inject({ method: 'PUT', url: `/api/employees/${operator.id}`, headers: admin, payload: { is_active: false } })
    assert.deepEqual(await counts(), [1, 1, 0])
    const terminal = await t.app.inject({ method: 'POST', url: `/api/organizations/${o.id}/endpoints/`, headers: admin, payload: { name: 'Пульт', extension: '001', password: 'Abcdefghij0123456789' } })
    assert.equal(terminal.statusCode, 201, terminal.body)
    assert.deepEqual(await counts(), [1, 1, 1])
    await t.app.inject({ method: 'DELETE', url: `/api/organizations/${o.id}/endpoints/${terminal.json().id}`, headers: admin })
    assert.deepEqual(await counts(), [1, 1, 0])
    // whoever writes the rows: an operator's SQL moves an employee to another organization
    const other = (await createA({ name: 'Другая', region_id: city.id, prefix: nextPrefix() })).json()
    await t.database.query('update users set organization_id = $1 where id = $2', [other.id, manager.id])
    assert.deepEqual(await counts(), [0, 0, 0])
    assert.equal((await t.app.inject({ url: `/api/organizations/${other.id}`, headers: admin })).json().operators_count, 1)
    await t.app.inject({ method: 'DELETE', url: `/api/employees/${operator.id}`, headers: admin })
    assert.deepEqual(await counts(), [0, 0, 0])
  })
})
