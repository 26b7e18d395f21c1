import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { appealEvents, subcategories } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { manualClock } from '../helpers/clock.js'
import { login, makeUser } from '../helpers/factories.js'

// Asia/Almaty is UTC+5 all year
const local = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:00`)

interface Appeal { id: number, number: string, status: string, close_due_at: string, executor_employee_id: number | null }
interface Inbox { counts: Record<string, number>, items: Appeal[], next_cursor: string | null }

describe('the executor\'s inbox (GET /api/appeals/inbox) and bulk assignment (POST /api/appeals/bulk-assign)', () => {
  let t: TestApp
  let f: AppealFixture
  const clock = manualClock(local('2026-03-02', '10:00').getTime())
  let worker: { id: number, headers: Record<string, string> }
  let stranger: { id: number }
  const ids: Record<string, number> = {}

  const at = (day: string, hhmm: string) => clock.advance(local(day, hhmm).getTime() - clock().getTime())
  const post = async (url: string, headers: Record<string, string>, payload?: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${url}: ${res.body}`)
    return res.json()
  }
  const inbox = async (headers: Record<string, string>, query = ''): Promise<Inbox> => {
    const res = await t.app.inject({ url: `/api/appeals/inbox${query}`, headers })
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const numbersOf = (page: Inbox) => page.items.map((a) => a.id)
  const bulk = (headers: Record<string, string>, payload: unknown) => t.app.inject({ method: 'POST', url: '/api/appeals/bulk-assign', headers, payload: payload as object })
  const employeeOf = async (id: number) => (await t.app.inject({ url: `/api/appeals/${id}`, headers: f.people.admin })).json().executor_employee_id as number | null

  before(async () => {
    t = await buildTestApp({ deps: { clock }, env: { ACCESS_TOKEN_TTL: '30d', NOTIFY_INTERVAL: '1h' } })
    const db = t.database.db
    f = await appealFixture(t.app, db)
    const user = await makeUser(db, { role: 'operator', organization_id: f.executor.id })
    worker = { id: user.id, headers: await login(t.app, user) }
    stranger = await makeUser(db, { role: 'operator', organization_id: f.other.id })
    const [heating] = await db.select().from(subcategories).where(eq(subcategories.id, f.ids.heating))
    // a subcategory answered within 2 working hours: registered later, due sooner
    const [urgent] = await db.insert(subcategories).values({ category_id: heating!.category_id, name: 'Срочно', priority: 2, time_to_work: 1, time_to_close: 2 }).returning()
    const register = async (name: string, over: Record<string, unknown> = {}) => {
      const appeal = await post('/api/appeals', f.people.operator, {
        citizen: { full_name: `Гражданин ${name}`, phone: '+77011234567' }, source_id: f.ids.source, language: 'ru', text: `Обращение ${name}`,
        subcategory_id: f.ids.heating, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, ...over,
      })
      ids[name] = appeal.id
    }
    // Monday 10:00; each due 18 working hours later, but `urgent` due at 12:00
    await register('late')
    at('2026-03-02', '10:05')
    await register('urgent', { subcategory_id: urgent!.id })
    at('2026-03-02', '10:10')
    await register('taken')
    await register('answered')
    await register('elsewhere', { executor_organization_id: f.other.id })
    await register('unassigned', { executor_organization_id: undefined })
    await post(`/api/appeals/${ids.taken}/take`, worker.headers)
    await post(`/api/appeals/${ids.answered}/take`, f.people.executorOperator)
    await post(`/api/appeals/${ids.answered}/answer`, f.people.executorOperator, { text: 'Сделано', language: 'ru', check: { verdict: 'complete' } })
    // Monday 11:30: `urgent` missed its work deadline (11:05); the others' are at 12:00 and 12:10
    at('2026-03-02', '11:30')
    await t.app.appealDeadlines.runOnce()
  })
  after(() => t.close())

  describe('the inbox', () => {
    it('counts the views and lists the open ones, the nearest answer deadline first', async () => {
      const page = await inbox(worker.headers)
      assert.deepEqual(page.counts, { assigned: 2, in_work: 1, answered: 1, overdue: 1, mine: 1 })
      assert.deepEqual(numbersOf(page), [ids.urgent, ids.late, ids.taken], 'urgent is due first; late before taken (registered 10 minutes earlier)')
      const due = page.items.map((a) => a.close_due_at)
      assert.deepEqual(due, [...due].sort())
      assert.equal(page.next_cursor, null)
    })

    it('each view holds its own: assigned, in work, answered, overdue, mine', async () => {
      const view = async (state: string, headers = worker.headers) => numbersOf(await inbox(headers, `?state=${state}`))
      assert.deepEqual(await view('assigned'), [ids.urgent, ids.late])
      assert.deepEqual(await view('in_work'), [ids.taken])
      assert.deepEqual(await view('answered'), [ids.answered])
      assert.deepEqual(await view('overdue'), [ids.urgent])
      assert.deepEqual(await view('mine'), [ids.taken])
      assert.deepEqual(await view('mine', f.people.executorOperator), [], 'an answered appeal is no longer open')
    })

    it('pages by keyset: every appeal once, in order; a cursor it did not give is 422', async () => {
      const seen: number[] = []
      let cursor: string | null = ''
      for (let guard = 0; cursor !== null && guard < 10; guard++) {
        const page: Inbox = await inbox(worker.headers, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`)
        assert.equal(page.items.length, 1, 'a page of limit=1 holds one appeal')
        seen.push(...numbersOf(page))
        cursor = page.next_cursor
      }
      assert.deepEqual(seen, [ids.urgent, ids.late, ids.taken])
      const bad = await t.app.inject({ url: '/api/appeals/inbox?cursor=bm90LWEtY3Vyc29y', headers: worker.headers })
      assert.equal(bad.statusCode, 422)
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'cursor'])
    })

    it('an executor sees only its own organization; the centre and admins pick one or see every executor\'s', async () => {
      const other = await inbox(f.people.otherManager)
      assert.deepEqual(numbersOf(other), [ids.elsewhere])
      assert.deepEqual(other.counts, { assigned: 1, in_work: 0, answered: 0, overdue: 0, mine: 0 })
      const foreign = await t.app.inject({ url: `/api/appeals/inbox?executor_organization_id=${f.other.id}`, headers: worker.headers })
      assert.equal(foreign.statusCode, 422)
      assert.deepEqual(foreign.json().detail[0].loc, ['query', 'executor_organization_id'])
      assert.deepEqual(numbersOf(await inbox(worker.headers, `?executor_organization_id=${f.executor.id}`)), [ids.urgent, ids.late, ids.taken])
      assert.deepEqual(numbersOf(await inbox(f.people.operator, `?executor_organization_id=${f.other.id}`)), [ids.elsewhere])
      const all = await inbox(f.people.admin)
      assert.deepEqual(new Set(numbersOf(all)), new Set([ids.urgent, ids.late, ids.taken, ids.elsewhere]), 'not the unassigned one: nobody holds it')
      assert.equal(all.counts.assigned, 3)
    })

    it('bad queries are 422 naming the parameter; without a token 401', async () => {
      for (const [query, name] of [['state=closed', 'state'], ['limit=0', 'limit'], ['limit=201', 'limit'], ['executor_organization_id=abc', 'executor_organization_id']] as const) {
        const res = await t.app.inject({ url: `/api/appeals/inbox?${query}`, headers: worker.headers })
        assert.equal(res.statusCode, 422, query)
        assert.deepEqual(res.json().detail[0].loc, ['query', name], query)
      }
      assert.equal((await t.app.inject({ url: '/api/appeals/inbox' })).statusCode, 401)
    })
  })

  describe('bulk assignment', () => {
    it('a manager hands several appeals to an employee at once: each assigned, each in the history, the inbox\'s mine follows', async () => {
      const res = await bulk(f.people.executorManager, { appeal_ids: [ids.late, ids.urgent], executor_employee_id: worker.id })
      assert.equal(res.statusCode, 200, res.body)
      const items = res.json().items as Appeal[]
      assert.deepEqual(items.map((a) => [a.id, a.status, a.executor_employee_id]), [[ids.late, 'assigned', worker.id], [ids.urgent, 'assigned', worker.id]], 'in the order asked')
      for (const id of [ids.late, ids.urgent]) {
        const history = await t.database.db.select().from(appealEvents).where(eq(appealEvents.appeal_id, id!))
        // registered with its executor (register, assign), then handed to the employee
        assert.deepEqual(history.map((e) => e.action).filter((a) => a !== 'overdue'), ['register', 'assign', 'assign'])
        assert.deepEqual(history.at(-1)!.payload, { executor_organization_id: f.executor.id, executor_employee_id: worker.id })
      }
      assert.equal((await inbox(worker.headers)).counts.mine, 3)
      // and back to the organization's pool
      const back = await bulk(f.people.executorManager, { appeal_ids: [ids.late], executor_employee_id: null })
      assert.equal(back.statusCode, 200, back.body)
      assert.equal(await employeeOf(ids.late!), null)
    })

    it('all or none: one appeal that cannot be assigned leaves every other unchanged, and is named', async () => {
      const unchanged = async () => assert.deepEqual([await employeeOf(ids.late!), await employeeOf(ids.taken!)], [null, worker.id])
      const cases: [unknown, number, string, unknown][] = [
        [{ appeal_ids: [ids.late, ids.elsewhere], executor_employee_id: worker.id }, 422, 'another organization\'s appeal', ['body', 'appeal_ids', 1]],
        [{ appeal_ids: [ids.late, 2_000_000], executor_employee_id: worker.id }, 422, 'an appeal that does not exist', ['body', 'appeal_ids', 1]],
        [{ appeal_ids: [ids.late, ids.late], executor_employee_id: worker.id }, 422, 'the same appeal twice', ['body', 'appeal_ids', 1]],
        [{ appeal_ids: [ids.late, ids.taken], executor_employee_id: stranger.id }, 422, 'an employee of another organization', ['body', 'executor_employee_id']],
        [{ appeal_ids: [ids.late, ids.answered], executor_employee_id: worker.id }, 409, 'an answered appeal', undefined],
        [{ appeal_ids: [], executor_employee_id: worker.id }, 422, 'no appeals', ['body', 'appeal_ids']],
        [{ appeal_ids: Array.from({ length: 101 }, (_, i) => i + 1), executor_employee_id: worker.id }, 422, 'more than 100', ['body', 'appeal_ids']],
        [{ appeal_ids: ['one'], executor_employee_id: worker.id }, 422, 'an id that is not a number', ['body', 'appeal_ids', 0]],
      ]
      for (const [payload, status, what, loc] of cases) {
        const res = await bulk(f.people.executorManager, payload)
        assert.equal(res.statusCode, status, `${what}: ${res.body}`)
        if (loc) assert.deepEqual(res.json().detail[0].loc, loc, what)
        await unchanged()
      }
      const answered = await bulk(f.people.executorManager, { appeal_ids: [ids.late, ids.answered], executor_employee_id: worker.id })
      assert.equal(answered.json().code, 'invalid_transition')
      assert.match(answered.json().detail, /^Appeal 109-2026-\d{6} is answered/)
    })

    it('an employee who is not a manager may not (403, naming the appeal); without a token 401', async () => {
      const res = await bulk(f.people.executorOperator, { appeal_ids: [ids.late], executor_employee_id: worker.id })
      assert.equal(res.statusCode, 403, res.body)
      assert.equal(res.json().code, 'action_not_yours')
      assert.equal(await employeeOf(ids.late!), null)
      assert.equal((await bulk({}, { appeal_ids: [ids.late], executor_employee_id: worker.id })).statusCode, 401)
    })

    it('the centre assigns registered appeals to an executor in one go', async () => {
      const res = await bulk(f.people.operator, { appeal_ids: [ids.unassigned], executor_organization_id: f.other.id })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().items[0].status, 'assigned')
      assert.ok(numbersOf(await inbox(f.people.otherManager)).includes(ids.unassigned!))
    })
  })
})
