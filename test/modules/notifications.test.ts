import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { manualClock } from '../helpers/clock.js'
import { createSmppGateway } from '../../src/integrations/sms/index.js'
import { startSmppServer } from '../helpers/smpp.js'
import { startSmtpServer } from '../helpers/smtp.js'
import { eventually } from '../helpers/http-target.js'

const local = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:00`)
type Notification = { id: number, kind: string, channel: string, status: string, attempts: number, recipient: string, body: string, last_error: string | null, provider_id: string | null, next_attempt_at: string }

describe('citizen notifications and the outbox (/api/appeals/notifications)', () => {
  let t: TestApp
  let f: AppealFixture
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let smsc: Awaited<ReturnType<typeof startSmppServer>>
  const clock = manualClock(local('2026-03-02', '10:00').getTime())

  before(async () => {
    smtp = await startSmtpServer()
    smsc = await startSmppServer()
    // the worker's own timer stays out of the way: rounds are run by the tests (and by pokes)
    t = await buildTestApp({
      deps: { clock },
      env: { SMTP_URL: smtp.url, SMPP_URL: smsc.url, SMPP_SOURCE: '109', SMPP_TIMEOUT: '1s', NOTIFY_INTERVAL: '1h', NOTIFY_BACKOFF: '30s', NOTIFY_MAX_ATTEMPTS: '3', ACCESS_TOKEN_TTL: '30d' },
    })
    f = await appealFixture(t.app, t.database.db)
  })
  after(async () => {
    await t.close()
    await smtp.close()
    await smsc.close()
  })

  const register = async (method: number, citizen: Record<string, unknown>, over: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: f.people.operator,
      payload: { citizen, source_id: f.ids.source, language: 'ru', text: 'Нет горячей воды', subcategory_id: f.ids.heating, response_method_id: method, executor_organization_id: f.executor.id, ...over },
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as { id: number, number: string }
  }
  const act = (id: number, action: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/api/appeals/${id}/${action}`, headers, ...(payload ? { payload } : {}) })
  const answer = async (id: number, text: string, language = 'ru') => {
    assert.equal((await act(id, 'take', f.people.executorOperator)).statusCode, 200)
    const res = await act(id, 'answer', f.people.executorOperator, { text, language, check: { verdict: 'complete' } })
    assert.equal(res.statusCode, 200, res.body)
  }
  const outbox = async (query = '') => {
    const res = await t.app.inject({ url: `/api/appeals/notifications${query}`, headers: f.people.admin })
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { items: Notification[], counts: Record<string, number>, channels: string[], next_cursor: number | null }
  }
  const citizenNotices = async (appealId: number) => (await outbox(`?appeal_id=${appealId}`)).items.filter((n) => n.kind === 'answer' || n.kind === 'redirect')
  /** runs rounds until the row leaves `pending` with this many attempts, or fails */
  const settle = (appealId: number, attempts: number) => eventually(async () => {
    await t.app.notifications.runOnce()
    const [n] = await citizenNotices(appealId)
    return n && n.attempts >= attempts && n
  }, 30_000, `the notification to settle after ${attempts} attempts`)

  it('an answer reaches the citizen by SMS over SMPP: Cyrillic as UCS-2, a long text in message_payload', async () => {
    const appeal = await register(f.ids.methods.sms, { full_name: 'Серикова Айгуль', phone: '8 (701) 555-12-34' })
    const reply = 'Горячая вода будет подана 5 марта после ремонта теплотрассы. '.repeat(4)
    await answer(appeal.id, reply)
    const sent = await settle(appeal.id, 1)
    assert.equal(sent.status, 'sent')
    assert.equal(sent.recipient, '+77015551234')
    const sms = smsc.received.find((m) => m.text.includes(appeal.number))!
    assert.ok(sms, 'the SMS centre got it')
    assert.equal(sms.to, '77015551234')
    assert.equal(sms.from, '109')
    assert.equal(sms.dataCoding, 8, 'UCS-2')
    assert.ok(sms.viaPayload, 'longer than one SMS: message_payload')
    assert.match(sms.text, /^Ответ на обращение 109-2026-\d{6}: Горячая вода будет подана/)
    assert.equal(sent.provider_id, String(Number(sent.provider_id)), 'the centre\'s message_id is kept')
    // a short one fits short_message
    const short = await register(f.ids.methods.sms, { full_name: 'Серикова Айгуль', phone: '+77015551234' }, { language: 'kk' })
    await answer(short.id, 'Жөнделді', 'kk')
    await settle(short.id, 1)
    const kk = smsc.received.find((m) => m.text.includes(short.number))!
    assert.equal(kk.viaPayload, false)
    assert.equal(kk.text, `${short.number} өтінішіңізге жауап: Жөнделді`)
  })

  it('an e-mail citizen hears of a redirect in the appeal\'s language, the new executor\'s managers of the appeal', async () => {
    const appeal = await register(f.ids.methods.email, { full_name: 'Омаров Данияр', phone: '+77017770000', email: 'daniyar@mail.kz' }, { language: 'kk' })
    // the first executor's assignment mail, written by the registration's one statement over the number it gave
    const assigned = await smtp.next(f.managerEmail, 10_000, appeal.number)
    assert.equal(assigned.subject, `Новое обращение ${appeal.number} / Жаңа өтініш ${appeal.number}`)
    assert.match(assigned.text, new RegExp(`^Вашей организации поручено обращение ${appeal.number}\\. Принять в работу до .+, ответить до .+\\.\\n\\nҰйымыңызға ${appeal.number} өтініші тапсырылды\\.`))
    const res = await act(appeal.id, 'redirect', f.people.operator, { executor_organization_id: f.other.id, reason: 'Не в компетенции' })
    assert.equal(res.statusCode, 200, res.body)
    const citizen = await smtp.next('daniyar@mail.kz')
    assert.equal(citizen.subject, `${appeal.number} өтініші басқа органға жіберілді`)
    assert.match(citizen.text, /Құрметті Омаров Данияр!/)
    assert.match(citizen.text, /Жауап беру мерзімі: /)
    const manager = await smtp.next(f.otherManagerEmail)
    assert.match(manager.subject, new RegExp(`Новое обращение ${appeal.number}`))
    // the mail arrives before the worker has written `sent`: wait for the rows to settle
    const rows = await eventually(async () => {
      const r = await outbox(`?appeal_id=${appeal.id}`)
      return !r.items.some((n) => n.status === 'pending') && r
    }, 30_000, 'the notices to settle')
    assert.deepEqual(rows.items.map((n) => [n.kind, n.status]).sort(), [['assign', 'sent'], ['assign', 'sent'], ['redirect', 'sent']])
  })

  it('a method the service does not deliver (a phone call) or a missing contact sends nothing', async () => {
    const byCall = await register(f.ids.methods.call, { full_name: 'Ким Олег', phone: '+77019990000' })
    await answer(byCall.id, 'Позвоним вам')
    const noEmail = await register(f.ids.methods.email, { full_name: 'Ким Олег', phone: '+77019990000' })
    await answer(noEmail.id, 'Ответ')
    assert.deepEqual(await citizenNotices(byCall.id), [])
    assert.deepEqual(await citizenNotices(noEmail.id), [])
  })

  it('a failing SMS centre: retried with backoff, failed after the last attempt, sent again on an admin\'s retry', async () => {
    smsc.setMode('refuse')
    const appeal = await register(f.ids.methods.sms, { full_name: 'Жаксыбеков Арман', phone: '+77012223344' })
    await answer(appeal.id, 'Вопрос решён')
    let n = await settle(appeal.id, 1)
    assert.equal(n.status, 'pending')
    assert.match(n.last_error!, /refused the message: ESME_RSYSERR/)
    assert.equal(new Date(n.next_attempt_at).getTime() - clock().getTime(), 30_000, 'the first retry after NOTIFY_BACKOFF')
    assert.equal(await t.app.notifications.runOnce(), 0, 'not due before its time')
    clock.advance(30_000)
    n = await settle(appeal.id, 2)
    assert.equal(new Date(n.next_attempt_at).getTime() - clock().getTime(), 60_000, 'the delay doubles')
    // a peer that never answers: the submit times out, the row is still pending
    smsc.setMode('silent')
    clock.advance(60_000)
    n = await settle(appeal.id, 3)
    assert.equal(n.status, 'failed', 'given up after NOTIFY_MAX_ATTEMPTS (3)')
    assert.match(n.last_error!, /timed out/)
    const failed = await outbox('?status=failed')
    assert.ok(failed.items.some((x) => x.id === n.id))
    assert.ok(failed.counts.failed! >= 1)

    smsc.setMode('accept')
    const retried = await t.app.inject({ method: 'POST', url: `/api/appeals/notifications/${n.id}/retry`, headers: f.people.admin })
    assert.equal(retried.statusCode, 200, retried.body)
    assert.equal(retried.json().status, 'pending')
    n = await settle(appeal.id, 1)
    assert.equal(n.status, 'sent')
    assert.ok(smsc.received.some((m) => m.text.includes(appeal.number)))
    const again = await t.app.inject({ method: 'POST', url: `/api/appeals/notifications/${n.id}/retry`, headers: f.people.admin })
    assert.equal(again.statusCode, 409)
    assert.equal(again.json().code, 'already_sent')
  })

  it('a mail server refusing for a while: the citizen\'s mail waits and goes out once it accepts', async () => {
    smtp.refuse(true)
    try {
      const appeal = await register(f.ids.methods.email, { full_name: 'Иванова Мария', phone: '+77014445566', email: 'maria@mail.kz' })
      await answer(appeal.id, 'Ответ по существу')
      const n = await settle(appeal.id, 1)
      assert.equal(n.status, 'pending')
      assert.match(n.last_error!, /451|temporarily/)
      smtp.refuse(false)
      clock.advance(30_000)
      const sent = await settle(appeal.id, 2)
      assert.equal(sent.status, 'sent')
      const mail = await smtp.next('maria@mail.kz')
      assert.equal(mail.subject, `Ответ на обращение ${appeal.number}`)
      assert.match(mail.text, /Уважаемый\(ая\) Иванова Мария!/)
      assert.match(mail.text, /Ответ по существу/)
      assert.match(mail.text, /вправе обжаловать/)
    } finally {
      smtp.refuse(false)
    }
  })

  it('a dropped connection is re-bound on the next message', async () => {
    const binds = smsc.binds
    smsc.dropSessions()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const appeal = await register(f.ids.methods.sms, { full_name: 'Ли Анна', phone: '+77013334455' })
    await answer(appeal.id, 'Готово')
    const n = await settle(appeal.id, 1)
    assert.equal(n.status, 'sent', n.last_error ?? '')
    assert.equal(smsc.binds, binds + 1)
  })

  it('the outbox is for admins; bad queries and unknown rows are refused in words', async () => {
    assert.equal((await t.app.inject({ url: '/api/appeals/notifications' })).statusCode, 401)
    for (const who of [f.people.operator, f.people.executorManager]) {
      assert.equal((await t.app.inject({ url: '/api/appeals/notifications', headers: who })).statusCode, 403)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/appeals/notifications/1/retry', headers: who })).statusCode, 403)
    }
    const bad = await t.app.inject({ url: '/api/appeals/notifications?status=lost&limit=0', headers: f.people.admin })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail.map((d: { loc: string[] }) => d.loc.join('.')).sort(), ['query.limit', 'query.status'])
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/appeals/notifications/999999/retry', headers: f.people.admin })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/appeals/notifications/abc/retry', headers: f.people.admin })).statusCode, 422)
    // keyset pages walk the outbox without loss
    const all = (await outbox('?limit=200')).items.map((n) => n.id)
    const seen: number[] = []
    for (let cursor: number | null = null; ;) {
      const page: Awaited<ReturnType<typeof outbox>> = await outbox(`?limit=2${cursor ? `&before_id=${cursor}` : ''}`)
      seen.push(...page.items.map((n) => n.id))
      if (page.next_cursor === null) break
      cursor = page.next_cursor
    }
    assert.deepEqual(seen, all)
    assert.deepEqual((await outbox()).channels, ['email', 'sms'])
  })
})

