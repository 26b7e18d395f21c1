// Limits and uniqueness that span rows, under concurrent requests (meaningful on a PostgreSQL
// server, where the requests run in parallel transactions; on PGlite they queue and must agree too).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createMailOutboxRepo } from '../src/integrations/mail/outbox-repo.js'
import { buildTestApp, type TestApp } from './helpers/app.js'
import { login, makeOrganization, makeUser } from './helpers/factories.js'
import { tokenFromMail } from './helpers/smtp.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('races', () => {
  let t: TestApp
  let admin: Record<string, string>
  let prefix = 300
  before(async () => {
    t = await buildTestApp()
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
  })
  after(() => t.close())

  const createTerminal = (organizationId: number, extension: string) => t.app.inject({
    method: 'POST', url: `/api/organizations/${organizationId}/endpoints/`, headers: admin, payload: { name: `Оператор ${extension}`, extension, password: PASSWORD },
  })
  const terminalIds = async (organizationId: number) =>
    ((await t.app.inject({ url: `/api/organizations/${organizationId}/endpoints/`, headers: admin })).json() as { id: string }[]).map((e) => e.id)

  it('max_operators holds when terminals are created in parallel', async () => {
    const org = await makeOrganization(t.database.db, { prefix: String(++prefix), max_operators: 3 })
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => createTerminal(org.id, String(i).padStart(3, '0'))))
    const codes = results.map((r) => r.statusCode).sort()
    assert.deepEqual(codes, [...Array(3).fill(201), ...Array(9).fill(409)], results.map((r) => r.body).join('\n'))
    assert.equal((await terminalIds(org.id)).length, 3)
  })

  it('a prefix change and a terminal being created at once never leave a terminal with the old prefix', async () => {
    for (let round = 0; round < 8; round++) {
      const org = await makeOrganization(t.database.db, { prefix: String(++prefix), max_operators: 5 })
      const next = String(++prefix)
      const [change, created] = await Promise.all([
        t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}`, headers: admin, payload: { org_prefix: next } }),
        createTerminal(org.id, '001'),
      ])
      assert.equal(created.statusCode, 201, created.body)
      const current = (await t.app.inject({ url: `/api/organizations/${org.id}`, headers: admin })).json().org_prefix as string
      // either the change came first (the terminal has the new prefix) or the terminal did (the change is refused)
      assert.ok(change.statusCode === 200 || change.statusCode === 409, change.body)
      assert.equal(current, change.statusCode === 200 ? next : org.prefix)
      assert.deepEqual(await terminalIds(org.id), [`${current}001`])
    }
  })

  it('the first transcript chunk of a call sent twice at once is stored once', async () => {
    for (let round = 0; round < 8; round++) {
      const chunk = { call_id: `race-${round}`, operator_num: '999001', channel: 'caller', chunk_text: 'Алло', full_text: 'Алло' }
      const answers = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: chunk })))
      assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200], answers.map((a) => a.body).join('\n'))
      assert.deepEqual(answers.map((a) => a.json().duplicate).sort(), [false, true, true])
      const call = (await t.app.inject({ url: `/api/call-events/calls/race-${round}`, headers: admin })).json()
      assert.equal(call.chunks.length, 1)
    }
  })

  it('one reset token used twice at once sets the password once', async () => {
    const user = await makeUser(t.database.db, { email: 'race.reset@appeals.test' })
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } })
    const token = tokenFromMail((await createMailOutboxRepo(t.database.db).latestFor(user.email))!.body)
    assert.ok(token)
    const answers = await Promise.all(['First-new-password-1', 'Second-new-password-2'].map((new_password) =>
      t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, new_password } })))
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 400], answers.map((a) => a.body).join('\n'))
    const winner = answers.findIndex((a) => a.statusCode === 200) === 0 ? 'First-new-password-1' : 'Second-new-password-2'
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: winner } })).statusCode, 200)
  })
})
