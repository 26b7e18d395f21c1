import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import { appealTypes, categories, notifications, responseMethods, sources, subcategories } from '../../src/db/schema/index.js'
import { seedReferenceData } from '../../src/db/seed/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { startSmtpServer } from '../helpers/smtp.js'
import { assertLiveEvents, openSse } from '../helpers/sse.js'

const local = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:00`)

describe('appeals across instances: the deadline job and live events', () => {
  let first: TestApp
  let second: TestApp
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const clock = manualClock(local('2026-02-02', '10:00').getTime())
  let operator: Record<string, string>
  let managerEmail: string
  let executor: { id: number }
  let payload: Record<string, unknown>

  before(async () => {
    smtp = await startSmtpServer()
    // a long interval: the test drives the job by hand, the timers must not race it
    const env = { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@appeals.test', APPEAL_DEADLINE_INTERVAL: '1h', ACCESS_TOKEN_TTL: '30d' }
    first = await buildTestApp({ env, deps: { clock } })
    second = await buildTestApp({ env, database: first.database, deps: { clock } })
    const db = first.database.db
    await seedReferenceData(db)
    const centre = await makeOrganization(db, { modules: ['call_center'] })
    executor = await makeOrganization(db)
    operator = await login(first.app, await makeUser(db, { role: 'operator', organization_id: centre.id }))
    managerEmail = (await makeUser(db, { role: 'manager', organization_id: executor.id })).email
    await makeUser(db, { role: 'operator', organization_id: executor.id })
    const [type] = await db.select().from(appealTypes).limit(1)
    const [category] = await db.insert(categories).values({ appeal_type_id: type!.id, name: 'Дороги' }).returning()
    const [sub] = await db.insert(subcategories).values({ category_id: category!.id, name: 'Ямы', priority: 3, time_to_work: 1, time_to_close: 4 }).returning()
    const [source] = await db.select().from(sources).orderBy(asc(sources.id)).limit(1)
    const [method] = await db.select().from(responseMethods).where(eq(responseMethods.id, source!.id))
    payload = {
      citizen: { full_name: 'Ахметов Ерлан', phone: '+77011112233' }, source_id: source!.id, language: 'kk', text: 'Жолда шұңқыр бар',
      subcategory_id: sub!.id, response_method_id: method!.id, executor_organization_id: executor.id,
    }
  })
  after(async () => {
    await second.app.close()
    await first.close()
    await smtp.close()
  })

  const jobOf = (t: TestApp) => t.app.appealDeadlines
  const allMarkedSent = () => eventually(async () =>
    (await first.database.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.status, 'pending'))).length === 0, 20_000, 'the mails received marked sent')

  it('each breach is marked once, with one history row, one live event and one mail, however many instances look', async () => {
    const appeals = await Promise.all(Array.from({ length: 30 }, async () =>
      (await first.app.inject({ method: 'POST', url: '/api/appeals', headers: operator, payload })).json() as { id: number, number: string }))
    // the assignment told the executor's managers, through the outbox, on whichever instance took the row
    const assigned = await Promise.all(appeals.map(() => smtp.next(managerEmail)))
    assert.deepEqual(assigned.map((m) => /Новое обращение (\S+)/.exec(m.subject)?.[1]).sort(), appeals.map((a) => a.number).sort())
    assert.match(assigned[0]!.text, /Принять в работу до/)
    assert.match(assigned[0]!.text, /Жұмысқа алу мерзімі/)
    assert.equal((await first.app.inject({ url: '/api/appeals?overdue=true', headers: operator })).json().items.length, 0)
    // delivery is at least once: a mail received but not yet marked sent when the clock jumps past its
    // worker's hold would be taken up again by the other instance (a loaded machine marks it later)
    await allMarkedSent()
    clock.advance(61 * 60_000) // past the one working hour to take it into work
    const marked = await Promise.all([jobOf(first).runOnce(), jobOf(second).runOnce(), jobOf(first).runOnce(), jobOf(second).runOnce()])
    assert.equal(marked.reduce((a, b) => a + b, 0), 30, `${marked.join('+')}: each appeal once`)
    const list = (await first.app.inject({ url: '/api/appeals?overdue=true&limit=200', headers: operator })).json().items as { id: number, is_overdue: boolean, work_overdue_at: string | null, close_overdue_at: string | null }[]
    assert.equal(list.length, 30)
    assert.ok(list.every((a) => a.is_overdue && a.work_overdue_at !== null && a.close_overdue_at === null))
    const detail = (await first.app.inject({ url: `/api/appeals/${appeals[0]!.id}`, headers: operator })).json()
    assert.deepEqual(detail.history.filter((e: { action: string }) => e.action === 'overdue').map((e: { payload: { deadline: string } }) => e.payload.deadline), ['work'])
    assert.deepEqual(detail.history.filter((e: { action: string }) => e.action === 'overdue').map((e: { actor_id: number | null, actor_name: string | null }) => [e.actor_id, e.actor_name]), [[null, null]], 'a missed deadline is the service\'s step')
    const breaches = await Promise.all(appeals.map(() => smtp.next(managerEmail)))
    assert.deepEqual(breaches.map((m) => m.subject).filter((s) => !/^Просрочено обращение/.test(s)), [], 'only the breaches\' mails')
    await Promise.all([first.app.notifications.runOnce(), second.app.notifications.runOnce()])
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(smtp.received.filter((m) => m.to.includes(managerEmail)).length, 0, 'no second mail for the same breach')

    // the answer deadline (4 working hours) passes later; the first breach is not marked again
    await allMarkedSent()
    clock.advance(3 * 60 * 60_000)
    const closing = await Promise.all([jobOf(first).runOnce(), jobOf(second).runOnce()])
    assert.equal(closing[0]! + closing[1]!, 30)
    const mail = await smtp.next(managerEmail)
    assert.match(mail.subject, /Просрочено обращение 109-2026-\d{6}/)
    assert.match(mail.text, /срок ответа/)
    assert.match(mail.text, /жауап беру мерзімі/)
    assert.deepEqual(await Promise.all([jobOf(first).runOnce(), jobOf(second).runOnce()]), [0, 0])
  })

  it('an answered appeal is not overdue when its answer deadline passes', async () => {
    const res = await first.app.inject({ method: 'POST', url: '/api/appeals', headers: operator, payload })
    const id = res.json().id as number
    const executorOperator = await login(first.app, await makeUser(first.database.db, { role: 'operator', organization_id: executor.id }))
    assert.equal((await first.app.inject({ method: 'POST', url: `/api/appeals/${id}/take`, headers: executorOperator })).statusCode, 200)
    assert.equal((await first.app.inject({ method: 'POST', url: `/api/appeals/${id}/answer`, headers: executorOperator, payload: { text: 'Жөнделді', language: 'kk' } })).statusCode, 200)
    clock.advance(10 * 60 * 60_000)
    await jobOf(first).runOnce()
    assert.equal((await first.app.inject({ url: `/api/appeals/${id}`, headers: operator })).json().is_overdue, false)
  })

  it('live events reach the consoles that may see the appeal, on either instance', async () => {
    await second.app.listen({ port: 0, host: '127.0.0.1' })
    const url = `http://127.0.0.1:${(second.app.server.address() as { port: number }).port}/api/call-events/stream`
    const db = first.database.db
    const other = await makeOrganization(db)
    const consoles = {
      centre: await openSse(url, operator),
      executor: await openSse(url, await login(first.app, await makeUser(db, { role: 'operator', organization_id: executor.id }))),
      other: await openSse(url, await login(first.app, await makeUser(db, { role: 'manager', organization_id: other.id }))),
    }
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)) // the consoles' centre check is asked when they subscribe
      const res = await first.app.inject({ method: 'POST', url: '/api/appeals', headers: operator, payload })
      assert.equal(res.statusCode, 201, res.body)
      const appealEvents = (c: { events: { event: string, data: Record<string, unknown> }[] }) => c.events.filter((e) => e.event.startsWith('appeal.'))
      for (let waited = 0; (appealEvents(consoles.centre).length === 0 || appealEvents(consoles.executor).length === 0) && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      for (const c of [consoles.centre, consoles.executor]) {
        // the registration statement sends the event with its commit, the id and number filled in by the database
        assert.deepEqual(appealEvents(c).map((e) => [e.event, e.data.appeal_id, e.data.number, e.data.status, e.data.organization_id]), [['appeal.assign', res.json().id, res.json().number, 'assigned', executor.id]])
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.deepEqual(appealEvents(consoles.other), [], 'another organization sees nothing of it')
      // the registration statement builds its event in SQL: it is the schema's all the same
      for (const c of Object.values(consoles)) assertLiveEvents(c.events)
    } finally {
      await Promise.all(Object.values(consoles).map((c) => c.close()))
    }
  })
})
