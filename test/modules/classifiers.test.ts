import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

describe('classifiers (/api/classifiers)', () => {
  let t: TestApp
  let admin: Record<string, string>
  let operator: Record<string, string>
  before(async () => {
    t = await buildTestApp()
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    operator = await login(t.app, await makeUser(t.database.db, { role: 'operator', organization_id: (await makeOrganization(t.database.db)).id }))
  })
  after(() => t.close())

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url: `/api/classifiers${url}`, headers, payload })
  let codeSeq = 0
  const classifier = async (extra: object = {}) => {
    const res = await req('POST', '', { name: 'Классификатор', code: `C${++codeSeq}`, ...extra })
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as { id: number }
  }

  it('every route needs a token (401); writes need an administrator (403)', async () => {
    assert.equal((await t.app.inject({ url: '/api/classifiers' })).statusCode, 401)
    assert.equal((await t.app.inject({ url: '/api/classifiers/appeal-types' })).statusCode, 401)
    assert.equal((await req('GET', '', undefined, operator)).statusCode, 200)
    assert.equal((await req('POST', '', { name: 'x', code: 'OP' }, operator)).statusCode, 403)
    const { id } = await classifier()
    assert.equal((await req('PUT', `/${id}`, { name: 'y' }, operator)).statusCode, 403)
    assert.equal((await req('DELETE', `/${id}`, undefined, operator)).statusCode, 403)
    assert.equal((await req('POST', '/appeal-types', { classifier_id: id, name: 'x' }, operator)).statusCode, 403)
  })

  it('classifier: create 201 with defaults, get, partial update, code unique 409', async () => {
    const res = await req('POST', '', { name: '  Обращения  ', code: 'APPEALS' })
    assert.equal(res.statusCode, 201)
    const c = res.json()
    assert.deepEqual(Object.keys(c).sort(), ['code', 'created_at', 'description', 'id', 'is_active', 'name'])
    assert.equal(c.name, 'Обращения')
    assert.equal(c.is_active, true)
    assert.equal(c.description, null)
    assert.match(c.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
    assert.deepEqual((await req('GET', `/${c.id}`)).json(), c)
    const upd = await req('PUT', `/${c.id}`, { description: 'Все обращения' })
    assert.equal(upd.json().description, 'Все обращения')
    assert.equal(upd.json().name, 'Обращения')
    assert.equal((await req('POST', '', { name: 'Другой', code: 'APPEALS' })).statusCode, 409)
    const other = await classifier()
    assert.equal((await req('PUT', `/${other.id}`, { code: 'APPEALS' })).statusCode, 409)
  })

  it('422 on missing, mistyped and out-of-range fields, with loc', async () => {
    const missing = await req('POST', '', {})
    assert.deepEqual(missing.json().detail.map((d: { loc: string[] }) => d.loc), [['body', 'name'], ['body', 'code']])
    assert.deepEqual((await req('POST', '', { name: 1, code: 'X' })).json().detail[0].loc, ['body', 'name'])
    assert.deepEqual((await req('POST', '', { name: 'x', code: 'X', is_active: 'yes' })).json().detail[0].loc, ['body', 'is_active'])
    const { id } = await classifier()
    const at = (await req('POST', '/appeal-types', { classifier_id: id, name: 'Тип' })).json()
    const cat = (await req('POST', '/categories', { appeal_type_id: at.id, name: 'Кат' })).json()
    for (const [payload, field] of [
      [{ category_id: cat.id, name: 'x', priority: 0 }, 'priority'],
      [{ category_id: cat.id, name: 'x', priority: 6 }, 'priority'],
      [{ category_id: cat.id, name: 'x', time_to_work: -1 }, 'time_to_work'],
      [{ category_id: cat.id, name: 'x', time_to_close: 1.5 }, 'time_to_close'],
      [{ category_id: cat.id, name: 'x', sort_order: -1 }, 'sort_order'],
      [{ category_id: 'one', name: 'x' }, 'category_id'],
    ] as const) {
      const res = await req('POST', '/subcategories', payload)
      assert.equal(res.statusCode, 422, JSON.stringify(payload))
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
    }
    for (const [path, field] of [['/appeal-types', 'classifier_id'], ['/categories', 'appeal_type_id'], ['/subcategories', 'category_id']]) {
      const res = await req('POST', path!, { [field!]: 999999, name: 'x' })
      assert.equal(res.statusCode, 422, path)
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
      assert.match(res.json().detail[0].msg, /does not exist/)
    }
    assert.equal((await req('GET', '/abc')).statusCode, 422)
    assert.equal((await req('GET', '/999999')).statusCode, 404)
    assert.equal((await req('PUT', '/appeal-types/999999', { name: 'x' })).statusCode, 404)
    assert.equal((await req('DELETE', '/subcategories/999999')).statusCode, 404)
    assert.equal((await req('GET', '/999999/tree')).statusCode, 404)
  })

  it('each level: create 201 with defaults, list by parent in order, partial update', async () => {
    const { id } = await classifier()
    const at = await req('POST', '/appeal-types', { classifier_id: id, name: 'Жалоба', code: 'COMPLAINT', sort_order: 2 })
    assert.equal(at.statusCode, 201)
    assert.deepEqual(Object.keys(at.json()).sort(), ['classifier_id', 'code', 'id', 'is_active', 'name', 'sort_order'])
    const first = (await req('POST', '/appeal-types', { classifier_id: id, name: 'Заявление', sort_order: 1 })).json()
    assert.equal(first.code, null)
    const list = (await req('GET', `/appeal-types?classifier_id=${id}`)).json()
    assert.deepEqual(list.map((x: { name: string }) => x.name), ['Заявление', 'Жалоба'])
    const cat = (await req('POST', '/categories', { appeal_type_id: first.id, name: 'ЖКХ' })).json()
    assert.deepEqual(Object.keys(cat).sort(), ['appeal_type_id', 'id', 'is_active', 'name', 'sort_order'])
    assert.equal(cat.sort_order, 0)
    const sub = await req('POST', '/subcategories', { category_id: cat.id, name: 'Отопление', priority: 1, time_to_work: 24, time_to_close: 72 })
    assert.equal(sub.statusCode, 201)
    assert.deepEqual(Object.keys(sub.json()).sort(), ['category_id', 'id', 'is_active', 'name', 'priority', 'sort_order', 'time_to_close', 'time_to_work'])
    const defaults = (await req('POST', '/subcategories', { category_id: cat.id, name: 'Вода' })).json()
    assert.equal(defaults.priority, 3)
    assert.equal(defaults.time_to_work, null)
    const upd = await req('PUT', `/subcategories/${sub.json().id}`, { time_to_close: 48 })
    assert.equal(upd.json().time_to_close, 48)
    assert.equal(upd.json().priority, 1)
    assert.equal((await req('GET', `/categories?appeal_type_id=${first.id}`)).json().length, 1)
    assert.equal((await req('GET', `/subcategories?category_id=${cat.id}`)).json().length, 2)
    assert.equal((await req('GET', '/subcategories?category_id=x')).statusCode, 422)
  })

  it('is_active=false hides an item from lists and the tree until include_inactive=true; true brings it back', async () => {
    const { id } = await classifier()
    const at = (await req('POST', '/appeal-types', { classifier_id: id, name: 'Тип' })).json()
    const cat = (await req('POST', '/categories', { appeal_type_id: at.id, name: 'Категория' })).json()
    const sub = (await req('POST', '/subcategories', { category_id: cat.id, name: 'Подкатегория' })).json()
    const cases: [string, number, string][] = [
      ['', id, ''],
      ['/appeal-types', at.id, `classifier_id=${id}`],
      ['/categories', cat.id, `appeal_type_id=${at.id}`],
      ['/subcategories', sub.id, `category_id=${cat.id}`],
    ]
    for (const [path, itemId, filter] of cases) {
      const ids = async (extra: string) => ((await req('GET', `${path}?${[filter, extra].filter(Boolean).join('&')}`)).json() as { id: number }[]).map((x) => x.id)
      assert.ok((await ids('')).includes(itemId), path)
      assert.equal((await req('PUT', path === '' ? `/${itemId}` : `${path}/${itemId}`, { is_active: false })).json().is_active, false)
      assert.ok(!(await ids('')).includes(itemId), `${path} hidden`)
      assert.ok((await ids('include_inactive=true')).includes(itemId), `${path} include_inactive`)
      // GET by id always answers inactive classifiers
      if (path === '') assert.equal((await req('GET', `/${itemId}`)).json().is_active, false)
      await req('PUT', path === '' ? `/${itemId}` : `${path}/${itemId}`, { is_active: true })
      assert.ok((await ids('')).includes(itemId), `${path} back`)
    }
    await req('PUT', `/subcategories/${sub.id}`, { is_active: false })
    const tree = (await req('GET', `/${id}/tree`)).json()
    assert.deepEqual(tree.appeal_types[0].categories[0].subcategories, [])
  })

  it('the tree nests the active items in order', async () => {
    const { id } = await classifier({ description: 'Дерево' })
    const types = []
    for (const [name, sort] of [['Второй', 2], ['Первый', 1], ['Скрытый', 0]] as const) {
      types.push((await req('POST', '/appeal-types', { classifier_id: id, name, sort_order: sort, is_active: name !== 'Скрытый' })).json())
    }
    const cat = (await req('POST', '/categories', { appeal_type_id: types[1].id, name: 'Категория' })).json()
    await req('POST', '/subcategories', { category_id: cat.id, name: 'Б', sort_order: 1, priority: 2 })
    await req('POST', '/subcategories', { category_id: cat.id, name: 'А', sort_order: 0 })
    const res = await req('GET', `/${id}/tree`)
    assert.equal(res.statusCode, 200)
    const tree = res.json()
    assert.equal(tree.description, 'Дерево')
    assert.deepEqual(tree.appeal_types.map((x: { name: string }) => x.name), ['Первый', 'Второй'])
    assert.deepEqual(tree.appeal_types[0].categories[0].subcategories.map((x: { name: string }) => x.name), ['А', 'Б'])
    assert.deepEqual(tree.appeal_types[1].categories, [])
  })

  it('DELETE removes a leaf and answers 409 naming the dependents otherwise', async () => {
    const { id } = await classifier()
    const at = (await req('POST', '/appeal-types', { classifier_id: id, name: 'Тип' })).json()
    const cat = (await req('POST', '/categories', { appeal_type_id: at.id, name: 'Кат' })).json()
    const sub = (await req('POST', '/subcategories', { category_id: cat.id, name: 'Под' })).json()
    for (const [path, dependents] of [[`/${id}`, /appeal types/], [`/appeal-types/${at.id}`, /categories/], [`/categories/${cat.id}`, /subcategories/]] as const) {
      const res = await req('DELETE', path)
      assert.equal(res.statusCode, 409, path)
      assert.match(res.json().detail, dependents)
    }
    for (const path of [`/subcategories/${sub.id}`, `/categories/${cat.id}`, `/appeal-types/${at.id}`, `/${id}`]) {
      const res = await req('DELETE', path)
      assert.equal(res.statusCode, 200, path)
      assert.match(res.json().message, /deleted/)
    }
    assert.equal((await req('GET', `/${id}`)).statusCode, 404)
  })
})
