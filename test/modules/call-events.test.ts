import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { selectRows } from '../../src/db/client.js'
import { callChunks, calls } from '../../src/db/schema/index.js'
import { appendChunksStatement } from '../../src/modules/call-events/repo.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { eventually } from '../helpers/http-target.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('call events: intake and history', () => {
  let t: TestApp
  let admin: Record<string, string>
  let org: { id: number }
  let operator: { id: number, email: string, password: string }
  let callSeq = 0
  const nextCallId = () => `call-${process.pid}-${++callSeq}`

  before(async () => {
    t = await buildTestApp()
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    org = await makeOrganization(t.database.db, { prefix: '101' })
    operator = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
    const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: 'Оператор', extension: '001', password: PASSWORD, employee_id: operator.id } })
    assert.equal(res.statusCode, 201)
    await t.app.inject({ method: 'POST', url: '/api/references/persons', payload: { full_name: 'Серикова Алия', iin: '061211600012', phone: '87011234567' } })
    // the plan test below looks at tables never analysed: PostgreSQL's autovacuum must not analyse them meanwhile
    for (const table of ['calls', 'call_chunks']) await t.database.db.execute(sql.raw(`alter table ${table} set (autovacuum_enabled = off)`))
  })
  after(() => t.close())

  const answered = (payload: object) => t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload })
  const chunk = (payload: object) => t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload })

  it('answered: stored, linked to the terminal, its organization and employee; the caller is found and masked', async () => {
    const res = await answered({ operator_num: '101001', caller_phone: '+7 701 123 45 67', call_datetime: '2026-11-21T10:00:00+05:00' })
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.deepEqual([body.call.terminal_id, body.call.organization_id, body.call.employee_id, body.call.caller_phone, body.call.answered_at],
      ['101001', org.id, operator.id, '+77011234567', '2026-11-21T05:00:00.000Z'])
    assert.equal(body.person.full_name, 'Серикова Алия')
    assert.equal(body.person.iin_masked, '********0012')
    assert.ok(!res.body.includes('061211600012'), 'the IIN is never shown whole')
    assert.equal(body.previous_calls, 0)
    const again = (await answered({ operator_num: '101001', caller_phone: '87011234567', call_datetime: '2026-11-21T11:00:00Z' })).json()
    assert.equal(again.previous_calls, 1)
    const unknown = (await answered({ operator_num: '555', caller_phone: '+1 202 555 0100', call_datetime: '2026-11-21T11:00:00Z' })).json()
    assert.deepEqual([unknown.person, unknown.call.terminal_id, unknown.call.caller_phone], [null, null, '+1 202 555 0100'])
    // the last second JavaScript's dates hold: the window around it (for the line's twin of the answer) reaches past it
    const edge = await answered({ operator_num: '555', caller_phone: '+77010000999', call_datetime: '9999-12-31T23:59:59Z' })
    assert.equal(edge.statusCode, 200, edge.body)
    assert.equal(edge.json().call.answered_at, '9999-12-31T23:59:59.000Z')
  })

  it('answered: 422 for every missing or malformed field', async () => {
    const missing = await answered({})
    assert.deepEqual(missing.json().detail.map((d: { loc: string[] }) => d.loc[1]).sort(), ['call_datetime', 'caller_phone', 'operator_num'])
    for (const [patch, field] of [[{ operator_num: 'abc' }, 'operator_num'], [{ operator_num: '1'.repeat(33) }, 'operator_num'],
      [{ call_datetime: 'yesterday' }, 'call_datetime'], [{ call_datetime: '2026-11-21' }, 'call_datetime'], [{ caller_phone: '' }, 'caller_phone']] as const) {
      const res = await answered(Object.assign({ operator_num: '101001', caller_phone: '87011234567', call_datetime: '2026-11-21T10:00:00Z' }, patch))
      assert.equal(res.statusCode, 422, JSON.stringify(patch))
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
    }
  })

  it('transcription: chunks keep arrival order, repeats are stored once, full_text is the transcript, is_final closes it (then 409)', async () => {
    await answered({ operator_num: '101001', caller_phone: '87011234567', call_datetime: '2026-11-21T12:00:00Z' })
    const callId = nextCallId()
    const base = { call_id: callId, operator_num: '101001' }
    const first = (await chunk({ ...base, channel: 'caller', chunk_text: 'Здравствуйте,', full_text: 'Здравствуйте,' })).json()
    assert.deepEqual([first.seq, first.duplicate], [1, false])
    const second = (await chunk({ ...base, channel: 'operator', chunk_text: 'слушаю вас', full_text: 'Здравствуйте, слушаю вас' })).json()
    assert.equal(second.seq, 2)
    const repeat = (await chunk({ ...base, channel: 'operator', chunk_text: 'слушаю вас', full_text: 'Здравствуйте, слушаю вас' })).json()
    assert.deepEqual([repeat.duplicate, repeat.seq], [true, 0])
    const last = (await chunk({ ...base, channel: 'caller', chunk_text: 'Спасибо.', full_text: 'Здравствуйте, слушаю вас. Спасибо.', is_final: true })).json()
    assert.deepEqual([last.seq, last.is_final], [3, true])
    assert.equal((await chunk({ ...base, channel: 'caller', chunk_text: 'Спасибо.', full_text: 'Здравствуйте, слушаю вас. Спасибо.', is_final: true })).json().duplicate, true, 'the final chunk repeated is still idempotent')
    const late = await chunk({ ...base, channel: 'caller', chunk_text: 'ещё', full_text: 'ещё' })
    assert.equal(late.statusCode, 409)
    const detail = (await t.app.inject({ url: `/api/call-events/calls/${callId}`, headers: admin })).json()
    assert.equal(detail.transcript, 'Здравствуйте, слушаю вас. Спасибо.')
    assert.deepEqual(detail.chunks.map((c: { seq: number, channel: string }) => [c.seq, c.channel]), [[1, 'caller'], [2, 'operator'], [3, 'caller']])
    assert.equal(detail.is_final, true)
    assert.equal(detail.caller_phone, '+77011234567', 'the chunks named the operator\'s answered call')
  })

  it('transcription in bursts: chunks of many calls at once, each sent twice, are stored once each, numbered without a gap in the order they were taken', async () => {
    const callIds = Array.from({ length: 8 }, nextCallId)
    const sent = callIds.flatMap((call_id, n) => Array.from({ length: 25 }, (_, k) => ({ call_id, operator_num: `55${n}`, channel: 'caller', chunk_text: `часть ${k}`, full_text: `текст до ${k}` })))
    const answers = await Promise.all([...sent, ...sent].map(async (payload) => ({ payload, res: await chunk(payload) })))
    assert.deepEqual([...new Set(answers.map((a) => a.res.statusCode))], [200], answers.find((a) => a.res.statusCode !== 200)?.res.body)
    for (const call_id of callIds) {
      const mine = answers.filter((a) => a.payload.call_id === call_id).map((a) => ({ text: a.payload.chunk_text, ...a.res.json() }))
      const stored = mine.filter((a) => !a.duplicate).sort((a, b) => a.seq - b.seq)
      assert.deepEqual(stored.map((a) => a.seq), Array.from({ length: 25 }, (_, k) => k + 1), 'each chunk numbered once, without a gap')
      assert.equal(new Set(stored.map((a) => a.text)).size, 25, 'each distinct chunk stored once, its repeat answered as a duplicate')
      const detail = (await t.app.inject({ url: `/api/call-events/calls/${call_id}`, headers: admin })).json()
      assert.deepEqual(detail.chunks.map((c: { chunk_text: string }) => c.chunk_text), stored.map((a) => a.text), 'stored in the order the answers numbered them')
      assert.equal(detail.transcript, sent.filter((s) => s.call_id === call_id).find((s) => s.chunk_text === stored.at(-1)!.text)!.full_text, 'the transcript is the last chunk\'s full_text')
    }
  })

  it('transcription in bursts: a new call\'s first chunks at once make one call; chunks taken after its final one are 409 and not stored', async () => {
    const call_id = nextCallId()
    const base = { call_id, operator_num: '556', channel: 'operator' }
    const burst = await Promise.all([0, 1, 2, 3, 4].map((k) => chunk({ ...base, chunk_text: `начало ${k}`, full_text: `начало ${k}` })))
    assert.deepEqual(burst.map((r) => r.statusCode), [200, 200, 200, 200, 200])
    assert.deepEqual(burst.map((r) => r.json().seq).sort(), [1, 2, 3, 4, 5])
    assert.equal(new Set(burst.map((r) => r.json().call_row_id)).size, 1, 'one call row')

    const closing = await Promise.all([
      chunk({ ...base, chunk_text: 'до', full_text: 'до' }),
      chunk({ ...base, chunk_text: 'конец', full_text: 'конец', is_final: true }),
      chunk({ ...base, chunk_text: 'после 1', full_text: 'после 1' }),
      chunk({ ...base, chunk_text: 'после 2', full_text: 'после 2' }),
    ])
    const finalSeq = closing[1]!.json().seq as number
    assert.equal(closing[1]!.statusCode, 200)
    const detail = (await t.app.inject({ url: `/api/call-events/calls/${call_id}`, headers: admin })).json()
    assert.equal(detail.chunks.at(-1).chunk_text, 'конец', 'the final chunk is the last one stored')
    assert.equal(detail.chunks.length, finalSeq)
    assert.equal(detail.is_final, true)
    assert.equal(detail.transcript, 'конец')
    for (const [k, res] of closing.entries()) {
      if (k === 1) continue
      const storedAs = detail.chunks.find((c: { chunk_text: string }) => c.chunk_text === (k === 0 ? 'до' : `после ${k - 1}`))
      if (res.statusCode === 409) assert.equal(storedAs, undefined, 'a refused chunk is not stored')
      else assert.equal(storedAs?.seq, res.json().seq, 'an accepted chunk is stored under its number')
    }
  })

  it('transcription in one batch: a final chunk and its copy, then a late chunk and its copy: stored, duplicate, 409, 409', async () => {
    const call_id = nextCallId()
    const base = { call_id, operator_num: '557', channel: 'caller' }
    assert.equal((await chunk({ ...base, chunk_text: 'первый', full_text: 'первый' })).json().seq, 1)
    const final = { ...base, chunk_text: 'конец', full_text: 'первый конец', is_final: true }
    const late = { ...base, chunk_text: 'поздно', full_text: 'поздно' }
    const [stored, copy, refused, refusedCopy] = await Promise.all([final, final, late, late].map(chunk))
    assert.deepEqual(stored!.json(), { message: 'Transcript closed', call_row_id: stored!.json().call_row_id, seq: 2, duplicate: false, is_final: true })
    assert.deepEqual([copy!.statusCode, copy!.json().duplicate, copy!.json().is_final], [200, true, true], 'the copy of a stored final chunk is a duplicate of a closed call')
    assert.deepEqual([refused!.statusCode, refusedCopy!.statusCode], [409, 409], 'a chunk after the final one is refused, and so is its copy (nothing of it was stored)')
    const detail = (await t.app.inject({ url: `/api/call-events/calls/${call_id}`, headers: admin })).json()
    assert.deepEqual(detail.chunks.map((c: { chunk_text: string }) => c.chunk_text), ['первый', 'конец'])
    assert.equal(detail.transcript, 'первый конец')
  })

  it('transcription on two instances at once: the same calls\' chunks, each sent to both, are stored once each without a gap', async () => {
    const other = await buildTestApp({ database: t.database })
    try {
      const callIds = Array.from({ length: 4 }, nextCallId)
      for (const call_id of callIds) assert.equal((await chunk({ call_id, operator_num: '558', channel: 'caller', chunk_text: 'алло', full_text: 'алло' })).statusCode, 200)
      const sent = callIds.flatMap((call_id) => Array.from({ length: 20 }, (_, k) => ({ call_id, operator_num: '558', channel: 'caller', chunk_text: `часть ${k}`, full_text: `до ${k}` })))
      const toOther = (payload: object) => other.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload })
      const answers = await Promise.all(sent.flatMap((payload) => [chunk(payload), toOther(payload)]))
      assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [200], answers.find((a) => a.statusCode !== 200)?.body)
      assert.equal(answers.filter((a) => !a.json().duplicate).length, sent.length, 'each chunk stored by one instance, a duplicate on the other')
      for (const call_id of callIds) {
        const detail = (await t.app.inject({ url: `/api/call-events/calls/${call_id}`, headers: admin })).json()
        assert.deepEqual(detail.chunks.map((c: { seq: number }) => c.seq), Array.from({ length: 21 }, (_, k) => k + 1))
        assert.equal(new Set(detail.chunks.map((c: { chunk_text: string }) => c.chunk_text)).size, 21)
      }
    } finally {
      await other.app.close()
    }
  })

  it('transcription: the batch statement finds its calls and chunks through the indexes, on young tables and on analysed ones (EXPLAIN)', async () => {
    const callId = nextCallId()
    for (let i = 1; i <= 20; i++) assert.equal((await chunk({ call_id: callId, operator_num: '101001', channel: 'left', chunk_text: `слово ${i}`, full_text: `до слова ${i}` })).statusCode, 200)
    const input = JSON.stringify([{ ord: 0, call_id: callId, channel: 'left', chunk_text: 'ещё', full_text: 'до слова 20 ещё', is_final: false, fingerprint: 'f'.repeat(64) }])
    const plan = async () => (await selectRows<{ 'QUERY PLAN': string }>(t.database.db,
      sql`explain ${appendChunksStatement({ chunks: sql`${input}`, receivedAt: sql`${new Date().toISOString()}`, channel: sql`${'plan_only'}` })}`))
      .map((r) => r['QUERY PLAN']).join('\n')
    // a read of the whole table for each batch: it halved the intake on a new database until autovacuum's first analyze
    const neverAnalysed = await selectRows<{ relname: string }>(t.database.db, sql`select relname from pg_class where relname in ('calls', 'call_chunks') and reltuples < 0`)
    assert.equal(neverAnalysed.length, 2, 'the tables are young')
    const young = await plan()
    assert.doesNotMatch(young, /Seq Scan on call_chunks/, young)
    // and a centre's months of calls: the batch's calls are looked up, not all the calls read
    await t.database.db.execute(sql`insert into calls (call_id, operator_num, is_final, created_at)
      select 'plan-' || c, '101001', true, now() - c * interval '1 minute' from generate_series(1, 20000) c`)
    await t.database.db.execute(sql`analyze calls`)
    await t.database.db.execute(sql`analyze call_chunks`)
    const analyzed = await plan()
    assert.doesNotMatch(analyzed, /Seq Scan on call/, analyzed)
    assert.match(analyzed, /call_chunks_fingerprint_unique/, analyzed)
    assert.match(analyzed, /calls_call_id_unique/, analyzed)
    await t.database.db.execute(sql`delete from calls where call_id like 'plan-%'`)
  })

  it('transcription: a long transcript is kept whole, compressed with lz4 on PostgreSQL (pglz on PGlite, built without it)', async () => {
    const callId = nextCallId()
    const fullText = Array.from({ length: 400 }, (_, i) => `вода ${i} жоқ`).join(' ')
    assert.equal((await chunk({ call_id: callId, operator_num: '101001', channel: 'left', chunk_text: 'жоқ', full_text: fullText })).statusCode, 200)
    const [stored] = await selectRows<{ transcript: string, method: string }>(t.database.db,
      sql`select transcript, pg_column_compression(transcript) as method from calls where call_id = ${callId}`)
    assert.equal(stored!.transcript, fullText)
    assert.equal(stored!.method, t.database.kind === 'postgres' ? 'lz4' : 'pglz')
  })

  it('migration 0026 keeps the chunks stored before it: a repeat of one is still a duplicate, the next is numbered after them', async () => {
    const callId = nextCallId()
    const first = { call_id: callId, operator_num: '101001', channel: 'left', chunk_text: 'до', full_text: 'до' }
    assert.equal((await chunk(first)).statusCode, 200)
    // call_chunks as the migrations before 0026 left it: a serial id for its key, the fingerprint in hex
    for (const statement of [
      'alter table call_chunks alter column fingerprint type varchar(64) using encode(fingerprint, \'hex\')',
      'alter table call_chunks drop constraint call_chunks_pkey',
      'alter table call_chunks add column id serial primary key',
      'create unique index call_chunks_seq_unique on call_chunks (call_row_id, seq)',
    ]) await t.database.db.execute(sql.raw(statement))
    const migration = readFileSync(new URL('../../drizzle/0026_call_chunks_key.sql', import.meta.url), 'utf8')
    for (const statement of migration.split('--> statement-breakpoint')) await t.database.db.execute(sql.raw(statement))

    const repeat = await chunk(first)
    assert.equal(repeat.statusCode, 200, repeat.body)
    assert.equal(repeat.json().duplicate, true)
    const next = await chunk({ ...first, chunk_text: 'после', full_text: 'до после' })
    assert.equal(next.json().seq, 2)
    const [key] = await selectRows<{ columns: string }>(t.database.db, sql`select pg_get_constraintdef(oid) as columns from pg_constraint where conname = 'call_chunks_pkey'`)
    assert.equal(key!.columns, 'PRIMARY KEY (call_row_id, seq)')
  })

  it('transcription: 422 for missing or malformed fields, texts bounded', async () => {
    const missing = await chunk({})
    assert.deepEqual(missing.json().detail.map((d: { loc: string[] }) => d.loc[1]).sort(), ['call_id', 'channel', 'chunk_text', 'full_text', 'operator_num'])
    for (const [patch, field] of [[{ channel: 'caller side' }, 'channel'], [{ chunk_text: 'x'.repeat(10_001) }, 'chunk_text'], [{ is_final: 'yes' }, 'is_final'], [{ call_id: 'bad id' }, 'call_id']] as const) {
      const res = await chunk(Object.assign({ call_id: nextCallId(), operator_num: '101001', channel: 'caller', chunk_text: 'a', full_text: 'a' }, patch))
      assert.equal(res.statusCode, 422, JSON.stringify(patch).slice(0, 40))
      assert.deepEqual(res.json().detail[0].loc, ['body', field])
    }
  })

  it('history: admin sees all, a manager its organization, an operator its own; filters and 404', async () => {
    const all = (await t.app.inject({ url: '/api/call-events/calls', headers: admin })).json() as { organization_id: number | null, operator_num: string }[]
    assert.ok(all.some((c) => c.organization_id === null))
    const manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: org.id }))
    const managed = (await t.app.inject({ url: '/api/call-events/calls', headers: manager })).json() as { organization_id: number }[]
    assert.ok(managed.length > 0 && managed.every((c) => c.organization_id === org.id))
    const mine = (await t.app.inject({ url: '/api/call-events/calls', headers: await login(t.app, operator) })).json() as { employee_id: number }[]
    assert.ok(mine.length > 0 && mine.every((c) => c.employee_id === operator.id))
    const stranger = await login(t.app, await makeUser(t.database.db, { role: 'operator', organization_id: org.id }))
    assert.deepEqual((await t.app.inject({ url: '/api/call-events/calls', headers: stranger })).json(), [])
    const byPhone = (await t.app.inject({ url: '/api/call-events/calls?phone=8%20701%20123%2045%2067', headers: admin })).json() as { caller_phone: string }[]
    assert.ok(byPhone.length >= 2 && byPhone.every((c) => c.caller_phone === '+77011234567'))
    const window = (await t.app.inject({ url: '/api/call-events/calls?from=2100-01-01T00:00:00Z', headers: admin })).json()
    assert.deepEqual(window, [])
    assert.equal((await t.app.inject({ url: '/api/call-events/calls?from=soon', headers: admin })).statusCode, 422)
    assert.equal((await t.app.inject({ url: '/api/call-events/calls' })).statusCode, 401)
    assert.equal((await t.app.inject({ url: '/api/call-events/calls/nope', headers: admin })).statusCode, 404)
  })
})

