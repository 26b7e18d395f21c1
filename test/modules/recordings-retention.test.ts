import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eq, inArray } from 'drizzle-orm'
import { appeals, callRecordings, dataProtectionOfficers } from '../../src/db/schema/index.js'
import { createMetrics } from '../../src/lib/metrics.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { login, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

const DAY_MS = 86_400_000
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS)

// The recordings' retention (RECORDING_RETENTION_DAYS = 30 here) and their disk figures: a recording
// of no appeal goes after 30 days; one of an appeal still open stays; one of a closed appeal is
// counted from the closing; each purge is in the audit; the disk is on /api/recordings/usage and /metrics.
describe('recordings: retention counted from the appeal\'s closing, audited; the disk they take', () => {
  let t: TestApp
  let f: AppealFixture
  let dir: string
  const ids: Record<string, number> = {}
  const files: Record<string, string> = {}
  const metrics = createMetrics({ processFigures: false })

  /** a kept recording of call `linkedid` that began `age` days ago, `bytes` long */
  async function kept (name: string, linkedid: string, age: number, bytes: number) {
    const file = `kept/2026-01-01/${linkedid}-${linkedid}9.opus`
    mkdirSync(join(dir, 'kept/2026-01-01'), { recursive: true })
    writeFileSync(join(dir, file), Buffer.alloc(bytes, 1))
    const [row] = await t.database.db.insert(callRecordings).values({
      linkedid, leg: `${linkedid}9`, terminal: null, file, format: 'opus', started_at: daysAgo(age), seconds: 60, bytes, sha256: '0'.repeat(64), taken_at: daysAgo(age),
    }).returning({ id: callRecordings.id })
    ids[name] = row!.id
    files[name] = join(dir, file)
  }
  /** an appeal registered from call `linkedid` (its transcript's call row) */
  async function appealOf (linkedid: string): Promise<number> {
    const chunk = await t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: linkedid, operator_num: `${f.centre.prefix}001`, channel: 'caller', chunk_text: 'Алло', full_text: 'Алло' } })
    assert.equal(chunk.statusCode, 200, chunk.body)
    const res = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: f.people.operator,
      payload: { citizen: { full_name: 'Абаев Марат', phone: '+77011234500' }, source_id: f.ids.source, language: 'ru', text: 'Нет воды', subcategory_id: f.ids.water, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, call_row_id: chunk.json().call_row_id },
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json().id
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recordings-retention-'))
    // the purge waits for the rows below: it runs at start, then every 300 ms
    t = await buildTestApp({ env: { RECORDINGS_DIR: dir, RECORDING_RETENTION_DAYS: '30', RECORDINGS_MAX_BYTES: '1000000', CALL_PURGE_INTERVAL: '300ms', CALL_RETENTION_DAYS: '36500' }, deps: { metrics } })
    f = await appealFixture(t.app, t.database.db)
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('goes after 30 days unless an appeal holds it: open, or closed less than 30 days ago; each purge audited, its file removed', async () => {
    const open = await appealOf('1795000002.1')
    const closedLately = await appealOf('1795000003.1')
    const closedLongAgo = await appealOf('1795000004.1')
    await t.database.db.update(appeals).set({ status: 'closed', closed_at: daysAgo(10) }).where(eq(appeals.id, closedLately))
    await t.database.db.update(appeals).set({ status: 'closed', closed_at: daysAgo(35) }).where(eq(appeals.id, closedLongAgo))
    assert.ok(open > 0)
    await kept('noAppeal', '1795000001.1', 40, 1000)
    await kept('openAppeal', '1795000002.1', 40, 2000)
    await kept('closedLately', '1795000003.1', 40, 3000)
    await kept('closedLongAgo', '1795000004.1', 40, 4000)
    await kept('recent', '1795000005.1', 5, 5000)

    await eventually(async () => (await t.database.db.select().from(callRecordings).where(inArray(callRecordings.id, [ids.noAppeal!, ids.closedLongAgo!]))).length === 0, 15_000, 'the two recordings purged')
    const left = (await t.database.db.select({ id: callRecordings.id }).from(callRecordings)).map((r) => r.id).sort((a, b) => a - b)
    assert.deepEqual(left, [ids.openAppeal, ids.closedLately, ids.recent])
    assert.ok(!existsSync(files.noAppeal!) && !existsSync(files.closedLongAgo!), 'their files removed')
    assert.ok(existsSync(files.openAppeal!) && existsSync(files.closedLately!) && existsSync(files.recent!))

    const officer = await makeUser(t.database.db, { role: 'manager', organization_id: f.centre.id })
    await t.database.db.insert(dataProtectionOfficers).values({ user_id: officer.id })
    const audit = await t.app.inject({ url: '/api/audit/personal-data?subject=recording&action=purge', headers: await login(t.app, officer) })
    assert.equal(audit.statusCode, 200, audit.body)
    const purges = audit.json().items as Array<{ actor_id: number | null, route: string, subject_ids: string[], detail: { calls: string[] } }>
    assert.deepEqual(purges.flatMap((p) => p.subject_ids).sort(), [String(ids.noAppeal), String(ids.closedLongAgo)].sort())
    assert.ok(purges.every((p) => p.actor_id === null && p.route === 'retention'))
    assert.deepEqual(purges.flatMap((p) => p.detail.calls).sort(), ['1795000001.1', '1795000004.1'])

    // the appeal closes 31 days ago: its recording goes at the next run
    await t.database.db.update(appeals).set({ status: 'closed', closed_at: daysAgo(31) }).where(eq(appeals.id, open))
    await eventually(async () => (await t.database.db.select().from(callRecordings).where(eq(callRecordings.id, ids.openAppeal!))).length === 0, 15_000, 'the closed appeal\'s recording purged')
  })

  it('the disk they take, what arrived today and the days left at the last week\'s pace: on the board\'s route and /metrics', async () => {
    // left: closedLately (3000 B, 40 days ago), recent (5000 B, 5 days ago)
    const res = await t.app.inject({ url: '/api/recordings/usage', headers: f.people.admin })
    assert.equal(res.statusCode, 200, res.body)
    // a day's arrivals over the last week: 5000 B / 7 = 714; (1000000 - 8000) / 714 = 1389 days
    assert.deepEqual(res.json(), { files: 2, bytes: 8000, today_bytes: 0, daily_bytes: 714, max_bytes: 1_000_000, days_left: 1389 })
    // a file removed outside the service: no longer counted once the index knows
    await t.database.db.update(callRecordings).set({ missing_at: new Date() }).where(eq(callRecordings.id, ids.recent!))
    assert.deepEqual((await t.app.inject({ url: '/api/recordings/usage', headers: f.people.admin })).json(), { files: 1, bytes: 3000, today_bytes: 0, daily_bytes: 0, max_bytes: 1_000_000, days_left: null })
    const figures = await metrics.registry.metrics()
    assert.match(figures, /^recordings_bytes 3000$/m)
    assert.match(figures, /^recordings_files 1$/m)
    assert.match(figures, /^recordings_days_left nan$/mi, 'no pace, no days left (prom-client writes Nan; Prometheus reads NaN in any case)')
    // who may: supervisors; not an operator; bad method
    assert.equal((await t.app.inject({ url: '/api/recordings/usage', headers: f.people.operator })).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/recordings/usage' })).statusCode, 401)
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/recordings/usage', headers: f.people.admin })).statusCode, 405)
  })
})
