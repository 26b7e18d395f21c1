import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import type { Database } from '../../src/db/client.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser, type MadeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

describe('auth: principals cached per instance, revoked on every instance soon after (the latency is measured by npm run bench)', () => {
  let database: Database
  let a: TestApp
  let b: TestApp
  let admin: Record<string, string>

  before(async () => {
    database = await createTestDatabase()
    a = await buildTestApp({ database })
    b = await buildTestApp({ database })
    admin = await login(a.app, await makeUser(database.db, { role: 'admin' }))
  })
  after(async () => {
    await a.app.close()
    await b.app.close()
    await database.close()
  })

  const profile = async (on: TestApp, headers: Record<string, string>) => (await on.app.inject({ method: 'GET', url: '/api/auth/profile', headers })).statusCode
  const profileOf = async (on: TestApp, headers: Record<string, string>) => (await on.app.inject({ method: 'GET', url: '/api/auth/profile', headers })).json()
  /** a signed-in operator whose principal both instances have cached */
  async function cachedOperator (): Promise<{ user: MadeUser, headers: Record<string, string> }> {
    const org = await makeOrganization(database.db)
    const user = await makeUser(database.db, { role: 'operator', organization_id: org.id })
    const headers = await login(a.app, user)
    assert.equal(await profile(a, headers), 200)
    assert.equal(await profile(b, headers), 200)
    return { user, headers }
  }

  it('PostgreSQL: the common case costs no database round trip (answers while another session locks the users table)', async (t) => {
    if (database.kind !== 'postgres') { t.skip('the embedded database runs one statement at a time: a lock would stop everything'); return }
    const { headers } = await cachedOperator()
    // signed in, never checked: not cached yet
    const uncached = await login(a.app, await makeUser(database.db, { role: 'operator', organization_id: (await makeOrganization(database.db)).id }))
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.pathname = `/${(await database.query<{ name: string }>('select current_database() as name'))[0]!.name}`
    let blocked: Promise<{ statusCode: number }> | undefined
    const locker = new pg.Client({ connectionString: url.toString() })
    await locker.connect()
    try {
      await locker.query('begin')
      await locker.query('lock table users in access exclusive mode')
      // the calendar reads no users: only the token check could touch the table
      const calendar = (h: Record<string, string>) => b.app.inject({ method: 'GET', url: '/api/appeals/calendar?year=2026', headers: h })
      const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())])
      assert.equal((await within(calendar(headers), 1000))?.statusCode, 200, 'answered from memory while the users table is locked')
      blocked = calendar(uncached)
      assert.equal(await within(blocked, 300), undefined, 'the control: a principal not in memory waits for the lock')
    } finally {
      await locker.query('rollback')
      await locker.end()
    }
    assert.equal((await blocked!).statusCode, 200)
  })

  it('a password change: the old token is refused at once on the instance that changed it and soon after (the latency is measured by npm run bench) on the other', async () => {
    const { user, headers } = await cachedOperator()
    const changed = await a.app.inject({ method: 'POST', url: '/api/auth/change-password', headers, payload: { current_password: user.password, new_password: 'Another-passw0rd-2026' } })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal(await profile(a, headers), 401, 'the writing instance drops its copy before its 2xx')
    await eventually(async () => await profile(b, headers) === 401, 10_000, 'the revocation on the other instance')
    const fresh = { authorization: `Bearer ${(changed.json() as { access_token: string }).access_token}` }
    assert.equal(await profile(b, fresh), 200, 'the new token works everywhere')
  })

  it('deactivation and a change of role through the API, and a change made outside the service (SQL), reach every instance', async () => {
    const deactivated = await cachedOperator()
    const res = await a.app.inject({ method: 'PUT', url: `/api/employees/${deactivated.user.id}`, headers: admin, payload: { is_active: false } })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(await profile(a, deactivated.headers), 401)
    await eventually(async () => await profile(b, deactivated.headers) === 401, 10_000, 'the change on every instance')

    // an operator's SQL (or the CLI): no instance wrote it, the trigger tells them all
    const bySql = await cachedOperator()
    await database.query('update users set is_active = false where id = $1', [bySql.user.id])
    for (const on of [a, b]) await eventually(async () => await profile(on, bySql.headers) === 401, 10_000, 'the change on every instance')

    // a change that is not the principal's (the phone) keeps the token valid, and the cached profile follows it
    const kept = await cachedOperator()
    await database.query('update users set phone = $2 where id = $1', [kept.user.id, '+77010000000'])
    assert.equal(await profile(b, kept.headers), 200)
    for (const on of [a, b]) await eventually(async () => (await profileOf(on, kept.headers)).phone === '+77010000000', 10_000, 'the change on every instance')

    const deleted = await cachedOperator()
    assert.equal((await a.app.inject({ method: 'DELETE', url: `/api/employees/${deleted.user.id}`, headers: admin })).statusCode, 200)
    assert.equal(await profile(a, deleted.headers), 401)
    await eventually(async () => await profile(b, deleted.headers) === 401, 10_000, 'the change on every instance')
  })

  it('the profile is kept in memory too: the writer sees its change at once, the other instance soon after (the latency is measured by npm run bench); an organization\'s rename follows', async () => {
    const { user, headers } = await cachedOperator()
    assert.equal((await profileOf(a, headers)).position, null)
    assert.equal((await profileOf(b, headers)).position, null)
    assert.equal((await a.app.inject({ method: 'PUT', url: '/api/auth/profile?position=Оператор%20линии', headers })).statusCode, 200)
    assert.equal((await profileOf(a, headers)).position, 'Оператор линии')
    await eventually(async () => (await profileOf(b, headers)).position === 'Оператор линии', 10_000, 'the change on every instance')

    assert.equal((await a.app.inject({ method: 'PUT', url: `/api/organizations/${user.organization_id}`, headers: admin, payload: { name: 'Акимат (переименован)' } })).statusCode, 200)
    assert.equal((await profileOf(a, headers)).organization_name, 'Акимат (переименован)')
    await eventually(async () => (await profileOf(b, headers)).organization_name === 'Акимат (переименован)', 10_000, 'the change on every instance')
  })

  it('PostgreSQL: while the LISTEN connection is lost nothing is served from memory, and the copies are dropped when it is back', async (t) => {
    if (database.kind !== 'postgres') { t.skip('the embedded database has no connection to lose'); return }
    const { user, headers } = await cachedOperator()
    // cut every instance's LISTEN connection; they reconnect with backoff
    await database.query("select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%principal_changed%'")
    await database.query('update users set token_version = token_version + 1 where id = $1', [user.id])
    for (const on of [a, b]) await eventually(async () => await profile(on, headers) === 401, 10_000, 'refused although the notification was lost')
    // back to listening: cached again, and revocations heard again
    const again = await cachedOperator()
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(await profile(b, again.headers), 200)
    await database.query('update users set is_active = false where id = $1', [again.user.id])
    await eventually(async () => await profile(b, again.headers) === 401, 10_000, 'the change on every instance')
  })
})
