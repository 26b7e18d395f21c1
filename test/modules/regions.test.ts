import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { makeOrganization } from '../helpers/factories.js'

for (const base of ['/api/regions', '/api/shared/regions']) {
  describe(`regions (${base})`, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp() })
    after(() => t.close())

    const create = (payload: object) => t.app.inject({ method: 'POST', url: base, payload })
    const put = (id: number, payload: object) => t.app.inject({ method: 'PUT', url: `${base}/${id}`, payload })
    const oblast = async (name: string, code = '7172') => {
      const res = await create({ name, phone_code: code })
      assert.equal(res.statusCode, 200, res.body)
      return res.json() as { id: number, name: string }
    }

    it('create (200) derives zone and local digits; get answers every RegionResponse field', async () => {
      const res = await create({ name: 'город Астана', phone_code: '7172', is_regional_center: false })
      assert.equal(res.statusCode, 200)
      const r = res.json()
      assert.deepEqual({ ...r, id: 0 }, {
        id: 0, name: 'город Астана', phone_code: '7172', phone_zone: '717', parent_id: null, parent_name: null,
        full_phone_code: '+77172', sort_order: 0, is_active: true, local_digits: 6, is_regional_center: false,
      })
      assert.deepEqual((await t.app.inject({ url: `${base}/${r.id}` })).json(), r)
      const child = (await create({ name: 'район Есиль', parent_id: r.id })).json()
      assert.equal(child.parent_name, 'город Астана')
      assert.equal(child.full_phone_code, '+77172')
      assert.equal(child.phone_code, null)
    })

    it('phone rules: digits only, zone 710-729 and a prefix of the code, code + local digits = 10', async () => {
      const cases: [object, string][] = [
        [{ phone_code: '72a3' }, 'phone_code'],
        [{ phone_code: '+77172' }, 'phone_code'],
        [{ phone_code: '8172' }, 'phone_code'],
        [{ phone_code: '7172', phone_zone: '727' }, 'phone_zone'],
        [{ phone_zone: '701' }, 'phone_zone'],
        [{ phone_code: '72533', local_digits: 6 }, 'local_digits'],
        [{ phone_code: '727', local_digits: 4 }, 'local_digits'],
      ]
      for (const [fields, field] of cases) {
        const res = await create({ name: `Проверка ${JSON.stringify(fields)}`, ...fields })
        assert.equal(res.statusCode, 422, JSON.stringify(fields))
        assert.ok(res.json().detail.some((d: { loc: string[] }) => d.loc[1] === field), `${JSON.stringify(fields)}: ${res.body}`)
      }
      const turkistan = (await create({ name: 'Туркестан', phone_code: '72533' })).json()
      assert.deepEqual([turkistan.phone_zone, turkistan.local_digits], ['725', 5])
      const almaty = (await create({ name: 'Алматы', phone_code: '727', local_digits: 7 })).json()
      assert.equal(almaty.full_phone_code, '+7727')
    })

    it('422 for missing name, unknown parent, wrong types; 404 for unknown ids; 409 for a duplicate name under one parent', async () => {
      assert.deepEqual((await create({})).json().detail[0].loc, ['body', 'name'])
      const unknownParent = await create({ name: 'x', parent_id: 999999 })
      assert.equal(unknownParent.statusCode, 422)
      assert.deepEqual(unknownParent.json().detail[0].loc, ['body', 'parent_id'])
      assert.equal((await create({ name: 'x', local_digits: '6' })).statusCode, 422)
      assert.equal((await t.app.inject({ url: `${base}/abc` })).statusCode, 422)
      assert.equal((await t.app.inject({ url: `${base}/999999` })).statusCode, 404)
      assert.equal((await put(999999, { name: 'x' })).statusCode, 404)
      assert.equal((await t.app.inject({ method: 'DELETE', url: `${base}/999999` })).statusCode, 404)
      const top = await oblast('Дубль')
      assert.equal((await create({ name: 'Дубль' })).statusCode, 409, 'two top-level regions with one name')
      await create({ name: 'Город', parent_id: top.id })
      assert.equal((await create({ name: 'Город', parent_id: top.id })).statusCode, 409)
      const other = await oblast('Другая')
      assert.equal((await create({ name: 'Город', parent_id: other.id })).statusCode, 200, 'the same name under another parent')
    })

    it('update needs the name, keeps what is not sent, and cannot make a region its own ancestor', async () => {
      const top = await oblast('Область для правки', '7182')
      const child = (await create({ name: 'Город', parent_id: top.id })).json()
      const grandchild = (await create({ name: 'Район', parent_id: child.id })).json()
      assert.deepEqual((await put(top.id, {})).json().detail[0].loc, ['body', 'name'])
      const upd = await put(top.id, { name: 'Павлодарская область', is_regional_center: true })
      assert.equal(upd.statusCode, 200)
      assert.equal(upd.json().phone_code, '7182')
      assert.equal(upd.json().is_regional_center, true)
      for (const parent of [top.id, child.id, grandchild.id]) {
        const res = await put(top.id, { name: 'Павлодарская область', parent_id: parent })
        assert.equal(res.statusCode, 422, String(parent))
        assert.deepEqual(res.json().detail[0].loc, ['body', 'parent_id'])
      }
      const moved = await put(grandchild.id, { name: 'Район', parent_id: top.id })
      assert.equal(moved.json().parent_name, 'Павлодарская область')
      const recoded = await put(top.id, { name: 'Павлодарская область', phone_code: '7187' })
      assert.deepEqual([recoded.json().phone_zone, recoded.json().local_digits], ['718', 6])
    })

    it('lists filter by parent_id, top_level and include_inactive; the tree nests in order and hides inactive branches', async () => {
      const top = await oblast('Фильтры')
      const a = (await create({ name: 'Б-город', parent_id: top.id })).json()
      const b = (await create({ name: 'А-город', parent_id: top.id })).json()
      const ids = async (qs: string) => ((await t.app.inject({ url: `${base}${qs}` })).json() as { id: number }[]).map((r) => r.id)
      assert.deepEqual(await ids(`?parent_id=${top.id}`), [a.id, b.id], 'creation order is the initial order')
      assert.ok((await ids('?top_level=true')).includes(top.id))
      assert.ok(!(await ids('?top_level=true')).includes(a.id))
      await put(a.id, { name: 'Б-город', is_active: false })
      assert.deepEqual(await ids(`?parent_id=${top.id}`), [b.id])
      assert.deepEqual(await ids(`?parent_id=${top.id}&include_inactive=true`), [a.id, b.id])
      assert.equal((await t.app.inject({ url: `${base}/${a.id}` })).json().is_active, false, 'GET by id answers inactive items')
      const tree = (await t.app.inject({ url: `${base}/tree` })).json() as { id: number, children: { id: number }[], phone_code: string }[]
      const node = tree.find((r) => r.id === top.id)!
      assert.deepEqual(node.children.map((c) => c.id), [b.id])
      assert.deepEqual(Object.keys(node).sort(), ['children', 'id', 'is_active', 'name', 'phone_code', 'phone_zone'])
      const full = (await t.app.inject({ url: `${base}/tree?include_inactive=true` })).json() as typeof tree
      assert.deepEqual(full.find((r) => r.id === top.id)!.children.map((c) => c.id), [a.id, b.id])
      await put(a.id, { name: 'Б-город', is_active: true })
      assert.deepEqual(await ids(`?parent_id=${top.id}`), [a.id, b.id])
      assert.equal((await t.app.inject({ url: `${base}?parent_id=x` })).statusCode, 422)
      assert.equal((await t.app.inject({ url: `${base}?top_level=maybe` })).statusCode, 422)
    })

    it('reorder: the given siblings first, in order; different parents, unknown ids, duplicates and empty lists are 422', async () => {
      const top = await oblast('Порядок')
      const [x, y, z] = [(await create({ name: 'X', parent_id: top.id })).json(), (await create({ name: 'Y', parent_id: top.id })).json(), (await create({ name: 'Z', parent_id: top.id })).json()]
      const reorder = (region_ids: unknown) => t.app.inject({ method: 'PUT', url: `${base}/reorder`, payload: { region_ids } })
      const res = await reorder([z.id, x.id])
      assert.equal(res.statusCode, 200)
      const order = async () => ((await t.app.inject({ url: `${base}?parent_id=${top.id}` })).json() as { id: number }[]).map((r) => r.id)
      assert.deepEqual(await order(), [z.id, x.id, y.id])
      await reorder([y.id, x.id, z.id])
      assert.deepEqual(await order(), [y.id, x.id, z.id])
      const other = await oblast('Чужая')
      for (const bad of [[x.id, other.id], [x.id, 999999], [x.id, x.id], [], 'x', [0]]) {
        const r = await reorder(bad)
        assert.equal(r.statusCode, 422, JSON.stringify(bad))
        assert.equal(r.json().detail[0].loc[1], 'region_ids')
      }
      assert.deepEqual(await order(), [y.id, x.id, z.id], 'a refused reorder changes nothing')
    })

    it('DELETE removes a leaf; 409 while it has children or organizations', async () => {
      const top = await oblast('Удаление')
      const child = (await create({ name: 'Дочерний', parent_id: top.id })).json()
      const withChildren = await t.app.inject({ method: 'DELETE', url: `${base}/${top.id}` })
      assert.equal(withChildren.statusCode, 409)
      assert.match(withChildren.json().detail, /child regions/)
      await makeOrganization(t.database.db, { region_id: child.id })
      const withOrg = await t.app.inject({ method: 'DELETE', url: `${base}/${child.id}` })
      assert.equal(withOrg.statusCode, 409)
      assert.match(withOrg.json().detail, /organizations/)
      const leaf = (await create({ name: 'Лист', parent_id: top.id })).json()
      assert.equal((await t.app.inject({ method: 'DELETE', url: `${base}/${leaf.id}` })).statusCode, 200)
      assert.equal((await t.app.inject({ url: `${base}/${leaf.id}` })).statusCode, 404)
    })
  })
}
