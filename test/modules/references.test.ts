import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { selectRows } from '../../src/db/client.js'
import { seedReferenceData } from '../../src/db/seed/index.js'
import { countTrigrams, createNameTrigrams, rarestTrigrams, trigramsOf } from '../../src/modules/references/name-trigrams.js'
import { personSearchStatement } from '../../src/modules/references/repo.js'
import { personQuery } from '../../src/modules/references/service.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

describe('references (/api/references)', () => {
  let t: TestApp
  let admin: Record<string, string>
  before(async () => {
    t = await buildTestApp()
    await seedReferenceData(t.database.db)
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
  })
  after(() => t.close())

  const get = (url: string) => t.app.inject({ url: `/api/references${url}` })
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url: `/api/references${url}`, payload })

  for (const [path, first] of [['/sources', 'Телефон 109'], ['/response-methods', 'Телефонный звонок']] as const) {
    it(`${path}: seeded list, rename, (de)activate, 404, 422, delete`, async () => {
      const list = (await get(path)).json() as { id: number, name: string, is_active: boolean }[]
      assert.equal(list[0]!.name, first)
      assert.deepEqual(Object.keys(list[0]!).sort(), ['id', 'is_active', 'name'])
      const item = list[1]!
      const renamed = await send('PUT', `${path}/${item.id}`, { name: '  Новое имя ' })
      assert.equal(renamed.statusCode, 200)
      assert.deepEqual(renamed.json(), { id: item.id, name: 'Новое имя', is_active: true })
      await send('PUT', `${path}/${item.id}`, { is_active: false })
      assert.ok(!(await get(path)).json().some((x: { id: number }) => x.id === item.id))
      assert.ok((await get(`${path}?include_inactive=true`)).json().some((x: { id: number }) => x.id === item.id))
      await send('PUT', `${path}/${item.id}`, { is_active: true })
      assert.ok((await get(path)).json().some((x: { id: number }) => x.id === item.id))
      assert.equal((await send('PUT', `${path}/999999`, { name: 'x' })).statusCode, 404)
      assert.equal((await send('PUT', `${path}/${item.id}`, { name: '' })).statusCode, 422)
      assert.equal((await send('PUT', `${path}/${item.id}`, { is_active: 'no' })).statusCode, 422)
      assert.equal((await send('PUT', `${path}/${list[0]!.id}`, { name: 'Новое имя' })).statusCode, 409)
      assert.equal((await send('POST', path, { name: 'x' })).statusCode, 405, 'no create route: they come from the seed')
      assert.equal((await send('DELETE', `${path}/${item.id}`)).statusCode, 200)
      assert.equal((await send('DELETE', `${path}/${item.id}`)).statusCode, 404)
    })
  }

  it('appeal types, categories (with the highest subcategory priority) and subcategories: active items only', async () => {
    const types = (await get('/appeal-types')).json() as { id: number, name: string }[]
    assert.deepEqual(types.map((x) => x.name), ['Заявление', 'Жалоба', 'Предложение', 'Отклик', 'Запрос', 'Сообщение'])
    assert.deepEqual(Object.keys(types[0]!).sort(), ['id', 'name'])
    const call = (method: 'POST' | 'PUT', url: string, payload: object) => t.app.inject({ method, url: `/api/classifiers${url}`, headers: admin, payload })
    const cat = (await call('POST', '/categories', { appeal_type_id: types[1]!.id, name: 'Коммунальные услуги' })).json()
    const empty = (await call('POST', '/categories', { appeal_type_id: types[1]!.id, name: 'Пустая' })).json()
    await call('POST', '/subcategories', { category_id: cat.id, name: 'Отопление', priority: 2 })
    const urgent = (await call('POST', '/subcategories', { category_id: cat.id, name: 'Авария', priority: 1 })).json()
    const cats = (await get(`/categories?appeal_type_id=${types[1]!.id}`)).json()
    assert.deepEqual(cats.find((c: { id: number }) => c.id === cat.id), { id: cat.id, name: 'Коммунальные услуги', appeal_type_id: types[1]!.id, priority: 1 })
    assert.equal(cats.find((c: { id: number }) => c.id === empty.id).priority, null)
    await call('PUT', `/subcategories/${urgent.id}`, { is_active: false })
    assert.equal((await get(`/categories?appeal_type_id=${types[1]!.id}`)).json().find((c: { id: number }) => c.id === cat.id).priority, 2)
    const subs = (await get(`/subcategories?category_id=${cat.id}`)).json()
    assert.deepEqual(subs.map((s: { name: string }) => s.name), ['Отопление'])
    assert.deepEqual(Object.keys(subs[0]).sort(), ['category_id', 'id', 'name', 'priority'])
    await call('PUT', `/appeal-types/${types[5]!.id}`, { is_active: false })
    assert.ok(!(await get('/appeal-types')).json().some((x: { id: number }) => x.id === types[5]!.id))
    assert.equal((await get('/categories?appeal_type_id=abc')).statusCode, 422)
  })

  it('regions: RegionItem with full_phone_code inherited from the nearest ancestor', async () => {
    const items = (await get('/regions')).json() as { id: number, name: string, phone_code: string | null, parent_id: number | null, full_phone_code: string | null }[]
    assert.equal(items.length, 98)
    const astana = items.find((r) => r.name === 'город Астана')!
    assert.equal(astana.full_phone_code, '+77172')
    assert.equal(items.find((r) => r.name === 'город Алматы')!.full_phone_code, '+7727')
    assert.equal(items.find((r) => r.name === 'Туркестанская область')!.full_phone_code, '+772533')
    const child = await t.app.inject({ method: 'POST', url: '/api/regions', payload: { name: 'Новый микрорайон', parent_id: astana.id } })
    const inherited = (await get('/regions')).json().find((r: { id: number }) => r.id === child.json().id)
    assert.equal(inherited.phone_code, null)
    assert.equal(inherited.full_phone_code, '+77172')
  })

  it('organizations: active ones, filtered by region', async () => {
    const region = (await get('/regions')).json()[0]
    const org = await makeOrganization(t.database.db, { region_id: region.id, name: 'Акимат области Абай' })
    await makeOrganization(t.database.db, { region_id: region.id, is_active: false })
    const list = (await get(`/organizations?region_id=${region.id}`)).json()
    assert.deepEqual(list, [{ id: org.id, name: 'Акимат области Абай', region_id: region.id }])
    assert.ok((await get('/organizations')).json().length >= 1)
    assert.equal((await get('/organizations?region_id=0')).statusCode, 422)
  })

  it('Kazakh names (the console\'s): the seeded ones listed to a user; set, trimmed and cleared by an admin; the cached list follows', async () => {
    const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator' }))
    const names = async (list: string, headers = operator) => {
      const res = await t.app.inject({ url: `/api/references/kazakh-names/${list}`, headers })
      assert.equal(res.statusCode, 200)
      return new Map((res.json() as { id: number, name_kk: string }[]).map((n) => [n.id, n.name_kk]))
    }
    const name = (list: string, id: number | string, payload: object, headers = admin) =>
      t.app.inject({ method: 'PUT', url: `/api/references/kazakh-names/${list}/${id}`, headers, payload })
    const phone = (await get('/sources')).json().find((s: { name: string }) => s.name === 'Телефон 109')
    const letter = (await get('/response-methods')).json().find((s: { name: string }) => s.name === 'Бумажное письмо')
    const abai = (await t.app.inject({ url: '/api/regions?top_level=true' })).json().find((r: { name: string }) => r.name === 'область Абай')
    assert.equal((await names('sources')).get(phone.id), '109 телефоны')
    assert.equal((await names('response-methods')).get(letter.id), 'Қағаз хат')
    assert.equal((await names('regions')).get(abai.id), 'Абай облысы')

    // the list was read (and kept) above: the write must show at once
    const set = await name('sources', phone.id, { name_kk: '  Сенім телефоны 109 ' })
    assert.equal(set.statusCode, 200)
    assert.deepEqual(set.json(), { id: phone.id, name: 'Телефон 109', name_kk: 'Сенім телефоны 109' })
    assert.equal((await names('sources')).get(phone.id), 'Сенім телефоны 109')
    assert.deepEqual((await get('/sources')).json().find((s: { id: number }) => s.id === phone.id), { id: phone.id, name: 'Телефон 109', is_active: true }, 'the interface\'s shape keeps its fields')
    assert.deepEqual((await name('regions', abai.id, { name_kk: null })).json(), { id: abai.id, name: 'область Абай', name_kk: null })
    assert.equal((await names('regions')).has(abai.id), false)
    assert.equal((await name('regions', abai.id, { name_kk: 'Абай облысы' })).statusCode, 200)

    // refusals: nothing changes
    const refused = [
      [await t.app.inject({ url: '/api/references/kazakh-names/sources' }), 401],
      [await name('sources', phone.id, { name_kk: 'x' }, {}), 401],
      [await name('sources', phone.id, { name_kk: 'x' }, operator), 403],
      [await name('sources', 999999, { name_kk: 'x' }), 404],
      [await name('persons', 1, { name_kk: 'x' }), 404],
      [await name('sources', 0, { name_kk: 'x' }), 422],
      [await name('sources', phone.id, { name_kk: '   ' }), 422],
      [await name('sources', phone.id, { name_kk: 'ы'.repeat(256) }), 422],
      [await name('sources', phone.id, {}), 422],
      [await name('sources', phone.id, { name_kk: 5 }), 422],
    ] as const
    assert.deepEqual(refused.map(([res]) => res.statusCode), refused.map(([, status]) => status))
    const blank = refused[6]![0].json()
    assert.deepEqual(blank.detail.map((d: { loc: unknown[] }) => d.loc), [['body', 'name_kk']])
    assert.equal(refused[3]![0].json().detail, 'Source not found')
    assert.equal((await names('sources')).get(phone.id), 'Сенім телефоны 109')
  })

  it('Kazakh names of the classifier items: the law\'s appeal types seeded; categories and subcategories named by an admin; the cached tree keeps its shape', async () => {
    const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator' }))
    const names = async (list: string) => {
      const res = await t.app.inject({ url: `/api/references/kazakh-names/${list}`, headers: operator })
      assert.equal(res.statusCode, 200)
      return new Map((res.json() as { id: number, name_kk: string }[]).map((n) => [n.id, n.name_kk]))
    }
    const name = (list: string, id: number, payload: object, headers = admin) =>
      t.app.inject({ method: 'PUT', url: `/api/references/kazakh-names/${list}/${id}`, headers, payload })
    const post = async (path: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/classifiers/${path}`, headers: admin, payload })
      assert.equal(res.statusCode, 201, res.body)
      return res.json() as { id: number }
    }
    const classifier = (await t.app.inject({ url: '/api/classifiers', headers: admin })).json().find((c: { code: string }) => c.code === 'DEFAULT')
    const complaint = (await get('/appeal-types')).json().find((a: { name: string }) => a.name === 'Жалоба')
    assert.equal((await names('classifiers')).get(classifier.id), 'Өтініштер жіктеуіші')
    assert.equal((await names('appeal-types')).get(complaint.id), 'Шағым')
    assert.equal((await names('appeal-types')).size, 6)

    const water = await post('categories', { appeal_type_id: complaint.id, name: 'Водоснабжение' })
    const outage = await post('subcategories', { category_id: water.id, name: 'Нет воды', priority: 1 })
    const tree = async () => (await t.app.inject({ url: `/api/classifiers/${classifier.id}/tree`, headers: admin })).json()
    const treeBefore = await tree()
    assert.equal((await names('categories')).has(water.id), false)
    // both lists were read (and kept) above: the writes must show at once
    assert.deepEqual((await name('categories', water.id, { name_kk: ' Сумен жабдықтау ' })).json(), { id: water.id, name: 'Водоснабжение', name_kk: 'Сумен жабдықтау' })
    assert.equal((await name('subcategories', outage.id, { name_kk: 'Су жоқ' })).statusCode, 200)
    assert.equal((await names('categories')).get(water.id), 'Сумен жабдықтау')
    assert.equal((await names('subcategories')).get(outage.id), 'Су жоқ')
    assert.deepEqual(await tree(), treeBefore, 'the interface\'s tree names each item once, as before')
    assert.deepEqual((await get(`/subcategories?category_id=${water.id}`)).json(), [{ id: outage.id, name: 'Нет воды', category_id: water.id, priority: 1 }])

    // refusals: nothing changes
    const refused = [
      [await name('categories', water.id, { name_kk: 'x' }, operator), 403],
      [await name('categories', 999999, { name_kk: 'x' }), 404],
      [await name('subcategories', outage.id, { name_kk: '' }), 422],
      [await name('appeal-types', complaint.id, { name_kk: 'ы'.repeat(256) }), 422],
    ] as const
    assert.deepEqual(refused.map(([res]) => res.statusCode), refused.map(([, status]) => status))
    assert.equal(refused[1]![0].json().detail, 'Category not found')
    assert.equal((await names('categories')).get(water.id), 'Сумен жабдықтау')
    assert.equal((await names('subcategories')).get(outage.id), 'Су жоқ')
    assert.equal((await names('appeal-types')).get(complaint.id), 'Шағым')
    // cleared: listed no more
    assert.equal((await name('subcategories', outage.id, { name_kk: null })).statusCode, 200)
    assert.equal((await names('subcategories')).has(outage.id), false)
  })
})

describe('persons (/api/references/persons)', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp() })
  after(() => t.close())

  const create = (payload: object) => t.app.inject({ method: 'POST', url: '/api/references/persons', payload })
  const search = async (q: string, extra = '') => (await t.app.inject({ url: `/api/references/persons?q=${encodeURIComponent(q)}${extra}` })).json() as { id: number, full_name: string }[]

  it('POST creates (200) with a valid IIN, the phone normalised and the e-mail lower-cased', async () => {
    const res = await create({ full_name: ' Серикова Алия Маратовна ', iin: '061211600012', phone: '8 (7172) 55-44-33', email: 'Aliya@Mail.KZ' })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual({ ...(res.json() as object), id: 0 }, { id: 0, full_name: 'Серикова Алия Маратовна', iin: '061211600012', phone: '+77172554433', email: 'aliya@mail.kz', is_active: true })
    for (const phone of ['+7 701 123 45 67', '87011234568', '7011234569']) {
      const p = await create({ full_name: 'Телефон', phone })
      assert.equal(p.statusCode, 200, phone)
      assert.match(p.json().phone, /^\+7701123456[789]$/)
    }
  })

  it('422 for a bad IIN (check digit, date, length), phone, e-mail, missing name; every problem at once', async () => {
    for (const iin of ['821214240092', '061311600012', '06121160001', 'abcdefghijkl']) {
      const res = await create({ full_name: 'Х', iin })
      assert.equal(res.statusCode, 422, iin)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'iin'])
    }
    const all = await create({ full_name: 'Х', iin: '821214240092', phone: '123', email: 'nope' })
    assert.deepEqual(all.json().detail.map((d: { loc: string[] }) => d.loc[1]), ['iin', 'phone', 'email'])
    assert.deepEqual((await create({})).json().detail[0].loc, ['body', 'full_name'])
    assert.equal((await create({ full_name: 'Х', iin: 791028302728 })).statusCode, 422, 'a number is not a string')
  })

  it('409 for an IIN that already exists; update, deactivate, delete, 404', async () => {
    const p = (await create({ full_name: 'Ахметов Данияр', iin: '791028302728' })).json()
    assert.equal((await create({ full_name: 'Другой', iin: '791028302728' })).statusCode, 409)
    const upd = await t.app.inject({ method: 'PUT', url: `/api/references/persons/${p.id}`, payload: { phone: '87019998877' } })
    assert.equal(upd.statusCode, 200)
    assert.equal(upd.json().phone, '+77019998877')
    assert.equal(upd.json().iin, '791028302728')
    await t.app.inject({ method: 'PUT', url: `/api/references/persons/${p.id}`, payload: { is_active: false } })
    assert.ok(!(await search('Данияр')).some((x) => x.id === p.id))
    assert.ok((await search('Данияр', '&include_inactive=true')).some((x) => x.id === p.id))
    await t.app.inject({ method: 'PUT', url: `/api/references/persons/${p.id}`, payload: { is_active: true } })
    assert.ok((await search('Данияр')).some((x) => x.id === p.id))
    assert.equal((await t.app.inject({ method: 'PUT', url: '/api/references/persons/999999', payload: { full_name: 'x' } })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/references/persons/${p.id}`, payload: { iin: '821214240092' } })).statusCode, 422)
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/references/persons/${p.id}` })).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/references/persons/${p.id}` })).statusCode, 404)
  })

  it('q matches name and e-mail substrings case-insensitively and digits of IIN and phone; exact IIN or phone ranks first', async () => {
    const a = (await create({ full_name: 'Жанибеков Ерлан', phone: '+77051112233', email: 'erlan.zh@gov.kz' })).json()
    const b = (await create({ full_name: 'Ерлан Жанибек', phone: '+77771112233' })).json()
    assert.deepEqual((await search('ЖАНИБЕК')).map((x) => x.id).sort(), [a.id, b.id].sort())
    assert.deepEqual((await search('zh@gov')).map((x) => x.id), [a.id])
    assert.deepEqual((await search('1112233')).map((x) => x.id).sort(), [a.id, b.id].sort())
    assert.deepEqual((await search('8 777 111 22 33'))[0]!.id, b.id, 'exact phone first, written with 8')
    assert.deepEqual((await search('87771112233')).map((x) => x.id)[0], b.id)
    const iinPerson = (await create({ full_name: 'ИИН Тестов', iin: '791028302728' })).json()
    assert.equal((await search('791028302728'))[0]!.id, iinPerson.id)
    assert.deepEqual((await search('100%')).length, 0, 'pattern characters are literal')
    assert.equal((await search('Ерлан')).length, 2)
    assert.equal((await search('Ерлан', '&limit=1')).length, 1)
    assert.equal((await t.app.inject({ url: '/api/references/persons?limit=0' })).statusCode, 422)
    assert.equal((await t.app.inject({ url: `/api/references/persons?q=${'x'.repeat(101)}` })).statusCode, 422)
  })
})

