// A transaction's work reaches the database only through the transaction's own handle: a query
// through the plain handle from inside it is refused at once, on both drivers (on the embedded
// database it waited for the transaction that waited for it, and the process hung for good). The
// embedded database answers every caller within a bound: a caller that waited too long is a 503.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { selectRows, type Database } from '../src/db/client.js'
import { calendarDays } from '../src/db/schema/index.js'
import { QueryBesideTransactionError } from '../src/db/transaction-guard.js'
import { databaseUnavailable } from '../src/lib/error-handler.js'
import { buildTestApp, type TestApp } from './helpers/app.js'
import { appealFixture, type AppealFixture } from './helpers/appeals.js'
import { createEmbeddedTestDatabase, createTestDatabase } from './helpers/database.js'

/** the promise, or a failure naming what never answered: a hang fails the test instead of stalling it */
async function answersWithin<T> (work: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms) })
  try { return await Promise.race([work, hung]) } finally { clearTimeout(timer) }
}

/** a promise and the function that settles it */
function gate () {
  let open!: () => void
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { opened, open }
}

const DAY = '2031-03-03'
const count = async (database: Database) => Number((await selectRows<{ n: number }>(database.db, sql`select count(*)::int as n from calendar_days where day = ${DAY}`))[0]!.n)

describe('a transaction and the plain database handle', () => {
  let database: Database
  before(async () => { database = await createTestDatabase() })
  after(async () => { await database.close() })

  it('a query through the plain handle from inside the work is refused at once, and the transaction rolls back', async () => {
    const { db } = database
    const outcome = await answersWithin(db.transaction(async (tx) => {
      await tx.insert(calendarDays).values({ day: DAY, kind: 'holiday', name: 'x' })
      await db.select().from(calendarDays)
    }).then(() => 'committed', (err: unknown) => err), 'the refused query')
    assert.ok(outcome instanceof Error, `the transaction ${String(outcome)}`)
    const refused = [outcome, outcome.cause].find((e) => e instanceof QueryBesideTransactionError)
    assert.ok(refused, `refused as a query beside the transaction: ${outcome.message}`)
    assert.match((refused as Error).message, /from inside an open transaction/)
    assert.equal(await count(database), 0, 'the insert made before the refusal is rolled back')
  })

  it('raw queries and transactions begun through the plain handle are refused the same way', async () => {
    await assert.rejects(database.db.transaction(async () => { await database.query('select 1') }), QueryBesideTransactionError)
    await assert.rejects(database.db.transaction(async () => { await database.db.transaction(async () => {}) }), QueryBesideTransactionError)
  })

  it('the transaction\'s own handle works, and so does work it left running once it is over', async () => {
    let leftRunning: Promise<unknown> | undefined
    const after = gate()
    await database.db.transaction(async (tx) => {
      await tx.insert(calendarDays).values({ day: DAY, kind: 'holiday', name: 'kept' })
      leftRunning = after.opened.then(() => count(database))
    })
    after.open()
    assert.equal(await answersWithin(leftRunning!, 'the query started by the transaction'), 1)
    await database.db.delete(calendarDays).where(eq(calendarDays.day, DAY))
  })

  it('another request\'s query waits for the transaction and answers', async () => {
    const holding = gate()
    const inside = gate()
    const transaction = database.db.transaction(async (tx) => {
      await tx.insert(calendarDays).values({ day: DAY, kind: 'holiday', name: 'x' })
      inside.open()
      await holding.opened
    })
    await inside.opened
    const other = count(database)
    setTimeout(holding.open, 50)
    await transaction
    const seen = await answersWithin(other, 'the other query')
    // the embedded database runs it after the commit; PostgreSQL on another connection, before or after it
    if (database.kind === 'pglite') assert.equal(seen, 1)
    else assert.ok(seen === 0 || seen === 1, `answered ${seen}`)
    await database.db.delete(calendarDays).where(eq(calendarDays.day, DAY))
  })
})

