import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'

describe('groups (/api/shared/groups)', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp() })
  after(() => t.close())

  const create = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: payload as object })
  const list = async () => (await t.app.inject({ url: '/api/shared/groups' })).json() as { id: number, name: string }[]

  it('POST creates (200), trims the name, GET reads it back, list includes it', async () => {
    const res = await create({ name: '  Акиматы районов  ' })
    assert.equal(res.statusCode, 200)
    const group = res.json()
    assert.deepEqual(Object.keys(group).sort(), ['id', 'name'])
    assert.equal(group.name, 'Акиматы районов')
    const got = await t.app.inject({ url: `/api/shared/groups/${group.id}` })
    assert.equal(got.statusCode, 200)
    assert.deepEqual(got.json(), group)
    assert.ok((await list()).some((g) => g.id === group.id))
  })

  it('lists in name order', async () => {
    await create({ name: 'Яблоко' })
    await create({ name: 'Арбуз' })
    const names = (await list()).map((g) => g.name)
    assert.deepEqual(names, [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  it('ignores unknown fields and never lets a body choose the id', async () => {
    const res = await create({ name: 'Управления', id: 777777, extra: true })
    assert.equal(res.statusCode, 200)
    assert.notEqual(res.json().id, 777777)
    assert.equal(res.json().extra, undefined)
  })

  it('422: missing, empty, blank, wrong type, too long; every failure changes nothing', async () => {
    const before = await list()
    const cases: [unknown, string, string][] = [
      [{}, 'missing', 'Field required'],
      [{ name: '' }, 'string_too_short', 'String should have at least 1 character'],
      [{ name: '    ' }, 'string_too_short', 'String should have at least 1 character'],
      [{ name: 42 }, 'string_type', 'Input should be a valid string'],
      [{ name: null }, 'string_type', 'Input should be a valid string'],
      [{ name: 'x'.repeat(256) }, 'string_too_long', 'String should have at most 255 characters'],
    ]
    for (const [payload, type, msg] of cases) {
      const res = await create(payload)
      assert.equal(res.statusCode, 422, JSON.stringify(payload))
      const [error] = res.json().detail
      assert.deepEqual(error.loc, ['body', 'name'])
      assert.equal(error.type, type)
      assert.equal(error.msg, msg)
    }
    assert.deepEqual(await list(), before)
  })

  it('409 on a duplicate name, on create and on rename', async () => {
    const first = (await create({ name: 'Дубликат' })).json()
    const dup = await create({ name: ' Дубликат ' })
    assert.equal(dup.statusCode, 409)
    assert.match(dup.json().detail, /already exists/)
    const other = (await create({ name: 'Другая' })).json()
    const rename = await t.app.inject({ method: 'PUT', url: `/api/shared/groups/${other.id}`, payload: { name: 'Дубликат' } })
    assert.equal(rename.statusCode, 409)
    assert.equal((await t.app.inject({ url: `/api/shared/groups/${other.id}` })).json().name, 'Другая')
    assert.equal((await t.app.inject({ url: `/api/shared/groups/${first.id}` })).json().name, 'Дубликат')
  })

  it('PUT renames; name is required on update', async () => {
    const { id } = (await create({ name: 'Старое имя' })).json()
    const res = await t.app.inject({ method: 'PUT', url: `/api/shared/groups/${id}`, payload: { name: 'Новое имя' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { id, name: 'Новое имя' })
    const missing = await t.app.inject({ method: 'PUT', url: `/api/shared/groups/${id}`, payload: {} })
    assert.equal(missing.statusCode, 422)
    assert.deepEqual(missing.json().detail[0].loc, ['body', 'name'])
  })

  it('DELETE removes the row (200 message), then 404', async () => {
    const { id } = (await create({ name: 'Временная' })).json()
    const res = await t.app.inject({ method: 'DELETE', url: `/api/shared/groups/${id}` })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { message: 'Group deleted' })
    assert.equal((await t.app.inject({ url: `/api/shared/groups/${id}` })).statusCode, 404)
    const again = await t.app.inject({ method: 'DELETE', url: `/api/shared/groups/${id}` })
    assert.equal(again.statusCode, 404)
    assert.deepEqual(again.json(), { detail: 'Group not found', code: 'not_found' })
  })

  it('404 for unknown ids on GET, PUT and DELETE; 422 for ids that are not integers', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/shared/groups/999999', payload: method === 'PUT' ? { name: 'x' } : undefined })
      assert.equal(res.statusCode, 404, method)
    }
    for (const bad of ['abc', '1.5', '0', '-1']) {
      const res = await t.app.inject({ url: `/api/shared/groups/${bad}` })
      assert.equal(res.statusCode, 422, bad)
      assert.deepEqual(res.json().detail[0].loc, ['path', 'group_id'])
    }
  })

  it('trailing slashes are other paths: 404, never the collection or an item', async () => {
    assert.equal((await t.app.inject({ url: '/api/shared/groups/' })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/shared/groups/', payload: { name: 'x' } })).statusCode, 404)
    const { id } = (await create({ name: 'Со слешем' })).json()
    assert.equal((await t.app.inject({ url: `/api/shared/groups/${id}/` })).statusCode, 404)
  })
})