describe('persons search: ranking and plans (/api/references/persons)', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp() })
  after(() => t.close())

  const create = async (payload: object) => ((await t.app.inject({ method: 'POST', url: '/api/references/persons', payload })).json() as { id: number }).id
  const names = async (q: string) => ((await t.app.inject({ url: `/api/references/persons?q=${encodeURIComponent(q)}` })).json() as { full_name: string }[]).map((p) => p.full_name)

  it('ranks the exact IIN or phone first, then whole-word name matches, names starting with the text, then partial words', async () => {
    for (const full_name of ['Петров Иванович', 'Иванова Мария', 'Сергей Иванов', 'Иванов Иван', 'Иван Петров']) await create({ full_name })
    await create({ full_name: 'Абенов Ерлан', phone: '+77011234567' })
    await create({ full_name: 'Жумабаев Арман', phone: '+77021234567' })
    assert.deepEqual(await names('иванов'), ['Иванов Иван', 'Сергей Иванов', 'Иванова Мария', 'Петров Иванович'])
    assert.deepEqual(await names('Иван'), ['Иван Петров', 'Иванов Иван', 'Сергей Иванов', 'Иванова Мария', 'Петров Иванович'])
    assert.deepEqual(await names('8 702 123 45 67'), ['Жумабаев Арман'])
    assert.deepEqual(await names('1234567'), ['Абенов Ерлан', 'Жумабаев Арман'])
    assert.deepEqual((await names('+7 702 123 45 67'))[0], 'Жумабаев Арман')
  })

  it('several words: whole-word matches, then substrings only while they are fewer than the limit', async () => {
    for (const full_name of ['Омаров Айдар Серикович', 'Касымов Айдар Серикович', 'Байдар Сериковичев', 'Айдар Серикович-Кызы', 'Айдар Серик Ович']) await create({ full_name })
    const found = async (q: string, limit: number) => ((await t.app.inject({ url: `/api/references/persons?q=${encodeURIComponent(q)}&limit=${limit}` })).json() as { full_name: string }[]).map((p) => p.full_name)
    // two whole-word matches (the hyphenated patronymic holds "серикович" as a word), then the substring
    assert.deepEqual(await found('Айдар Серикович', 10), ['Айдар Серикович-Кызы', 'Касымов Айдар Серикович', 'Омаров Айдар Серикович', 'Байдар Сериковичев'])
    assert.deepEqual(await found('айдар серикович', 3), ['Айдар Серикович-Кызы', 'Касымов Айдар Серикович', 'Омаров Айдар Серикович'])
    assert.deepEqual(await found('дар серик', 10), ['Айдар Серик Ович', 'Айдар Серикович-Кызы', 'Касымов Айдар Серикович', 'Омаров Айдар Серикович', 'Байдар Сериковичев'])
    assert.deepEqual(await found('Серикович Айдар', 10), [], 'the words stand together as typed')
    assert.deepEqual(await found('о\'мар айдар', 10), [])
    assert.deepEqual(await found('ров айдар серикович', 10), ['Омаров Айдар Серикович'], 'a word\'s end and whole words')
  })

  it('every way of matching runs on an index: EXPLAIN over 100,000 persons', async () => {
    await t.database.db.execute(sql`insert into persons (full_name, iin, phone, email)
      select (array['Ахметов','Сулейменова','Ким','Омаров'])[1 + i % 4] || ' ' || (array['Айдар','Мадина','Сергей','Асель','Ерлан'])[1 + i % 5] || ' ' || i,
        lpad((300000000000 + i * 7919)::text, 12, '0'), '+7705' || lpad((i * 104729 % 10000000)::text, 7, '0'), case when i % 3 = 0 then 'p' || i || '@mail.kz' end
      from generate_series(1::bigint, 100000) i`)
    await t.database.db.execute(sql`analyze persons`)
    const plan = async (q: string) => {
      const rows = await selectRows<{ 'QUERY PLAN': string }>(t.database.db, sql`explain ${personSearchStatement({ ...personQuery(q), includeInactive: false, limit: 50 })}`)
      return rows.map((r) => r['QUERY PLAN']).join('\n')
    }
    const cases: [string, RegExp[]][] = [
      ['ахметов айдар', [/persons_name_prefix_idx/, /persons_full_name_words/, /persons_full_name_trgm/]],
      ['ерлан 1999', [/persons_full_name_trgm/, /persons_name_prefix_idx/]],
      ['ахметов', [/persons_name_prefix_idx/, /persons_pkey/]],
      ['p2999', [/persons_email_trgm/]],
      ['300000791900', [/persons_iin_unique/, /persons_phone_idx/]],
      ['8 705 123 45 67', [/persons_iin_unique/, /persons_phone_idx/]],
      ['30000791', [/persons_iin_trgm/, /persons_phone_trgm/]],
    ]
    for (const [q, indexes] of cases) {
      const text = await plan(q)
      assert.doesNotMatch(text, /Seq Scan/, `${q}:\n${text}`)
      for (const index of indexes) assert.match(text, index, `${q}:\n${text}`)
    }

    // several words: the trigram search runs only when the whole words are fewer than the limit
    const scansRun = async (q: string) => {
      const rows = await selectRows<{ 'QUERY PLAN': string }>(t.database.db,
        sql`explain (analyze, costs off, timing off, summary off) ${personSearchStatement({ ...personQuery(q), includeInactive: false, limit: 50 })}`)
      return rows.map((r) => r['QUERY PLAN']).filter((line) => /Index Scan/.test(line) && !/never executed/.test(line)).map((line) => /(?:using|Index Scan on) (\w+)/.exec(line)![1]).sort()
    }
    assert.deepEqual(await scansRun('ахметов айдар'), ['persons_full_name_words', 'persons_name_prefix_idx'])
    assert.deepEqual(await scansRun('ахметов айдар 1999'), ['persons_full_name_trgm', 'persons_full_name_words', 'persons_name_prefix_idx'])
  })
})

