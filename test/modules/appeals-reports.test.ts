import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { regions } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, insertSyntheticAppeals, type AppealFixture } from '../helpers/appeals.js'
import { centreDayOf, manualClock } from '../helpers/clock.js'

const local = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:00`)

describe('appeals: statistics and export', () => {
  let t: TestApp
  let f: AppealFixture
  const clock = manualClock(local('2026-03-02', '10:00').getTime())
  const numbers: Record<string, string> = {}
  let district: number

  const at = (day: string, hhmm: string) => clock.advance(local(day, hhmm).getTime() - clock().getTime())
  const post = async (url: string, headers: Record<string, string>, payload?: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${url}: ${res.body}`)
    return res.json()
  }
  const register = async (name: string, over: Record<string, unknown>) => {
    const appeal = await post('/api/appeals', f.people.operator, {
      citizen: { full_name: `Гражданин ${name}`, phone: '+77011234567' }, source_id: f.ids.source, language: 'ru', text: `Обращение ${name}, текст с запятой, и "кавычками"`,
      subcategory_id: f.ids.heating, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, ...over,
    })
    numbers[name] = appeal.number
    return appeal.id as number
  }

  before(async () => {
    t = await buildTestApp({ deps: { clock }, env: { ACCESS_TOKEN_TTL: '30d', NOTIFY_INTERVAL: '1h' } })
    f = await appealFixture(t.app, t.database.db)
    district = (await t.database.db.select().from(regions).where(eq(regions.parent_id, f.ids.region)).limit(1))[0]!.id
    // A1: answered on time and closed two hours after registration
    const a1 = await register('A1', { region_id: f.ids.region })
    // A2: another executor, answered after its deadline, closed on Thursday
    const a2 = await register('A2', { subcategory_id: f.ids.water, executor_organization_id: f.other.id })
    const otherOperator = f.people.otherManager
    await post(`/api/appeals/${a2}/take`, otherOperator)
    await post(`/api/appeals/${a1}/take`, f.people.executorOperator)
    at('2026-03-02', '11:00')
    await post(`/api/appeals/${a1}/answer`, f.people.executorOperator, { text: 'Сделано', language: 'ru', check: { verdict: 'complete' } })
    at('2026-03-02', '12:00')
    await post(`/api/appeals/${a1}/close`, f.people.operator)
    // A3: never taken (past its work deadline), in a district of the oblast
    at('2026-03-03', '10:00')
    await register('A3', { region_id: district })
    // A4: rejected
    at('2026-03-04', '10:00')
    const a4 = await register('A4', { citizen: { full_name: '=HYPERLINK("http://evil")', phone: '+77011234567' } })
    await post(`/api/appeals/${a4}/reject`, f.people.operator, { kind: 'duplicate', reason: 'Повтор' })
    at('2026-03-05', '09:00')
    await t.app.appealDeadlines.runOnce() // the job may have run already, woken by the registrations
    const overdue = (await t.app.inject({ url: '/api/appeals?overdue=true', headers: f.people.operator })).json().items.map((a: { number: string }) => a.number)
    assert.deepEqual(overdue, [numbers.A3, numbers.A2], 'A2 (answer deadline) and A3 (work deadline)')
    await post(`/api/appeals/${a2}/answer`, otherOperator, { text: 'Поздний ответ', language: 'ru', check: { verdict: 'partial' } })
    at('2026-03-05', '12:00')
    await post(`/api/appeals/${a2}/close`, f.people.operator)
  })
  after(() => t.close())

  const stats = (query: string, headers = f.people.operator) => t.app.inject({ url: `/api/appeals/stats?${query}`, headers })

  it('the period\'s totals: received, answered on time, closed, overdue, median time to close', async () => {
    const res = await stats('date_from=2026-03-02&date_to=2026-03-06')
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.deepEqual(body.totals, { received: 4, answered: 2, answered_on_time: 1, on_time_rate: 0.5, closed: 2, overdue: 2, median_hours_to_close: 38 })
    assert.equal(body.time_zone, 'Asia/Almaty')
    assert.deepEqual(body.by_day, [
      { day: '2026-03-02', received: 2, closed: 1 }, { day: '2026-03-03', received: 1, closed: 0 }, { day: '2026-03-04', received: 1, closed: 0 },
      { day: '2026-03-05', received: 0, closed: 1 }, { day: '2026-03-06', received: 0, closed: 0 },
    ])
    assert.deepEqual(body.by_executor.map((g: { id: number, received: number, closed: number }) => [g.id, g.received, g.closed]), [[f.executor.id, 3, 1], [f.other.id, 1, 1]])
    assert.equal(body.by_executor[0].name, 'Акимат района')
    // the district's appeal counts for its oblast
    const byRegion = body.by_region.map((g: { id: number | null, name: string | null, received: number }) => [g.id, g.name, g.received])
    assert.deepEqual(byRegion, [[f.ids.region, 'Алматинская область', 2], [null, null, 2]])
    assert.deepEqual(body.by_classification.map((g: { id: number, received: number }) => [g.id, g.received]), [[f.ids.category, 4]])
    const bySub = (await stats('date_from=2026-03-02&date_to=2026-03-06&classification_level=subcategory')).json().by_classification
    assert.deepEqual(bySub.map((g: { name: string, received: number, median_hours_to_close: number | null }) => [g.name, g.received, g.median_hours_to_close]), [['Отопление', 3, 2], ['Водоснабжение', 1, 74]])
  })

  it('a shorter period counts what happened in it; filters narrow it; executors see their own', async () => {
    const thursday = (await stats('date_from=2026-03-05&date_to=2026-03-05')).json().totals
    assert.deepEqual(thursday, { received: 0, answered: 1, answered_on_time: 0, on_time_rate: 0, closed: 1, overdue: 0, median_hours_to_close: 74 })
    const executorOnly = (await stats('date_from=2026-03-02&date_to=2026-03-06', f.people.executorManager)).json()
    assert.equal(executorOnly.totals.received, 3)
    assert.deepEqual(executorOnly.by_executor.map((g: { id: number }) => g.id), [f.executor.id])
    assert.equal((await stats(`date_from=2026-03-02&date_to=2026-03-06&executor_organization_id=${f.other.id}`)).json().totals.received, 1)
    const defaults = (await stats('')).json()
    assert.equal(defaults.date_to, '2026-03-05')
    assert.equal(defaults.date_from, '2026-02-04')
    assert.equal(defaults.by_day.length, 30)
  })

  it('bad periods are 422 on the field; no token is 401', async () => {
    const cases: [string, string][] = [
      ['date_from=2026-03-06&date_to=2026-03-02', 'query.date_from'],
      ['date_from=2024-01-01&date_to=2026-03-02', 'query.date_from'],
      ['date_from=2026-02-30', 'query.date_from'],
      ['classification_level=region', 'query.classification_level'],
      ['limit=0', 'query.limit'],
    ]
    for (const [query, loc] of cases) {
      const res = await stats(query)
      assert.equal(res.statusCode, 422, query)
      assert.equal(res.json().detail[0].loc.join('.'), loc, query)
    }
    assert.equal((await t.app.inject({ url: '/api/appeals/stats' })).statusCode, 401)
    assert.equal((await t.app.inject({ url: '/api/appeals/export' })).statusCode, 401)
  })

  const exportOf = (query: string, headers = f.people.operator) => t.app.inject({ url: `/api/appeals/export?${query}`, headers })

  it('CSV: UTF-8 with BOM, Russian or Kazakh column names, local times, quoting, no formula injection, the list\'s filters', async () => {
    const res = await exportOf('format=csv')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8')
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="appeals-\d{4}-\d{2}-\d{2}\.csv"$/)
    assert.equal(res.headers['x-export-rows'], '4')
    assert.equal(res.headers['x-export-truncated'], 'false')
    assert.ok(res.body.startsWith('\uFEFFНомер,Дата поступления,Статус,Заявитель,'))
    const lines = res.body.trim().split('\r\n')
    assert.equal(lines.length, 5)
    assert.ok(lines[1]!.startsWith(`${numbers.A4},2026-03-04 10:00,Отклонено,"'=HYPERLINK(""http://evil"")",+77011234567,ru,`), lines[1])
    assert.ok(lines[4]!.startsWith(`${numbers.A1},2026-03-02 10:00,Закрыто,Гражданин A1,`), lines[4])
    assert.ok(lines[4]!.includes(',Алматинская область,'))
    assert.ok(lines[4]!.endsWith(',"Обращение A1, текст с запятой, и ""кавычками"""'))
    const closed = (await exportOf('format=csv&status=closed')).body.trim().split('\r\n')
    assert.deepEqual(closed.slice(1).map((l) => l.split(',')[0]), [numbers.A2, numbers.A1])
    const kk = (await exportOf('format=csv&lang=kk&status=rejected')).body
    assert.ok(kk.startsWith('\uFEFFНөмірі,Түскен күні,Мәртебесі,'))
    assert.match(kk, /,Қабылданбады,/)
    const executorView = (await exportOf('format=csv', f.people.executorManager)).body.trim().split('\r\n')
    assert.equal(executorView.length, 4, 'the executor exports its three appeals only')
    const bad = await exportOf('format=pdf&lang=en')
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail.map((d: { loc: string[] }) => d.loc.join('.')).sort(), ['query.format', 'query.lang'])
  })

  it('XLSX: one sheet a spreadsheet reads, the header row bold and frozen', async () => {
    const res = await exportOf('format=xlsx&status=closed')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('Обращения')!
    assert.equal(sheet.rowCount, 3)
    assert.equal(sheet.getRow(1).getCell(1).value, 'Номер')
    assert.equal(sheet.getRow(1).font?.bold, true)
    assert.deepEqual([2, 3].map((r) => sheet.getRow(r).getCell(1).value), [numbers.A2, numbers.A1])
    assert.equal(sheet.getRow(3).getCell(3).value, 'Закрыто')
    assert.equal(sheet.getRow(3).getCell(11).value, 3, 'numbers stay numbers')
  })
})