describe('the embedded database answers within a bound', () => {
  const TURN_WAIT_MS = 300
  let t: TestApp
  before(async () => { t = await buildTestApp({ database: await createEmbeddedTestDatabase({ turnWaitMs: TURN_WAIT_MS }) }) })
  after(async () => { await t.close() })

  /** a transaction that keeps the embedded database's one connection until `release` */
  async function holdConnection () {
    const held = gate()
    const inside = gate()
    const transaction = t.database.db.transaction(async () => { inside.open(); await held.opened })
    await inside.opened
    return async () => { held.open(); await transaction }
  }

  it('a caller that waited its bound fails as the database being unavailable, and its write never runs later', async () => {
    const release = await holdConnection()
    const write = t.database.db.insert(calendarDays).values({ day: DAY, kind: 'holiday', name: 'late' }).then(() => undefined, (err: unknown) => err)
    const err = await answersWithin(write, 'the waiting write')
    assert.ok(err instanceof Error, 'the write was given up on')
    assert.ok(databaseUnavailable(err), `said as the database being unavailable: ${String(err)}`)
    await release()
    await new Promise((resolve) => setTimeout(resolve, TURN_WAIT_MS))
    assert.equal(await count(t.database), 0, 'the write that answered an error was not made afterwards')
  })

  it('through HTTP: 503 with Retry-After while the database does not answer, then answers again', async () => {
    const release = await holdConnection()
    try {
      const res = await answersWithin(t.app.inject({ url: '/api/regions' }), 'GET /api/regions')
      assert.equal(res.statusCode, 503, res.body)
      assert.equal(res.headers['retry-after'], '5')
      assert.equal(res.json().code, 'database_unavailable')
    } finally {
      await release()
    }
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200)
    assert.equal((await t.app.inject({ url: '/api/regions' })).statusCode, 200)
  })
})

describe('after a change of the working calendar, every appeal action answers', () => {
  let t: TestApp
  let f: AppealFixture
  before(async () => { t = await buildTestApp(); f = await appealFixture(t.app, t.database.db) })
  after(async () => { await t.close() })

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    answersWithin(t.app.inject({ method, url, headers, payload }), `${method} ${url}`)
  /** an admin's edit of the calendar: its kept copy is dropped, the next reader refills it */
  const editCalendar = async () => {
    const res = await inject('PUT', `/api/appeals/calendar/${DAY}`, f.people.admin, { kind: 'holiday', name: 'Тест' })
    assert.equal(res.statusCode, 200, res.body)
    const removed = await inject('DELETE', `/api/appeals/calendar/${DAY}`, f.people.admin)
    assert.equal(removed.statusCode, 200, removed.body)
  }
  const register = async () => {
    const res = await inject('POST', '/api/appeals', f.people.operator, {
      citizen: { full_name: 'Ахметов Ерлан', phone: '+77011112233' }, source_id: f.ids.source, language: 'kk', text: 'Жылу жоқ',
      subcategory_id: f.ids.heating, response_method_id: f.ids.methods.email, executor_organization_id: f.executor.id,
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as { id: number, close_due_at: string }
  }
  const act = async (id: number, action: string, headers: Record<string, string>, payload: object = {}) => {
    await editCalendar()
    const res = await inject('POST', `/api/appeals/${id}/${action}`, headers, payload)
    assert.equal(res.statusCode, 200, `${action}: ${res.body}`)
    return res.json() as { status: string }
  }

  it('register, take, extend, answer, return, answer, close', async () => {
    await editCalendar()
    const appeal = await register()
    await act(appeal.id, 'take', f.people.executorOperator)
    await act(appeal.id, 'extend', f.people.executorManager, { until: new Date(new Date(appeal.close_due_at).getTime() + 3_600_000).toISOString(), reason: 'Выезд' })
    await act(appeal.id, 'answer', f.people.executorOperator, { text: 'Сделано', language: 'ru' })
    await act(appeal.id, 'return', f.people.operator, { reason: 'Нет подписи' })
    await act(appeal.id, 'answer', f.people.executorOperator, { text: 'Сделано, подписано', language: 'ru' })
    assert.equal((await act(appeal.id, 'close', f.people.operator)).status, 'closed')
  })

  it('redirect and reject; the statistics and the deadline job', async () => {
    const appeal = await register()
    await act(appeal.id, 'redirect', f.people.executorManager, { executor_organization_id: f.other.id, reason: 'Не наше' })
    assert.equal((await act(appeal.id, 'reject', f.people.operator, { kind: 'duplicate', reason: 'Повтор' })).status, 'rejected')
    await editCalendar()
    assert.equal((await inject('GET', '/api/appeals/stats', f.people.admin)).statusCode, 200)
    await editCalendar()
    await answersWithin(t.app.appealDeadlines.runOnce(), 'the deadline job')
    assert.equal((await inject('GET', '/health', {})).statusCode, 200)
  })
})