describe('name trigrams: the probes of a several-word search', () => {
  const counts = countTrigrams(['Нурланов Болат Болатович', 'Ахметова Айгерим Болатовна', 'Ахметов Болат Нурланович'])

  it('counts each trigram once per name, inside words, lower-cased', () => {
    assert.equal(counts.get('бол'), 3)
    assert.equal(counts.get('ови'), 2)
    assert.equal(counts.get('в б'), undefined)
    assert.deepEqual(trigramsOf("о'нил-ов 12"), ['нил'])
  })

  it('reads the rarest trigrams of each word, not those a word before it took', () => {
    assert.deepEqual(rarestTrigrams('болатович', counts), ['ато', 'ови'])
    assert.deepEqual(rarestTrigrams('болатовна', counts), ['овн', 'вна'])
    assert.deepEqual(rarestTrigrams('болатовна', counts, new Set(['овн', 'вна'])), ['ато', 'бол'])
    assert.deepEqual(rarestTrigrams('айгерим', counts), ['айг', 'йге'], 'a tie goes to the earliest')
    assert.deepEqual(rarestTrigrams('ахмедов', counts), ['мед', 'едо'], 'unseen trigrams first')
  })

  it('counts in the background on first use, hourly after, and a minute after a failure', async () => {
    let clock = 0
    let loads = 0
    let fail = true
    const trigrams = createNameTrigrams({ now: () => clock, loadNames: async () => { loads++; if (fail) throw new Error('database away'); return ['ахметов айдар', 'ахметов ерлан'] } })
    assert.deepEqual(trigrams.probesOf('ахметов', new Set()), ['ахм', 'хме'], 'nothing counted yet: the first trigrams')
    await trigrams.recount()
    assert.equal(loads, 1, 'the first search started the count; recount joined it')
    fail = false
    clock = 59_000
    trigrams.probesOf('ахметов', new Set())
    assert.equal(loads, 1)
    clock = 61_000
    assert.deepEqual(trigrams.probesOf('ахмедов', new Set()), ['ахм', 'хме'])
    await trigrams.recount()
    assert.equal(loads, 2)
    assert.deepEqual(trigrams.probesOf('ахмедов', new Set()), ['мед', 'едо'], 'counted: the unseen trigrams')
    clock += 3_600_000
    trigrams.probesOf('ахмедов', new Set())
    await trigrams.recount()
    assert.equal(loads, 3)
  })
})