describe('appeals export across batches, and its cap', () => {
  // the export's code path at a small count (APPEAL_EXPORT_MAX_ROWS): three batches of 1,000 and a
  // cut; 100,000 rows and their memory are npm run bench's (bench/appeals.ts)
  const CAP = 2500
  it(`${CAP} rows stream out whole across batches; a larger match is cut at the cap and says so`, async () => {
    const t = await buildTestApp({ env: { NOTIFY_INTERVAL: '1h', APPEAL_EXPORT_MAX_ROWS: String(CAP) } })
    try {
      const f = await appealFixture(t.app, t.database.db)
      const refs = { source: f.ids.source, method: f.ids.methods.call, classifier: f.ids.classifier, appealType: f.ids.appealType, category: f.ids.category, subcategories: [f.ids.heating, f.ids.water], regions: [f.ids.region], executors: [f.executor.id, f.other.id] }
      await insertSyntheticAppeals(t.database.db, refs, { count: CAP, until: new Date(), days: 300 })
      const res = await t.app.inject({ url: '/api/appeals/export?format=csv', headers: f.people.operator })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-export-rows'], String(CAP))
      assert.equal(res.headers['x-export-truncated'], 'false')
      const lines = res.body.trim().split('\r\n')
      assert.equal(lines.length, CAP + 1)
      assert.equal(new Set(lines.slice(1).map((l) => l.split(',')[0])).size, CAP, 'no row twice')
      await insertSyntheticAppeals(t.database.db, refs, { count: 1, until: new Date(), days: 1, year: 2099, first: 1 })
      const dayBefore = centreDayOf()
      const cut = await t.app.inject({ url: '/api/appeals/export?format=csv', headers: f.people.operator })
      const dayAfter = centreDayOf()
      assert.equal(cut.headers['x-export-truncated'], 'true')
      assert.equal(cut.headers['x-export-rows'], String(CAP))
      assert.equal(cut.body.trim().split('\r\n').length, CAP + 1)
      // the file is named by the centre's day (the machine's zone may be on another)
      const named = /appeals-(\d{4}-\d{2}-\d{2})\.csv/.exec(String(cut.headers['content-disposition']))?.[1]
      assert.ok(named === dayBefore || named === dayAfter, `${named} is the centre's day ${dayAfter}`)
    } finally {
      await t.close()
    }
  })
})
