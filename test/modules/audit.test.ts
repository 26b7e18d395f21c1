import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { personalDataAccess } from '../../src/db/schema/index.js'
import { createAuditRepo } from '../../src/modules/audit/index.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { openSse } from '../helpers/sse.js'

// The audit of personal data (/api/audit/personal-data, beyond the interface): every answer that
// shows a citizen's data recorded before it leaves; read by data protection officers alone;
// append-only, and a record changed or removed in the database found by the chain's check.

type Headers = Record<string, string>
interface Page { items: Array<Record<string, any>>, total: number, next_before_id: number | null }

describe('the audit of personal data (/api/audit/personal-data)', () => {
  let t: TestApp
  let f: AppealFixture
  let officer: Headers
  let appealId: number
  const get = (url: string, headers: Headers) => t.app.inject({ url, headers: { ...headers, 'x-request-id': 'audit-test-request' } })
  const audit = async (query: string, headers: Headers = officer): Promise<Page> => {
    const res = await t.app.inject({ url: `/api/audit/personal-data?${query}`, headers })
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const check = async () => (await t.app.inject({ url: '/api/audit/personal-data/check', headers: officer })).json()
  /** what a superuser of the database could do, past the table's trigger */
  const tamper = async (statement: string, params: unknown[] = []) => {
    await t.database.query('alter table personal_data_access disable trigger personal_data_access_append_only')
    try { await t.database.query(statement, params) } finally { await t.database.query('alter table personal_data_access enable trigger personal_data_access_append_only') }
  }

  before(async () => {
    t = await buildTestApp()
    f = await appealFixture(t.app, t.database.db)
    const res = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: f.people.operator,
      payload: { citizen: { full_name: 'Сейткали Айгерим', phone: '+77011234567', iin: '061211600012' }, source_id: f.ids.source, language: 'ru', text: 'Нет отопления', subcategory_id: f.ids.heating, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id },
    })
    assert.equal(res.statusCode, 201, res.body)
    appealId = res.json().id
    const user = await makeUser(t.database.db, { role: 'operator', organization_id: f.centre.id })
    officer = await login(t.app, user)
    // granted on the server (npm run cli -- data-protection --email ...), not through the service
    await createAuditRepo(t.database.db).setOfficer(user.id, false)
  })
  after(async () => { await t.close() })

  it('an appeal read: who, when, from where, which request, which appeal', async () => {
    assert.equal((await get(`/api/appeals/${appealId}`, f.people.executorManager)).statusCode, 200)
    const page = await audit(`subject=appeal&subject_id=${appealId}`)
    const record = page.items[0]!
    assert.equal(record.action, 'read')
    assert.equal(record.actor_email, f.managerEmail)
    assert.equal(record.actor_role, 'manager')
    assert.equal(record.ip, '127.0.0.1')
    assert.equal(record.request_id, 'audit-test-request')
    assert.equal(record.route, '/api/appeals/:appeal_id')
    assert.deepEqual(record.subject_ids, [String(appealId)])
    assert.match(record.hash, /^[0-9a-f]{64}$/)
  })

  it('lists record every row shown and the filter asked; a search of persons by IIN too; a refused read records nothing', async () => {
    assert.equal((await get('/api/appeals?q=061211600012', f.people.admin)).statusCode, 200)
    const list = (await audit('subject=appeal&action=read')).items.find((r) => r.route === '/api/appeals')!
    assert.deepEqual(list.subject_ids, [String(appealId)])
    assert.equal(list.detail.query.q, '061211600012')

    const persons = await get('/api/references/persons?q=061211600012', f.people.operator)
    assert.equal(persons.statusCode, 200)
    const personIds = persons.json().map((p: { id: number }) => String(p.id))
    assert.ok(personIds.length >= 1)
    const search = (await audit('subject=person')).items[0]!
    assert.deepEqual(search.subject_ids, personIds)

    const before = (await audit('')).total
    assert.equal((await get(`/api/appeals/${appealId}`, f.people.otherManager)).statusCode, 404)
    assert.equal((await get('/api/appeals/999999', f.people.admin)).statusCode, 404)
    // the officer's own searches of the audit are not records of personal data
    assert.equal((await audit('')).total, before)
  })

  it('a console on the live stream: each call it is shown (caller, transcript) recorded once, before it is shown', async () => {
    const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const console1 = await openSse(`${url}/api/call-events/stream`, admin)
    try {
      const post = async (path: string, payload: object) => assert.equal((await t.app.inject({ method: 'POST', url: `/api/call-events/${path}`, payload })).statusCode, 200)
      await post('answered', { operator_num: '101001', caller_phone: '87011234567', call_datetime: new Date().toISOString() })
      await post('transcription', { call_id: 'audit-live-1', operator_num: '101001', channel: 'caller', chunk_text: 'Алло', full_text: 'Алло' })
      await post('transcription', { call_id: 'audit-live-1', operator_num: '101001', channel: 'caller', chunk_text: 'Спасибо', full_text: 'Алло. Спасибо', is_final: true })
      const shown = () => console1.events.filter((e) => e.event.startsWith('call.'))
      await eventually(async () => shown().length >= 3, 30_000, 'the console saw the call and its chunks')
      const answeredId = (shown()[0]!.data.call as { id: number }).id
      const chunkCallId = shown()[1]!.data.call_row_id as number
      const records = (await audit('subject=call')).items.filter((r) => r.route === '/api/call-events/stream')
      assert.deepEqual(records.map((r) => r.subject_ids).sort(), [...new Set([String(answeredId), String(chunkCallId)])].map((id) => [id]).sort(), 'one record per call shown, not per event')
      assert.ok(records.every((r) => r.actor_role === 'admin' && r.action === 'read' && r.detail?.live === true), JSON.stringify(records))
    } finally {
      await console1.close()
    }
  })

  it('an export records its filter and its count of rows, not the rows', async () => {
    const res = await get('/api/appeals/export?format=csv&lang=ru', f.people.admin)
    assert.equal(res.statusCode, 200)
    const record = (await audit('action=export')).items[0]!
    assert.equal(record.subject, 'appeal')
    assert.deepEqual(record.subject_ids, [])
    assert.deepEqual(record.detail, { query: { format: 'csv', lang: 'ru' }, rows: Number(res.headers['x-export-rows']), truncated: false })
  })

  it('read by data protection officers alone: an admin is refused, as is anyone without a token; filters are checked', async () => {
    const refused = await t.app.inject({ url: '/api/audit/personal-data', headers: f.people.admin })
    assert.equal(refused.statusCode, 403)
    assert.equal(refused.json().code, 'data_protection_only')
    assert.equal((await t.app.inject({ url: '/api/audit/personal-data/check', headers: f.people.admin })).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/audit/personal-data' })).statusCode, 401)
    for (const query of ['limit=0', 'limit=501', 'subject=iin', 'from=yesterday', 'subject_id=a%20b', 'action=delete', 'unknown=1']) {
      const res = await t.app.inject({ url: `/api/audit/personal-data?${query}`, headers: officer })
      assert.equal(res.statusCode, 422, query)
      assert.ok(Array.isArray(res.json().detail), query)
    }
  })

  it('searchable by employee and period, in pages; exported as a file', async () => {
    const manager = (await audit(`subject=appeal&subject_id=${appealId}`)).items[0]!.actor_id as number
    const mine = await audit(`actor_id=${manager}`)
    assert.ok(mine.items.every((r) => r.actor_id === manager))
    const future = await audit(`from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`)
    assert.equal(future.total, 0)
    const first = await audit('limit=2')
    assert.equal(first.items.length, 2)
    const second = await audit(`limit=2&before_id=${first.next_before_id}`)
    assert.ok(second.items.every((r) => r.id < first.items[1]!.id))
    const file = await t.app.inject({ url: '/api/audit/personal-data/export?format=csv&lang=ru', headers: officer })
    assert.equal(file.statusCode, 200)
    assert.match(file.headers['content-type'] as string, /text\/csv/)
    assert.match(file.body, /Сотрудник/)
    assert.ok(file.body.includes(f.managerEmail))
  })

  it('append-only: the database refuses a change or a delete; the service has no route for either', async () => {
    const [first] = await t.database.db.select().from(personalDataAccess).limit(1)
    await assert.rejects(t.database.query('update personal_data_access set actor_email = $1 where id = $2', ['someone@else.kz', first!.id]), /append-only/)
    await assert.rejects(t.database.query('delete from personal_data_access where id = $1', [first!.id]), /append-only/)
    await assert.rejects(t.database.query('truncate personal_data_access'), /append-only/)
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/api/audit/personal-data/${first!.id}`, headers: officer })
      assert.ok([404, 405].includes(res.statusCode), `${method}: ${res.statusCode}`)
    }
    assert.deepEqual(await check(), { ok: true, checked: (await audit('')).total, first_id: first!.id, last_id: (await audit('limit=1')).items[0]!.id, broken: null })
  })

  it('the check finds a record changed in the database, and records removed from the middle of the chain', async () => {
    const rows = await t.database.db.select().from(personalDataAccess).orderBy(personalDataAccess.id)
    assert.ok(rows.length >= 4)
    const victim = rows[1]!
    await tamper('update personal_data_access set actor_email = $1 where id = $2', ['nobody@akimat.kz', victim.id])
    try {
      assert.deepEqual((await check()).broken, { id: victim.id, problem: 'changed' })
    } finally {
      await tamper('update personal_data_access set actor_email = $1 where id = $2', [victim.actor_email, victim.id])
    }
    assert.equal((await check()).ok, true, 'put back, it checks again')

    // one removed from the middle of the chain
    const gone = rows[2]!
    await tamper('delete from personal_data_access where id = $1', [gone.id])
    const result = await check()
    assert.equal(result.ok, false)
    assert.deepEqual(result.broken, { id: rows[3]!.id, problem: 'missing_before' })
  })

  it('the retention purge removes old records, and only it', async () => {
    const t2 = await buildTestApp()
    try {
      const repo = createAuditRepo(t2.database.db)
      const key = Buffer.alloc(32, 7)
      const entry = (at: Date) => ({ at, actor_id: 1, actor_email: 'a@b.kz', actor_role: 'admin', ip: '127.0.0.1', request_id: 'r', action: 'read' as const, subject: 'appeal' as const, subject_ids: ['1'], route: '/api/appeals/:appeal_id', detail: null })
      await repo.append([entry(new Date(Date.now() - 3 * 86_400_000)), entry(new Date(Date.now() - 2 * 86_400_000)), entry(new Date())], key)
      assert.equal(await repo.purgeBefore(new Date(Date.now() - 86_400_000)), 2)
      const left = await t2.database.db.select().from(personalDataAccess)
      assert.equal(left.length, 1)
      await assert.rejects(t2.database.query('delete from personal_data_access'), /append-only/)
    } finally {
      await t2.close()
    }
  })

  it('PERSONAL_DATA_AUDIT=false records nothing', async () => {
    const t3 = await buildTestApp({ env: { PERSONAL_DATA_AUDIT: 'false' } })
    try {
      const f3 = await appealFixture(t3.app, t3.database.db)
      assert.equal((await t3.app.inject({ url: '/api/appeals', headers: f3.people.admin })).statusCode, 200)
      assert.equal((await t3.database.db.select().from(personalDataAccess)).length, 0)
    } finally {
      await t3.close()
    }
  })
})
