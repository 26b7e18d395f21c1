import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { createMailOutboxRepo } from '../../src/integrations/mail/outbox-repo.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { startSmtpServer, tokenFromMail } from '../helpers/smtp.js'

describe('invitations and password reset over a real SMTP server', () => {
  let t: TestApp
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const clock = manualClock()
  let admin: Awaited<ReturnType<typeof makeUser>>
  // the tests move the clock by days: log in afresh rather than keep a token that may have expired
  let adminAuth: { authorization: string }
  beforeEach(async () => { adminAuth = await login(t.app, admin) })

  before(async () => {
    smtp = await startSmtpServer()
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@appeals.test' }, deps: { clock } })
    admin = await makeUser(t.database.db, { role: 'admin' })
  })
  after(async () => {
    await t.close()
    await smtp.close()
  })

  async function newEmployee (email: string) {
    const org = await makeOrganization(t.database.db)
    const res = await t.app.inject({ method: 'POST', url: '/api/employees', headers: adminAuth,
      payload: { email, last_name: 'Сейткали', first_name: 'Айгерим', organization_id: org.id, role: 'operator' } })
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as { id: number, email: string, has_password: boolean }
  }

  it('send-invite mails a link; GET invite/{token} describes it; activate sets the password once', async () => {
    const employee = await newEmployee('aigerim@appeals.test')
    assert.equal(employee.has_password, false)
    const sent = await t.app.inject({ method: 'POST', url: `/api/auth/send-invite/${employee.id}`, headers: adminAuth })
    assert.equal(sent.statusCode, 200, sent.body)
    assert.equal(sent.json().email, 'aigerim@appeals.test')
    // delivered: the answer carries no link (the mail does)
    assert.deepEqual([sent.json().sent, sent.json().link], [true, null])

    const mail = await smtp.next('aigerim@appeals.test')
    assert.match(mail.subject, /Приглашение/)
    assert.match(mail.subject, /шақыру/)
    assert.match(mail.text, /Здравствуйте, Сейткали Айгерим/)
    assert.match(mail.text, /Сәлеметсіз бе/)
    assert.match(mail.text, /http:\/\/appeals\.test\/invite\?token=/)
    const token = tokenFromMail(mail.text)!
    assert.ok(token.length >= 40)

    const info = await t.app.inject({ url: `/api/shared/auth/invite/${token}` })
    assert.equal(info.statusCode, 200)
    assert.equal(info.json().valid, true)
    assert.equal(info.json().email, 'aigerim@appeals.test')
    assert.equal(info.json().full_name, 'Сейткали Айгерим')
    // looking does not consume it
    assert.equal((await t.app.inject({ url: `/api/auth/invite/${token}` })).json().valid, true)

    const weak = await t.app.inject({ method: 'POST', url: '/api/auth/invite/activate', payload: { token, password: 'short' } })
    assert.equal(weak.statusCode, 422)
    assert.deepEqual(weak.json().detail[0].loc, ['body', 'password'])

    const activated = await t.app.inject({ method: 'POST', url: '/api/auth/invite/activate', payload: { token, password: 'Aigerim-password-1' } })
    assert.equal(activated.statusCode, 200)
    await login(t.app, { email: 'aigerim@appeals.test', password: 'Aigerim-password-1' })

    const reused = await t.app.inject({ method: 'POST', url: '/api/auth/invite/activate', payload: { token, password: 'Another-password-2' } })
    assert.equal(reused.statusCode, 400)
    assert.match(reused.json().detail, /already been used/)
    const usedInfo = await t.app.inject({ url: `/api/auth/invite/${token}` })
    assert.deepEqual([usedInfo.json().valid, usedInfo.json().reason], [false, 'used'])
    // an activated employee is not invited again
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/auth/send-invite/${employee.id}`, headers: adminAuth })).statusCode, 409)
  })

  it('re-sending replaces the earlier invitation; an expired one is refused', async () => {
    const employee = await newEmployee('daulet@appeals.test')
    await t.app.inject({ method: 'POST', url: `/api/auth/send-invite/${employee.id}`, headers: adminAuth })
    const first = tokenFromMail((await smtp.next('daulet@appeals.test')).text)!
    await t.app.inject({ method: 'POST', url: `/api/shared/auth/send-invite/${employee.id}`, headers: adminAuth })
    const second = tokenFromMail((await smtp.next('daulet@appeals.test')).text)!
    assert.notEqual(first, second)
    assert.equal((await t.app.inject({ url: `/api/auth/invite/${first}` })).statusCode, 404)
    clock.advance(72 * 3600_000 + 1000)
    const info = await t.app.inject({ url: `/api/auth/invite/${second}` })
    assert.deepEqual([info.json().valid, info.json().reason], [false, 'expired'])
    const late = await t.app.inject({ method: 'POST', url: '/api/auth/invite/activate', payload: { token: second, password: 'Daulet-password-1' } })
    assert.equal(late.statusCode, 400)
    assert.match(late.json().detail, /expired/)
  })

  it('send-invite: unknown employee 404, another organization\'s employee 404 to a manager, an operator 403 before any lookup, bad id 422', async () => {
    const employee = await newEmployee('erlan@appeals.test')
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/send-invite/999999', headers: adminAuth })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/send-invite/abc', headers: adminAuth })).statusCode, 422)
    const otherOrg = await makeOrganization(t.database.db)
    const manager = await makeUser(t.database.db, { role: 'manager', organization_id: otherOrg.id })
    const res = await t.app.inject({ method: 'POST', url: `/api/auth/send-invite/${employee.id}`, headers: await login(t.app, manager) })
    assert.equal(res.statusCode, 404)
    const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator', organization_id: otherOrg.id }))
    for (const id of [employee.id, 999999]) {
      assert.equal((await t.app.inject({ method: 'POST', url: `/api/auth/send-invite/${id}`, headers: operator })).statusCode, 403)
    }
  })

  it('forgot-password answers the same for known and unknown addresses and mails only the known one; reset works once', async () => {
    const user = await makeUser(t.database.db, { email: 'reset.me@appeals.test' })
    const known = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'Reset.Me@appeals.test' } })
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'ghost@appeals.test' } })
    assert.equal(known.statusCode, 200)
    assert.equal(known.body, unknown.body)
    const mail = await smtp.next('reset.me@appeals.test')
    assert.match(mail.subject, /Восстановление пароля/)
    assert.ok(!smtp.received.some((m) => m.to.includes('ghost@appeals.test')))
    const token = tokenFromMail(mail.text)!
    const old = await login(t.app, user)

    const reset = await t.app.inject({ method: 'POST', url: '/api/shared/auth/reset-password', payload: { token, new_password: 'Fresh-password-77' } })
    assert.equal(reset.statusCode, 200)
    assert.equal((await t.app.inject({ url: '/api/auth/profile', headers: old })).statusCode, 401, 'earlier tokens revoked')
    await login(t.app, { email: user.email, password: 'Fresh-password-77' })
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, new_password: 'Fresh-password-88' } })
    assert.equal(again.statusCode, 400)
    const unknownToken = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'nope', new_password: 'Fresh-password-88' } })
    assert.equal(unknownToken.statusCode, 400)
    assert.match(unknownToken.json().detail, /invalid/)
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token } })).statusCode, 422)
  })

  it('a reset link expires after an hour', async () => {
    const user = await makeUser(t.database.db, { email: 'slow@appeals.test' })
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } })
    const token = tokenFromMail((await smtp.next(user.email)).text)!
    clock.advance(3600_000 + 1000)
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, new_password: 'Too-late-password-1' } })
    assert.equal(res.statusCode, 400)
    assert.match(res.json().detail, /expired/)
  })
})

describe('mail without SMTP_URL', () => {
  it('goes to the mail_outbox table, and the log names the row, not the link', async () => {
    const lines: string[] = []
    const t = await buildTestApp({ deps: { logger: { level: 'info', stream: { write: (l: string) => lines.push(l) } } as never } })
    try {
      const user = await makeUser(t.database.db, { email: 'outbox@appeals.test' })
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } })).statusCode, 200)
      const stored = await createMailOutboxRepo(t.database.db).latestFor(user.email)
      assert.ok(stored)
      const token = tokenFromMail(stored.body)!
      assert.ok(token)
      const logged = lines.join('')
      assert.match(logged, /mail kept in mail_outbox/)
      assert.ok(!logged.includes(token), 'the reset token must not be logged')
    } finally {
      await t.close()
    }
  })

  it('an invitation says it was not sent and gives the one inviting its link, which activates the account; not logged', async () => {
    const lines: string[] = []
    const t = await buildTestApp({ deps: { logger: { level: 'info', stream: { write: (l: string) => lines.push(l) } } as never } })
    try {
      const org = await makeOrganization(t.database.db)
      const manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: org.id }))
      const employee = await makeUser(t.database.db, { email: 'no-smtp@appeals.test', organization_id: org.id, password: null })
      const res = await t.app.inject({ method: 'POST', url: `/api/auth/send-invite/${employee.id}`, headers: manager })
      assert.equal(res.statusCode, 200, res.body)
      const answer = res.json()
      assert.equal(answer.sent, false)
      assert.match(answer.message, /not sent: no SMTP server/)
      assert.match(answer.link, /^http:\/\/appeals\.test\/invite\?token=/)
      const token = new URL(answer.link).searchParams.get('token')!
      // the link is the mail's, kept in the outbox
      assert.equal(tokenFromMail((await createMailOutboxRepo(t.database.db).latestFor(employee.email))!.body), token)
      assert.ok(!lines.join('').includes(token), 'the invitation token must not be logged')
      const activated = await t.app.inject({ method: 'POST', url: '/api/auth/invite/activate', payload: { token, password: 'Abcdefghij0123456789' } })
      assert.equal(activated.statusCode, 200, activated.body)
    } finally {
      await t.close()
    }
  })
})
