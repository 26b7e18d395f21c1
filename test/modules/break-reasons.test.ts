import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

type Headers = Record<string, string>

describe('break reasons (/api/agents/break-reasons): the administrator\'s list the desk chooses from', () => {
  let t: TestApp
  let admin: Headers
  let manager: Headers
  let operator: Headers
  const url = '/api/agents/break-reasons'
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Headers, payload?: object) => t.app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) })

  before(async () => {
    t = await buildTestApp()
    const org = await makeOrganization(t.database.db)
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: org.id }))
    operator = await login(t.app, await makeUser(t.database.db, { role: 'operator', organization_id: org.id }))
  })
  after(() => t.close())

  it('comes with four reasons in ru and kk, break and lunch limited; every user reads it', async () => {
    const res = await call('GET', url, operator)
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json().map((r: { code: string, name_kk: string, max_minutes: number | null }) => [r.code, r.name_kk, r.max_minutes]),
      [['break', 'Үзіліс', 15], ['lunch', 'Түскі ас', 60], ['training', 'Оқу', null], ['meeting', 'Жиналыс', null]])
    assert.equal((await t.app.inject({ url })).statusCode, 401)
  })

  it('an administrator adds, renames and removes one; it is offered in its place', async () => {
    const created = await call('POST', url, admin, { code: 'prayer', name_ru: 'Намаз', name_kk: 'Намаз', max_minutes: 20, sort_order: 2 })
    assert.equal(created.statusCode, 201, created.body)
    assert.deepEqual(created.json(), { code: 'prayer', name_ru: 'Намаз', name_kk: 'Намаз', max_minutes: 20, sort_order: 2 })
    const renamed = await call('PUT', `${url}/prayer`, admin, { name_ru: '  Молитва  ', max_minutes: null })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.deepEqual([renamed.json().name_ru, renamed.json().max_minutes, renamed.json().name_kk], ['Молитва', null, 'Намаз'])
    assert.deepEqual((await call('GET', url, operator)).json().map((r: { code: string }) => r.code), ['break', 'lunch', 'prayer', 'training', 'meeting'])
    assert.equal((await call('DELETE', `${url}/prayer`, admin)).statusCode, 204)
    assert.equal((await call('DELETE', `${url}/prayer`, admin)).statusCode, 404)
    assert.equal((await call('PUT', `${url}/prayer`, admin, { name_ru: 'Нет' })).statusCode, 404)
  })

  it('refusals: a manager or an operator may not write (403); a code taken (409); the default reason stays (409); bad values 422 on their fields; nothing changes', async () => {
    const before = (await call('GET', url, admin)).json()
    assert.equal((await call('POST', url, manager, { code: 'smoke', name_ru: 'Курение', name_kk: 'Темекі' })).statusCode, 403)
    assert.equal((await call('DELETE', `${url}/lunch`, operator)).statusCode, 403)
    const taken = await call('POST', url, admin, { code: 'lunch', name_ru: 'Обед', name_kk: 'Түскі ас' })
    assert.equal(taken.statusCode, 409, taken.body)
    const kept = await call('DELETE', `${url}/break`, admin)
    assert.deepEqual([kept.statusCode, kept.json().code], [409, 'default_reason'])
    const cases: [object, string][] = [
      [{ code: 'offline', name_ru: 'Нет', name_kk: 'Жоқ' }, 'code'],
      [{ code: 'Обед', name_ru: 'Обед', name_kk: 'Түскі ас' }, 'code'],
      [{ code: 'long', name_ru: 'Долго', name_kk: 'Ұзақ', max_minutes: 481 }, 'max_minutes'],
      [{ code: 'zero', name_ru: 'Ноль', name_kk: 'Нөл', max_minutes: 0 }, 'max_minutes'],
      [{ code: 'blank', name_ru: '   ', name_kk: 'Бос' }, 'name_ru'],
      [{ code: 'nokk', name_ru: 'Без казахского' }, 'name_kk'],
    ]
    for (const [payload, field] of cases) {
      const res = await call('POST', url, admin, payload)
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
      assert.ok(res.json().detail.some((p: { loc: string[] }) => p.loc.slice(1).join('.') === field), `${JSON.stringify(payload)} -> ${res.body}`)
    }
    assert.equal((await call('PUT', `${url}/lunch`, admin, { max_minutes: 0 })).statusCode, 422)
    assert.deepEqual((await call('GET', url, admin)).json(), before)
  })

  it('the desk\'s break takes only a reason of the list (422 naming it), before looking for the operator\'s terminal', async () => {
    const res = await call('PUT', '/api/agents/me', operator, { state: 'break', reason: 'smoking' })
    assert.equal(res.statusCode, 422, res.body)
    const [problem] = res.json().detail
    assert.deepEqual([problem.loc, problem.type], [['body', 'reason'], 'unknown_reason'])
    assert.match(problem.msg, /break, lunch, training, meeting/)
    // a reason of the list goes on to the terminal: this operator has none
    assert.equal((await call('PUT', '/api/agents/me', operator, { state: 'break', reason: 'lunch' })).json().code, 'no_terminal')
  })
})