describe('call events with SERVICE_TOKEN', () => {
  it('the intake accepts only the service token', async () => {
    const t = await buildTestApp({ env: { SERVICE_TOKEN: 'speech-service-token-123' } })
    try {
      const payload = { operator_num: '101001', caller_phone: '87011234567', call_datetime: '2026-11-21T10:00:00Z' }
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload })).statusCode, 401)
      const user = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload, headers: user })).statusCode, 401)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload, headers: { authorization: 'Bearer speech-service-token-123' } })).statusCode, 200)
    } finally { await t.close() }
  })
})

describe('call retention', () => {
  it('calls older than CALL_RETENTION_DAYS are purged with their transcripts; newer ones stay', async () => {
    const clock = manualClock(Date.parse('2026-11-21T12:00:00Z'))
    const t = await buildTestApp({ env: { CALL_RETENTION_DAYS: '30', CALL_PURGE_INTERVAL: '50ms' }, deps: { clock } })
    try {
      const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      const send = (call_id: string) => t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id, operator_num: '777', channel: 'caller', chunk_text: 'Персональные данные', full_text: 'Персональные данные' } })
      await send('old-call')
      await t.database.db.update(calls).set({ created_at: new Date('2026-10-01T00:00:00Z') }).where(eq(calls.call_id, 'old-call'))
      await send('new-call')
      await eventually(async () => (await t.app.inject({ url: '/api/call-events/calls/old-call', headers: admin })).statusCode === 404, 30_000, 'purge')
      assert.equal((await t.app.inject({ url: '/api/call-events/calls/new-call', headers: admin })).statusCode, 200)
      assert.equal((await t.database.db.select().from(callChunks)).length, 1, 'the old call\'s chunks went with it')
    } finally { await t.close() }
  })
})