describe('notifications without SMTP_URL and SMPP_URL', () => {
  it('rows wait in the outbox; the channels list says none is delivered', async () => {
    const t = await buildTestApp({ env: { NOTIFY_INTERVAL: '1h' } })
    try {
      const f = await appealFixture(t.app, t.database.db)
      const res = await t.app.inject({
        method: 'POST', url: '/api/appeals', headers: f.people.operator,
        payload: { citizen: { full_name: 'Нурланов Ержан', phone: '+77010000001' }, source_id: f.ids.source, language: 'ru', text: 'Текст', subcategory_id: f.ids.heating, response_method_id: f.ids.methods.sms, executor_organization_id: f.executor.id },
      })
      assert.equal(res.statusCode, 201)
      assert.equal(await t.app.notifications.runOnce(), 0)
      const list = (await t.app.inject({ url: '/api/appeals/notifications', headers: f.people.admin })).json()
      assert.deepEqual(list.channels, [])
      assert.deepEqual(list.items.map((n: Notification) => [n.kind, n.status, n.attempts]), [['assign', 'pending', 0]])
    } finally {
      await t.close()
    }
  })
})

describe('the SMPP session (against a real SMPP peer)', () => {
  it('a session given up after a silent submit closes late without unbinding the session bound after it', async () => {
    const smsc = await startSmppServer()
    const gateway = createSmppGateway({ url: smsc.url, source: '109', timeoutMs: 500 })
    try {
      smsc.setMode('silent')
      await assert.rejects(gateway.send({ to: '+77010000001', text: 'первое' }), /timed out/)
      // the next message binds a new session at once, before the old one's close is heard
      smsc.setMode('accept')
      await gateway.send({ to: '+77010000002', text: 'второе' })
      await gateway.send({ to: '+77010000003', text: 'третье' })
      assert.equal(smsc.received.length, 2)
      assert.equal(smsc.binds, 2, 'the third message went through the second session, not a third')
    } finally {
      await gateway.close()
      await smsc.close()
    }
  })
})
