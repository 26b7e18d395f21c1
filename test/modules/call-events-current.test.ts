import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { calls } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('the call going on: a reloaded desk finds its caller again (GET /api/call-events/current)', () => {
  let t: TestApp
  let admin: Record<string, string>
  let operator: Record<string, string>
  let other: Record<string, string>

  before(async () => {
    t = await buildTestApp()
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    const org = await makeOrganization(t.database.db, { prefix: '301' })
    const op = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
    const op2 = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
    operator = await login(t.app, op)
    other = await login(t.app, op2)
    for (const [extension, employee] of [['001', op.id], ['002', op2.id]] as const) {
      const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: 'Оператор', extension, password: PASSWORD, employee_id: employee } })
      assert.equal(res.statusCode, 201, res.body)
    }
  })
  after(() => t.close())

  const current = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/call-events/current', headers })
  const answered = (phone: string) => t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '301001', caller_phone: phone, call_datetime: new Date().toISOString() } })
  const chunk = (callId: string, text: string, isFinal = false) => t.app.inject({
    method: 'POST', url: '/api/call-events/transcription', payload: { call_id: callId, operator_num: '301001', channel: 'caller', chunk_text: text, full_text: text, is_final: isFinal },
  })

  it('204 without a call; 401 without a token', async () => {
    assert.equal((await current(operator)).statusCode, 204)
    const anonymous = await current({})
    assert.equal(anonymous.statusCode, 401)
    assert.equal(anonymous.json().detail, 'Not authenticated')
  })

  it('the call as the pop told it: the caller, the earlier calls, the transcript so far; the person registered meanwhile is found', async () => {
    // an earlier call from the number, closed
    const earlier = (await answered('87019990001')).json()
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: 'earlier-1', operator_num: '301001', channel: 'caller', chunk_text: 'Сәлем', full_text: 'Сәлем', is_final: true } })).statusCode, 200)
    await t.database.db.update(calls).set({ is_final: true }).where(eq(calls.id, earlier.call.id))

    const pop = (await answered('+7 701 999 00 01')).json()
    assert.equal(pop.person, null)
    assert.equal(pop.previous_calls, 1)
    await t.database.db.update(calls).set({ call_id: 'now-1' }).where(eq(calls.id, pop.call.id))
    assert.equal((await chunk('now-1', 'Добрый день')).statusCode, 200)

    const res = await current(operator)
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.call.id, pop.call.id)
    assert.equal(body.call.caller_phone, '+77019990001')
    assert.deepEqual(body.call.chunks.map((c: { chunk_text: string }) => c.chunk_text), ['Добрый день'])
    assert.equal(body.previous_calls, 1, 'the call itself is not one of the earlier ones')
    assert.equal(body.person, null)

    // the operator registers the caller while the call goes on: the desk reloaded now knows them
    const person = await t.app.inject({ method: 'POST', url: '/api/references/persons', headers: admin, payload: { full_name: 'Нұрланова Динара', iin: '061211600012', phone: '87019990001' } })
    assert.equal(person.statusCode, 200, person.body)
    const after = (await current(operator)).json()
    assert.deepEqual(after.person, { id: person.json().id, full_name: 'Нұрланова Динара', iin_masked: '********0012' })
    assert.ok(!JSON.stringify(after).includes('061211600012'), 'the IIN is never shown whole')

    // another operator has no call going on
    assert.equal((await current(other)).statusCode, 204)

    // the transcript closed: the call is over
    assert.equal((await chunk('now-1', 'Рахмет', true)).statusCode, 200)
    assert.equal((await current(operator)).statusCode, 204)
  })

  it('a call begun more than two hours ago is not the desk\'s any more', async () => {
    const pop = (await answered('87019990002')).json()
    assert.equal((await current(operator)).json().call.id, pop.call.id)
    await t.database.db.update(calls).set({ created_at: sql`now() - interval '3 hours'` }).where(eq(calls.id, pop.call.id))
    assert.equal((await current(operator)).statusCode, 204)
  })
})
