import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import { appealCounters, appealTypes, calls, categories, classifiers, persons, regions, responseMethods, sources, subcategories } from '../../src/db/schema/index.js'
import { seedReferenceData } from '../../src/db/seed/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

// Asia/Almaty is UTC+5 all year: local 10:00 is 05:00Z
const local = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:00`)
const VALID_IIN = '900101300017'

describe('appeals register (/api/appeals)', () => {
  let t: TestApp
  const clock = manualClock(local('2026-01-12', '10:00').getTime())
  let admin: Record<string, string>
  let centreOperator: Record<string, string>
  let executorOperator: Record<string, string>
  let executorManager: Record<string, string>
  let otherExecutor: Record<string, string>
  let centre: { id: number }
  let executor: { id: number }
  let otherOrg: { id: number }
  let executorOperatorId: number
  let ids: { source: number, method: number, region: number, district: number, classifier: number, appealType: number, category: number }
  const subcategory: Record<'normal' | 'emergency' | 'noTerm' | 'other', number> = { normal: 0, emergency: 0, noTerm: 0, other: 0 }

  before(async () => {
    // tokens outlive the clock's jumps across the calendar
    t = await buildTestApp({ deps: { clock }, env: { ACCESS_TOKEN_TTL: '800d' } })
    const db = t.database.db
    await seedReferenceData(db)
    centre = await makeOrganization(db, { modules: ['call_center'] })
    executor = await makeOrganization(db)
    otherOrg = await makeOrganization(db)
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    centreOperator = await login(t.app, await makeUser(db, { role: 'operator', organization_id: centre.id }))
    const op = await makeUser(db, { role: 'operator', organization_id: executor.id })
    executorOperatorId = op.id
    executorOperator = await login(t.app, op)
    const manager = await makeUser(db, { role: 'manager', organization_id: executor.id })
    executorManager = await login(t.app, manager)
    otherExecutor = await login(t.app, await makeUser(db, { role: 'manager', organization_id: otherOrg.id }))

    const [source] = await db.select().from(sources).orderBy(asc(sources.id)).limit(1)
    const [method] = await db.select().from(responseMethods).orderBy(asc(responseMethods.id)).limit(1)
    const [oblast] = await db.select().from(regions).where(eq(regions.name, 'Алматинская область'))
    const [district] = await db.select().from(regions).where(eq(regions.parent_id, oblast!.id)).limit(1)
    const [classifier] = await db.select().from(classifiers).limit(1)
    const [type] = await db.select().from(appealTypes).where(eq(appealTypes.classifier_id, classifier!.id)).limit(1)
    const [category] = await db.insert(categories).values({ appeal_type_id: type!.id, name: 'Коммунальные услуги' }).returning()
    const sub = async (name: string, v: Partial<typeof subcategories.$inferInsert>) =>
      (await db.insert(subcategories).values({ category_id: category!.id, name, ...v }).returning())[0]!.id
    subcategory.normal = await sub('Отопление', { priority: 3, time_to_work: 2, time_to_close: 18 })
    subcategory.emergency = await sub('Авария', { priority: 1, time_to_work: 2, time_to_close: 24 })
    subcategory.noTerm = await sub('Прочее', { priority: 4 })
    subcategory.other = await sub('Вода', { priority: 3, time_to_work: 3, time_to_close: 27 })
    ids = { source: source!.id, method: method!.id, region: oblast!.id, district: district!.id, classifier: classifier!.id, appealType: type!.id, category: category!.id }
  })
  after(() => t.close())

  const base = (over: Record<string, unknown> = {}) => ({
    citizen: { full_name: 'Иванов Иван', phone: '+7 701 123 45 67' },
    source_id: ids.source, language: 'ru', text: 'В доме нет отопления третий день', subcategory_id: subcategory.normal,
    region_id: ids.district, address: 'ул. Абая, 1', response_method_id: ids.method, ...over,
  })
  const register = (payload: object, headers = centreOperator) => t.app.inject({ method: 'POST', url: '/api/appeals', headers, payload })
  const act = (id: number, action: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/api/appeals/${id}/${action}`, headers, ...(payload ? { payload } : {}) })
  const at = async (when: Date, work: () => Promise<void>) => {
    const before = clock().getTime()
    clock.advance(when.getTime() - before)
    try { await work() } finally { clock.advance(before - when.getTime()) }
  }

  describe('the workplace (GET /api/appeals/workplace)', () => {
    it('the centre\'s staff and admins register; an executor\'s staff do not, and are told their organization; 401 without a token', async () => {
      const of = async (headers: Record<string, string>) => {
        const res = await t.app.inject({ method: 'GET', url: '/api/appeals/workplace', headers })
        assert.equal(res.statusCode, 200, res.body)
        return res.json()
      }
      assert.deepEqual(await of(centreOperator), { centre_staff: true, registers: true, organization_id: centre.id })
      assert.deepEqual(await of(admin), { centre_staff: true, registers: true, organization_id: null })
      assert.deepEqual(await of(executorOperator), { centre_staff: false, registers: false, organization_id: executor.id })
      assert.deepEqual(await of(executorManager), { centre_staff: false, registers: false, organization_id: executor.id })
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/appeals/workplace' })
      assert.equal(anonymous.statusCode, 401)
      assert.equal(anonymous.json().detail, 'Not authenticated')
    })
  })

  describe('registration', () => {
    it('201: a gapless number of the year, the classification path, deadlines in working hours, one history row', async () => {
      const res = await register(base())
      assert.equal(res.statusCode, 201, res.body)
      const a = res.json()
      assert.match(a.number, /^109-2026-\d{6}$/)
      assert.equal(a.status, 'registered')
      assert.deepEqual([a.classifier_id, a.appeal_type_id, a.category_id, a.subcategory_id, a.priority], [ids.classifier, ids.appealType, ids.category, subcategory.normal, 3])
      assert.equal(a.citizen_phone, '+77011234567')
      assert.equal(a.person_id, null, 'without an IIN the citizen stays anonymous')
      // Monday 10:00 + 2 working hours; + 18 working hours = 8 (Monday) + 9 (Tuesday) + 1 (Wednesday)
      assert.equal(a.work_due_at, local('2026-01-12', '12:00').toISOString())
      assert.equal(a.close_due_at, local('2026-01-14', '10:00').toISOString())
      assert.deepEqual(a.allowed_actions, ['assign', 'reject'])
      const detail = (await t.app.inject({ url: `/api/appeals/${a.id}`, headers: centreOperator })).json()
      assert.deepEqual(detail.history.map((e: { action: string, to_status: string }) => [e.action, e.to_status]), [['register', 'registered']])
    })

    it('without a citizen the call\'s matched person is taken; an unmatched call or none is 422 on body.citizen', async () => {
      const [person] = await t.database.db.insert(persons).values({ full_name: 'Жумабаев Нурлан', phone: '+77015550011' }).returning()
      const [matched] = await t.database.db.insert(calls).values({ operator_num: '101001', caller_phone: '+77015550011', person_id: person!.id }).returning()
      const { citizen: _none, ...withoutCitizen } = base()
      const res = await register({ ...withoutCitizen, call_row_id: matched!.id })
      assert.equal(res.statusCode, 201, res.body)
      assert.deepEqual([res.json().person_id, res.json().citizen_name, res.json().citizen_phone], [person!.id, 'Жумабаев Нурлан', '+77015550011'])
      const [unmatched] = await t.database.db.insert(calls).values({ operator_num: '101001', caller_phone: '+77015550012' }).returning()
      for (const payload of [{ ...withoutCitizen, call_row_id: unmatched!.id }, withoutCitizen]) {
        const bad = await register(payload)
        assert.equal(bad.statusCode, 422, bad.body)
        assert.deepEqual(bad.json().detail[0].loc, ['body', 'citizen'])
      }
    })

    it('with an executor it is assigned at once; with an IIN a person is created; the call gives the phone', async () => {
      const [call] = await t.database.db.insert(calls).values({ operator_num: '101001', caller_phone: '+77017654321', transcript: 'алло' }).returning()
      const res = await register(base({
        citizen: { full_name: 'Серикова Айгуль', iin: VALID_IIN }, call_row_id: call!.id, executor_organization_id: executor.id, language: 'kk',
      }))
      assert.equal(res.statusCode, 201, res.body)
      const a = res.json()
      assert.equal(a.status, 'assigned')
      assert.equal(a.executor_organization_id, executor.id)
      assert.equal(a.call_row_id, call!.id)
      assert.equal(a.citizen_phone, '+77017654321')
      const [person] = await t.database.db.select().from(persons).where(eq(persons.iin, VALID_IIN))
      assert.equal(a.person_id, person!.id)
      assert.equal(person!.full_name, 'Серикова Айгуль')
      // the same IIN again: the person exists, the operator is told to pick them
      const again = await register(base({ citizen: { full_name: 'Другое имя', iin: VALID_IIN } }))
      assert.equal(again.statusCode, 409, again.body)
      assert.match(again.json().detail, new RegExp(`id ${person!.id}`))
      const known = await register(base({ citizen: { person_id: person!.id } }))
      assert.equal(known.statusCode, 201, known.body)
      assert.equal(known.json().citizen_name, 'Серикова Айгуль')
    })

    it('a repeat appeal of the same citizen on the same subcategory within 30 days is flagged', async () => {
      const phone = '+77015550001'
      assert.equal((await register(base({ citizen: { full_name: 'Повтор', phone } }))).json().is_repeat, false)
      assert.equal((await register(base({ citizen: { full_name: 'Повтор', phone } }))).json().is_repeat, true)
      assert.equal((await register(base({ citizen: { full_name: 'Повтор', phone }, subcategory_id: subcategory.other }))).json().is_repeat, false)
      await at(new Date(clock().getTime() + 31 * 86_400_000), async () => {
        assert.equal((await register(base({ citizen: { full_name: 'Повтор', phone } }))).json().is_repeat, false, 'older than 30 days')
      })
    })

    it('422 names the field: unknown ids, a bad IIN or phone, no citizen name; nothing is written', async () => {
      const before = (await t.app.inject({ url: '/api/appeals?limit=200', headers: admin })).json().items.length
      const cases: [Record<string, unknown>, (string | number)[]][] = [
        [{ source_id: 999999 }, ['body', 'source_id']],
        [{ response_method_id: 999999 }, ['body', 'response_method_id']],
        [{ subcategory_id: 999999 }, ['body', 'subcategory_id']],
        [{ region_id: 999999 }, ['body', 'region_id']],
        [{ executor_organization_id: 999999 }, ['body', 'executor_organization_id']],
        [{ executor_organization_id: otherOrg.id, executor_employee_id: executorOperatorId }, ['body', 'executor_employee_id']],
        [{ call_row_id: 999999 }, ['body', 'call_row_id']],
        [{ citizen: { full_name: 'X', iin: '900101300018' } }, ['body', 'citizen', 'iin']],
        [{ citizen: { full_name: 'X', phone: '12' } }, ['body', 'citizen', 'phone']],
        [{ citizen: { phone: '+77011234567' } }, ['body', 'citizen', 'full_name']],
        [{ citizen: { full_name: 'Без телефона' } }, ['body', 'citizen', 'phone']],
        [{ citizen: { person_id: 999999 } }, ['body', 'citizen', 'person_id']],
        [{ language: 'en' }, ['body', 'language']],
        [{ text: '' }, ['body', 'text']],
      ]
      for (const [patch, loc] of cases) {
        const res = await register(base(patch))
        assert.equal(res.statusCode, 422, `${JSON.stringify(patch)}: ${res.body}`)
        assert.ok(res.json().detail.some((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc)), `${JSON.stringify(patch)} -> ${res.body}`)
      }
      assert.equal((await t.app.inject({ url: '/api/appeals?limit=200', headers: admin })).json().items.length, before)
    })

    it('only the centre registers (403); without a token 401', async () => {
      assert.equal((await register(base(), executorManager)).statusCode, 403)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/appeals', payload: base() })).statusCode, 401)
      assert.equal((await register(base(), admin)).statusCode, 201)
    })

    it('numbers stay gapless and unique under concurrent registration', async () => {
      const results = await Promise.all(Array.from({ length: 12 }, () => register(base())))
      assert.deepEqual(results.map((r) => r.statusCode), Array(12).fill(201))
      const numbers = results.map((r) => Number(r.json().number.slice(-6))).sort((a, b) => a - b)
      for (let i = 1; i < numbers.length; i++) assert.equal(numbers[i], numbers[i - 1]! + 1, `gapless: ${numbers.join(',')}`)
    })

    it('the millionth appeal of a year gets a seventh digit rather than a duplicate', async () => {
      await at(local('2027-03-01', '10:00'), async () => {
        await t.database.db.insert(appealCounters).values({ year: 2027, last_number: 999_998 })
        const numbers = []
        for (let i = 0; i < 2; i++) {
          const res = await register(base())
          assert.equal(res.statusCode, 201, res.body)
          numbers.push(res.json().number)
        }
        assert.deepEqual(numbers, ['109-2027-999999', '109-2027-1000000'])
      })
    })
  })

  describe('lifecycle (DESIGN 7.2)', () => {
    const fresh = async (over: Record<string, unknown> = {}) => (await register(base(over))).json() as { id: number, number: string, close_due_at: string }

    it('assign, take, extend, answer, return, answer, close: each checked, each in the history', async () => {
      const a = await fresh()
      let res = await act(a.id, 'assign', centreOperator, { executor_organization_id: executor.id })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().status, 'assigned')
      res = await act(a.id, 'assign', executorManager, { executor_employee_id: executorOperatorId })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().executor_employee_id, executorOperatorId)
      assert.deepEqual((await t.app.inject({ url: `/api/appeals/${a.id}`, headers: executorOperator })).json().allowed_actions, ['take'])
      res = await act(a.id, 'take', executorOperator)
      assert.equal(res.json().status, 'in_work')
      const until = new Date(new Date(a.close_due_at).getTime() + 86_400_000).toISOString()
      res = await act(a.id, 'extend', executorManager, { until, reason: 'Нужен выезд на место' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().close_due_at, until)
      assert.equal(res.json().extended_until, until)
      res = await act(a.id, 'extend', executorManager, { until: new Date(new Date(until).getTime() + 3_600_000).toISOString(), reason: 'ещё' })
      assert.equal(res.statusCode, 409, 'an extension is given once')
      res = await act(a.id, 'answer', executorOperator, { text: 'Отопление восстановлено', language: 'ru', attachments: [{ name: 'акт.pdf', size: 1024, content_type: 'application/pdf' }] })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().answer.text, 'Отопление восстановлено')
      res = await act(a.id, 'return', centreOperator, { reason: 'Нет подписи' })
      assert.equal(res.json().status, 'in_work')
      assert.equal(res.json().answer, null)
      await act(a.id, 'answer', executorOperator, { text: 'Отопление восстановлено, акт подписан', language: 'kk' })
      res = await act(a.id, 'close', centreOperator)
      assert.equal(res.json().status, 'closed')
      assert.deepEqual(res.json().allowed_actions, [])
      const history = (await t.app.inject({ url: `/api/appeals/${a.id}`, headers: admin })).json().history as { action: string, from_status: string, to_status: string, reason: string | null, actor_id: number }[]
      assert.deepEqual(history.map((e) => `${e.action}:${e.from_status ?? '-'}>${e.to_status}`), [
        'register:->registered', 'assign:registered>assigned', 'assign:assigned>assigned', 'take:assigned>in_work', 'extend:in_work>in_work',
        'answer:in_work>answered', 'return:answered>in_work', 'answer:in_work>answered', 'close:answered>closed',
      ])
      assert.equal(history.find((e) => e.action === 'return')!.reason, 'Нет подписи')
      assert.equal(history.find((e) => e.action === 'take')!.actor_id, executorOperatorId)
      assert.equal((history.find((e) => e.action === 'take') as { actor_name?: string }).actor_name, 'Иванов Иван', 'the history names who acted')
    })

    it('a transition the state does not allow is 409 naming what is allowed; one the role does not allow is 403', async () => {
      const a = await fresh()
      let res = await act(a.id, 'close', centreOperator)
      assert.equal(res.statusCode, 409)
      assert.match(res.json().detail, /is registered: close is not allowed now \(allowed: assign, reject\)/)
      await act(a.id, 'assign', centreOperator, { executor_organization_id: executor.id })
      res = await act(a.id, 'take', centreOperator)
      assert.equal(res.statusCode, 403, 'the centre does not take appeals into work')
      res = await act(a.id, 'extend', executorOperator, { until: new Date(Date.now() + 86_400_000 * 30).toISOString(), reason: 'x' })
      assert.equal(res.statusCode, 403, 'only the executor manager extends')
      res = await act(a.id, 'reject', executorManager, { kind: 'duplicate', reason: 'x' })
      assert.equal(res.statusCode, 403)
      res = await act(a.id, 'assign', centreOperator, { executor_organization_id: otherOrg.id })
      assert.equal(res.statusCode, 422, 'changing the executor is a redirect')
    })

    it('redirect keeps the deadlines, clears the employee, and hands visibility over', async () => {
      const a = await fresh({ executor_organization_id: executor.id, executor_employee_id: executorOperatorId })
      const before = (await t.app.inject({ url: `/api/appeals/${a.id}`, headers: executorOperator })).json()
      let res = await act(a.id, 'redirect', executorManager, { executor_organization_id: otherOrg.id, reason: 'Не наша компетенция' })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().executor_employee_id, null)
      assert.equal(res.json().close_due_at, before.close_due_at)
      assert.equal((await t.app.inject({ url: `/api/appeals/${a.id}`, headers: executorOperator })).statusCode, 404)
      assert.equal((await t.app.inject({ url: `/api/appeals/${a.id}`, headers: otherExecutor })).statusCode, 200)
      res = await act(a.id, 'redirect', otherExecutor, { executor_organization_id: otherOrg.id, reason: 'x' })
      assert.equal(res.statusCode, 422, 'to the same organization')
    })

    it('reject needs a kind and a reason; extension past the legal maximum or before the deadline is 422', async () => {
      const a = await fresh({ executor_organization_id: executor.id })
      assert.equal((await act(a.id, 'reject', centreOperator, { kind: 'spam', reason: 'x' })).statusCode, 422)
      assert.equal((await act(a.id, 'reject', centreOperator, { kind: 'duplicate' })).statusCode, 422)
      const tooLate = await act(a.id, 'extend', executorManager, { until: '2026-12-31T00:00:00Z', reason: 'x' })
      assert.equal(tooLate.statusCode, 422)
      assert.match(JSON.stringify(tooLate.json().detail), /30 working days/)
      assert.equal((await act(a.id, 'extend', executorManager, { until: '2026-01-12T00:00:00Z', reason: 'x' })).statusCode, 422)
      const res = await act(a.id, 'reject', centreOperator, { kind: 'duplicate', reason: 'Повтор обращения 109-2026-000001' })
      assert.equal(res.json().status, 'rejected')
      assert.equal(res.json().rejection_kind, 'duplicate')
    })

    it('two users racing the same transition: one 200, one 409', async () => {
      const a = await fresh({ executor_organization_id: executor.id })
      const results = await Promise.all([act(a.id, 'take', executorOperator), act(a.id, 'take', executorManager)])
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
    })

    it('unknown appeals are 404, bad ids 422', async () => {
      assert.equal((await act(999999, 'close', admin)).statusCode, 404)
      assert.equal((await t.app.inject({ url: '/api/appeals/999999', headers: admin })).statusCode, 404)
      assert.equal((await t.app.inject({ url: '/api/appeals/0', headers: admin })).statusCode, 422)
      assert.equal((await t.app.inject({ url: '/api/appeals/abc', headers: admin })).statusCode, 422)
    })
  })

  describe('visibility and the list', () => {
    it('executor staff see only their organization\'s appeals; the centre and admins see all', async () => {
      const mine = (await register(base({ executor_organization_id: executor.id }))).json()
      const theirs = (await register(base({ executor_organization_id: otherOrg.id }))).json()
      const list = async (headers: Record<string, string>) => ((await t.app.inject({ url: '/api/appeals?limit=200', headers })).json().items as { id: number }[]).map((a) => a.id)
      assert.ok((await list(executorOperator)).includes(mine.id))
      assert.ok(!(await list(executorOperator)).includes(theirs.id))
      assert.equal((await t.app.inject({ url: `/api/appeals/${theirs.id}`, headers: executorOperator })).statusCode, 404)
      assert.equal((await act(theirs.id, 'take', executorOperator)).statusCode, 404, 'no action reveals another executor\'s appeal')
      for (const headers of [centreOperator, admin]) assert.ok((await list(headers)).includes(theirs.id))
    })

    it('filters: status, executor, classification levels, region subtree, phone, IIN, words (Russian stems), the applicant, number and its end, IIN and phone as text', async () => {
      const special = (await register(base({ text: 'Протекает крыша над подъездом', subcategory_id: subcategory.other, executor_organization_id: otherOrg.id, citizen: { full_name: 'Фильтр', phone: '+77019998877' } }))).json()
      const q = async (query: string) => ((await t.app.inject({ url: `/api/appeals?limit=200&${query}`, headers: admin })).json().items as { id: number }[]).map((a) => a.id)
      assert.deepEqual(await q(`subcategory_id=${subcategory.other}&executor_organization_id=${otherOrg.id}&phone=${encodeURIComponent('8 701 999 88 77')}`), [special.id])
      assert.ok((await q(`category_id=${ids.category}`)).includes(special.id))
      assert.ok((await q(`classifier_id=${ids.classifier}&appeal_type_id=${ids.appealType}`)).includes(special.id))
      assert.ok((await q(`region_id=${ids.region}`)).includes(special.id), 'the oblast includes its districts')
      assert.ok(!(await q('status=closed')).includes(special.id))
      assert.deepEqual(await q(`q=${encodeURIComponent('протекающая крыша')}`), [special.id], 'Russian stems match')
      assert.deepEqual(await q(`q=${special.number}`), [special.id])
      // the applicant by surname (Russian stems: Жаксылыковой finds Жаксылыкова), a number by its end
      const named = (await register(base({ citizen: { full_name: 'Жаксылыкова Гульнара', phone: '+77019998876' } }))).json()
      assert.deepEqual(await q(`q=${encodeURIComponent('Жаксылыкова')}`), [named.id])
      assert.deepEqual(await q(`q=${encodeURIComponent('жаксылыковой')}`), [named.id])
      const tail = named.number.slice(-6)
      assert.deepEqual(await q(`q=${tail}`), [named.id], `the tail ${tail} of ${named.number}`)
      assert.deepEqual(await q(`q=${named.number.slice(-11)}`), [named.id], 'the year and the sequence')
      assert.deepEqual(await q('q=0000000'), [], 'a tail no number has')
      assert.deepEqual(await q(`q=${encodeURIComponent('%%%')}`), [], 'no pattern of LIKE')
      const withIin = await q(`iin=${VALID_IIN}`)
      assert.ok(withIin.length >= 2)
      // the one search box: an IIN or a phone typed as text finds the applicant's appeals
      assert.deepEqual(await q(`q=${VALID_IIN}`), withIin, 'twelve digits: the applicant\'s IIN')
      assert.deepEqual(await q(`q=${encodeURIComponent('8 (701) 999-88-77')}`), [special.id], 'a phone in any writing: the applicant\'s phone')
      assert.deepEqual(await q(`q=${encodeURIComponent('+77019998877')}`), [special.id])
      assert.deepEqual(await q('q=7019998875'), [], 'a phone nobody called from')
      assert.ok(!(await q('overdue=true')).includes(special.id))
      assert.equal((await t.app.inject({ url: '/api/appeals?phone=12', headers: admin })).statusCode, 422)
      assert.equal((await t.app.inject({ url: '/api/appeals?iin=12', headers: admin })).statusCode, 422)
      assert.equal((await t.app.inject({ url: '/api/appeals?status=lost', headers: admin })).statusCode, 422)
      assert.equal((await t.app.inject({ url: '/api/appeals?limit=201', headers: admin })).statusCode, 422)
    })

    it('keyset pages: stable, no row twice or lost, a foreign cursor is 422', async () => {
      const all = ((await t.app.inject({ url: '/api/appeals?limit=200', headers: admin })).json().items as { id: number }[]).map((a) => a.id)
      const seen: number[] = []
      let cursor: string | null = null
      do {
        const page: { items: { id: number }[], next_cursor: string | null } = (await t.app.inject({ url: `/api/appeals?limit=7${cursor ? `&cursor=${cursor}` : ''}`, headers: admin })).json()
        seen.push(...page.items.map((a) => a.id))
        cursor = page.next_cursor
      } while (cursor)
      assert.deepEqual(seen, all)
      assert.equal((await t.app.inject({ url: '/api/appeals?cursor=bm90LWEtY3Vyc29y', headers: admin })).statusCode, 422)
    })
  })

  describe('deadlines on the working calendar (DESIGN 7.3)', () => {
    const due = async (when: Date, subcategoryId: number) => {
      let a: { work_due_at: string, close_due_at: string } | undefined
      await at(when, async () => {
        const res = await register(base({ subcategory_id: subcategoryId }))
        assert.equal(res.statusCode, 201, res.body)
        a = res.json()
      })
      return a!
    }

    it('across a weekend: Friday 17:00 + 2 working hours is Monday 10:00', async () => {
      const a = await due(local('2026-01-09', '17:00'), subcategory.normal)
      assert.equal(a.work_due_at, local('2026-01-12', '10:00').toISOString())
    })

    it('across the new year and its holidays: 31 December 16:00 + 3 working hours is 5 January 10:00', async () => {
      const a = await due(local('2025-12-31', '16:00'), subcategory.other)
      assert.equal(a.work_due_at, local('2026-01-05', '10:00').toISOString())
    })

    it('a transferred working day counts: Sunday 5 January 2025 was worked, Friday 3 January was not', async () => {
      const a = await due(local('2025-01-03', '10:00'), subcategory.normal)
      assert.equal(a.work_due_at, local('2025-01-05', '11:00').toISOString())
    })

    it('a holiday does not count: 8 March 2026 (Sunday) moved the day off to Monday 9 March', async () => {
      const a = await due(local('2026-03-06', '17:30'), subcategory.normal)
      assert.equal(a.work_due_at, local('2026-03-10', '10:30').toISOString())
    })

    it('an emergency counts calendar hours, even on a Saturday', async () => {
      const a = await due(local('2026-01-10', '10:00'), subcategory.emergency)
      assert.equal(a.work_due_at, local('2026-01-10', '12:00').toISOString())
      assert.equal(a.close_due_at, local('2026-01-11', '10:00').toISOString())
    })

    it('without time_to_close: 15 working days; with no time_to_work: one working day', async () => {
      const a = await due(local('2026-01-12', '10:00'), subcategory.noTerm)
      assert.equal(a.close_due_at, local('2026-02-02', '10:00').toISOString())
      assert.equal(a.work_due_at, local('2026-01-13', '10:00').toISOString())
    })

    it('the calendar is readable by staff and edited by admins; an edit changes the next deadlines', async () => {
      const year = (await t.app.inject({ url: '/api/appeals/calendar?year=2026', headers: executorOperator })).json()
      assert.equal(year.time_zone, 'Asia/Almaty')
      assert.equal(year.work_hours, '09:00-18:00')
      assert.deepEqual(year.exceptions.find((d: { day: string }) => d.day === '2026-05-27'), { day: '2026-05-27', kind: 'holiday', name: 'Курбан айт', name_kk: 'Құрбан айт', is_working: false })
      assert.equal(year.exceptions.find((d: { day: string }) => d.day === '2026-03-09').name_kk, 'Демалыс күнін ауыстыру: Халықаралық әйелдер күні (08.03)')
      assert.ok(year.exceptions.some((d: { day: string, kind: string }) => d.day === '2026-03-09' && d.kind === 'holiday'))
      const put = (day: string, payload: object, headers = admin) => t.app.inject({ method: 'PUT', url: `/api/appeals/calendar/${day}`, headers, payload })
      assert.equal((await put('2026-04-14', { kind: 'holiday', name: 'Тест' }, executorManager)).statusCode, 403)
      assert.equal((await put('2026-02-30', { kind: 'holiday', name: 'Тест' })).statusCode, 422)
      assert.equal((await put('2026-04-14', { kind: 'day-off', name: 'Тест' })).statusCode, 422)
      const badKazakh = await put('2026-04-14', { kind: 'holiday', name: 'Тест', name_kk: '   ' })
      assert.deepEqual([badKazakh.statusCode, badKazakh.json().detail[0].loc], [422, ['body', 'name_kk']])
      const named = await put('2026-04-14', { kind: 'holiday', name: 'Тест', name_kk: ' Сынақ ' })
      assert.deepEqual([named.statusCode, named.json().name_kk], [200, 'Сынақ'])
      // PUT gives the day's whole state: a Kazakh name left out is none
      const plain = await put('2026-04-14', { kind: 'holiday', name: 'Тест' })
      assert.deepEqual([plain.statusCode, plain.json().name_kk], [200, null])
      const a = await due(local('2026-04-13', '17:00'), subcategory.normal)
      assert.equal(a.work_due_at, local('2026-04-15', '10:00').toISOString(), 'the new holiday is skipped')
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/appeals/calendar/2026-04-14', headers: admin })).statusCode, 200)
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/appeals/calendar/2026-04-14', headers: admin })).statusCode, 404)
      const b = await due(local('2026-04-13', '17:00'), subcategory.normal)
      assert.equal(b.work_due_at, local('2026-04-14', '10:00').toISOString())
      assert.equal(year.working_days, 365 - 104 - year.exceptions.filter((d: { is_working: boolean, day: string }) => !d.is_working && ![0, 6].includes(new Date(d.day).getUTCDay())).length)
    })
  })

  it('a classifier item an appeal uses cannot be deleted (409)', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/classifiers/subcategories/${subcategory.other}`, headers: admin })
    assert.equal(res.statusCode, 409, res.body)
  })
})
