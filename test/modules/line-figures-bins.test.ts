// The queue figures are read from sums kept by triggers as each call is written (line_call_intervals,
// line_call_operator_intervals). Whatever the writes (calls joining, answered, abandoned, moved to
// another queue or organization, passed on from one queue to another, corrected, deleted), the figures through HTTP must be those of
// the calls themselves: here worked out in the test from the rows, by the definitions of docs/telephony.md.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import type { Database } from '../../src/db/client.js'
import { lineCalls, memberStatePeriods, type LineCallQueueLeg } from '../../src/db/schema/index.js'
import { figuresOf } from '../../src/modules/line-calls/figures.js'
import type { KpiSums } from '../../src/modules/line-calls/kpis.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { eventually } from '../helpers/http-target.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

type Call = typeof lineCalls.$inferInsert

/** a small seeded generator: a failure names its seed (LINE_FIGURES_SEED replays it) */
function randomOf (seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}

// two centre days (Asia/Almaty, UTC+5) and the hours around them
const DAY1 = '2026-03-20'
const DAY2 = '2026-03-21'
const FROM = Date.parse(`${DAY1}T00:00:00+05:00`)
const TO = Date.parse(`${DAY2}T00:00:00+05:00`) + 86_400_000

describe('the queue figures kept by bin agree with the calls, whatever the writes', () => {
  let database: Database
  let t: TestApp
  let admin: Record<string, string>
  let manager: Record<string, string>
  let orgIds: number[]
  const seed = Number(process.env.LINE_FIGURES_SEED ?? Math.floor(Math.random() * 2 ** 31))

  before(async () => {
    database = await createTestDatabase()
    t = await buildTestApp({ database })
    await t.app.ready()
    const a = await makeOrganization(database.db, { prefix: '101' })
    const b = await makeOrganization(database.db, { prefix: '102' })
    orgIds = [a.id, b.id]
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    manager = await login(t.app, await makeUser(database.db, { role: 'manager', organization_id: a.id }))
  })
  after(async () => {
    await t.app.close()
    await database.close()
  })

  it('after 400 random inserts, changes and deletes, every breakdown equals the calls\' own figures', async () => {
    const r = randomOf(seed)
    const half = (max: number) => r.int(max * 2) / 2 // halves: exact in the rows' real columns
    const newCall = (i: number): Call => {
      const joined = r.next() < 0.1 ? null : new Date(FROM - 2 * 3600_000 + r.int(TO - FROM + 4 * 3600_000))
      const outcome = joined === null ? 'ended' : r.pick(['waiting', 'answered', 'answered', 'answered', 'abandoned', 'timed_out', 'unobserved'] as const)
      const hold = outcome === 'waiting' || (outcome === 'abandoned' && r.next() < 0.1) ? null : half(180)
      const talk = outcome === 'answered' && r.next() < 0.8 ? half(600) : null
      // the queues it left before: timed out of (an overflow) or answered in and passed on, in its organization or another; some kept before 0062
      const legs = joined === null || r.next() < 0.6 ? [] : Array.from({ length: 1 + r.int(2) }, (_, k) => queueLeg(new Date(joined.getTime() - (k + 1) * (1 + r.int(900_000)))))
      const started = legs.length === 0 ? joined : new Date(Math.min(...legs.map((l) => Date.parse(l.joined_at))) - r.int(60_000))
      return {
        linkedid: `1800000000.${seed}.${i}`,
        organization_id: r.pick([orgIds[0]!, orgIds[0]!, orgIds[1]!, null]),
        queue: joined === null ? null : r.pick(['org101-queue', 'org101-q7', 'org102-queue']),
        joined_at: joined,
        answered_by: outcome === 'answered' ? r.pick(['PJSIP/101001', 'PJSIP/101002', 'PJSIP/102001']) : null,
        answered_at: outcome === 'answered' && joined ? new Date(joined.getTime() + (hold ?? 0) * 1000) : null,
        hold_seconds: hold,
        talk_seconds: talk,
        service_level_seconds: r.pick([null, 10, 20, 30]),
        wrapup_seconds: r.pick([null, 0, 5, 15]),
        outcome,
        // a score is kept only after an answer, but a correction may leave one on another outcome: not counted then
        rating: r.next() < 0.4 ? 1 + r.int(5) : null,
        started_at: started ?? new Date(FROM),
        earlier_queues: legs,
        ended_at: outcome === 'waiting' ? null : new Date(TO),
      }
    }
    const queueLeg = (joined: Date): LineCallQueueLeg => {
      const hold = r.next() < 0.1 ? null : half(180)
      const kept = { queue: r.pick(['org101-queue', 'org101-q7', 'org102-queue']), joined_at: joined.toISOString(), hold_seconds: hold, service_level_seconds: r.pick([null, 10, 20, 30]) }
      if (r.next() < 0.2) return kept
      const answeredBy = r.next() < 0.5 ? r.pick(['PJSIP/101001', 'PJSIP/101002', 'PJSIP/102001']) : null
      return {
        ...kept, answered_by: answeredBy, answered_at: answeredBy ? new Date(joined.getTime() + (hold ?? 0) * 1000).toISOString() : null,
        talk_seconds: answeredBy && r.next() < 0.8 ? half(600) : null, wrapup_seconds: r.pick([null, 0, 5, 15]),
        organization_id: r.pick([orgIds[0]!, orgIds[1]!, null]),
      }
    }
    const kept = new Map<string, Call>()
    for (let i = 0; i < 400; i++) {
      const existing = [...kept.keys()]
      const roll = r.next()
      if (existing.length === 0 || roll < 0.55) {
        const call = newCall(i)
        await database.db.insert(lineCalls).values(call)
        kept.set(call.linkedid, call)
      } else if (roll < 0.9) {
        // the call written again: as the tracker does (a later state) or as a correction (another queue, organization, outcome)
        const id = r.pick(existing)
        const { linkedid: _, ...changed } = newCall(i)
        const fields = Object.keys(changed) as (keyof typeof changed)[]
        const update: Partial<Call> = Object.fromEntries(fields.filter(() => r.next() < 0.4).map((f) => [f, changed[f]]))
        if (Object.keys(update).length === 0) continue
        // the queues it left joined after its start, within its day
        if ('earlier_queues' in update || 'started_at' in update) Object.assign(update, { earlier_queues: changed.earlier_queues, started_at: changed.started_at })
        // a call that joined a queue has its queue (the tracker writes both at the join)
        const merged = { ...kept.get(id)!, ...update }
        if (merged.joined_at && !merged.queue) update.queue = 'org101-queue'
        await database.db.update(lineCalls).set(update).where(eq(lineCalls.linkedid, id))
        kept.set(id, { ...kept.get(id)!, ...update })
      } else {
        const id = r.pick(existing)
        await database.db.delete(lineCalls).where(eq(lineCalls.linkedid, id))
        kept.delete(id)
      }
    }
    // each queue a call entered counts it: its last, and each it left
    const calls = [...kept.values()].flatMap((c) => [c, ...(c.earlier_queues ?? []).map((l): Call => ({
      linkedid: c.linkedid, organization_id: l.organization_id ?? c.organization_id, queue: l.queue, joined_at: new Date(l.joined_at), started_at: c.started_at,
      outcome: l.answered_by ? 'answered' : 'timed_out', hold_seconds: l.hold_seconds, service_level_seconds: l.service_level_seconds,
      answered_by: l.answered_by ?? null, answered_at: l.answered_at ? new Date(l.answered_at) : null, talk_seconds: l.answered_by ? l.talk_seconds ?? null : null,
      wrapup_seconds: l.wrapup_seconds ?? null, rating: null,
    }))])

    for (const [who, organizationId] of [[admin, undefined], [manager, orgIds[0]]] as const) {
      for (const [from, to] of [[DAY1, DAY2], [DAY2, DAY2]]) {
        for (const short of [0, 5, 37, 120]) {
          const res = await t.app.inject({ url: `/api/line-calls/kpis?date_from=${from}&date_to=${to}&short_abandon_seconds=${short}`, headers: who })
          assert.equal(res.statusCode, 200, res.body)
          const kpis = res.json()
          const start = Date.parse(`${from}T00:00:00+05:00`)
          const end = Date.parse(`${to}T00:00:00+05:00`) + 86_400_000
          const inScope = calls.filter((c) => c.joined_at && c.joined_at.getTime() >= start && c.joined_at.getTime() < end &&
            (organizationId === undefined || c.organization_id === organizationId))
          const say = `seed ${seed} (LINE_FIGURES_SEED), ${organizationId === undefined ? 'admin' : 'manager'}, ${from}..${to}, short ${short}`
          assert.deepEqual(kpis.totals, figuresOf(sumsOf(inScope, short)), `totals, ${say}`)
          for (const q of kpis.queues) assert.deepEqual(without(q, 'queue', 'waiting_now', 'longest_wait_now'), figuresOf(sumsOf(inScope.filter((c) => c.queue === q.queue), short)), `queue ${q.queue}, ${say}`)
          assert.deepEqual(kpis.queues.map((q: { queue: string }) => q.queue), [...new Set(inScope.map((c) => c.queue!))].sort(), say)
          for (const interval of kpis.intervals) {
            const at = Date.parse(interval.start)
            assert.deepEqual(without(interval, 'start'), figuresOf(sumsOf(inScope.filter((c) => c.joined_at!.getTime() >= at && c.joined_at!.getTime() < at + 1_800_000), short)), `interval ${interval.start}, ${say}`)
          }
          for (const day of kpis.days) {
            const at = Date.parse(`${day.day}T00:00:00+05:00`)
            assert.deepEqual(without(day, 'day'), figuresOf(sumsOf(inScope.filter((c) => c.joined_at!.getTime() >= at && c.joined_at!.getTime() < at + 86_400_000), short)), `day ${day.day}, ${say}`)
          }
          const answered = calls.filter((c) => c.outcome === 'answered' && c.answered_by && c.answered_at && c.answered_at.getTime() >= start && c.answered_at.getTime() < end &&
            (organizationId === undefined || c.organization_id === organizationId))
          assert.deepEqual(kpis.operators.map((o: Record<string, unknown>) => [o.interface, o.calls, o.talk_seconds, o.wrapup_seconds, o.ratings, o.average_rating]),
            [...new Set(answered.map((c) => c.answered_by!))].sort().map((member) => {
              const mine = answered.filter((c) => c.answered_by === member)
              const completed = mine.filter((c) => c.talk_seconds !== null)
              const rated = mine.filter((c) => c.rating != null)
              return [member, mine.length, completed.reduce((n, c) => n + c.talk_seconds!, 0), completed.reduce((n, c) => n + (c.wrapup_seconds ?? 0), 0),
                rated.length, rated.length === 0 ? null : Math.round(100 * rated.reduce((n, c) => n + c.rating!, 0) / rated.length) / 100]
            }), `operators, ${say}`)
        }
      }
    }
  })
})

const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)))

/** the definitions of docs/telephony.md, from the calls themselves */
function sumsOf (calls: Call[], short: number): KpiSums {
  const answered = calls.filter((c) => c.outcome === 'answered')
  const completed = answered.filter((c) => c.talk_seconds !== null)
  const held = (c: Call) => c.hold_seconds !== null && c.hold_seconds !== undefined
  const withinSl = (c: Call) => held(c) && c.hold_seconds! <= (c.service_level_seconds ?? 20)
  const sum = (items: Call[], f: (c: Call) => number) => items.length === 0 ? null : items.reduce((n, c) => n + f(c), 0)
  const holds = calls.filter(held).map((c) => c.hold_seconds!)
  return {
    offered: calls.length,
    answered: answered.length,
    abandoned: calls.filter((c) => c.outcome === 'abandoned' && held(c) && c.hold_seconds! >= short).length,
    short_abandoned: calls.filter((c) => c.outcome === 'abandoned' && held(c) && c.hold_seconds! < short).length,
    timed_out: calls.filter((c) => c.outcome === 'timed_out').length,
    answered_in_sl: answered.filter(withinSl).length,
    abandoned_in_sl: calls.filter((c) => (c.outcome === 'abandoned' || c.outcome === 'timed_out') && withinSl(c)).length,
    completed: completed.length,
    hold_sum: sum(answered, (c) => c.hold_seconds ?? 0),
    talk_sum: sum(completed, (c) => c.talk_seconds!),
    handling_sum: sum(completed, (c) => c.talk_seconds! + (c.wrapup_seconds ?? 0)),
    longest_hold: holds.length === 0 ? null : Math.max(...holds),
    rated: answered.filter((c) => c.rating != null).length,
    rating_sum: answered.reduce((n, c) => n + (c.rating ?? 0), 0),
  }
}

describe('retention of the line\'s calls', () => {
  it('calls and agents\' state periods older than CALL_RETENTION_DAYS are purged; the figures of their days stay', async () => {
    const clock = manualClock(Date.parse('2026-11-21T12:00:00Z'))
    const t = await buildTestApp({ env: { CALL_RETENTION_DAYS: '30', CALL_PURGE_INTERVAL: '50ms' }, deps: { clock } })
    try {
      const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      const call = (linkedid: string, at: string): Call => ({
        linkedid, queue: 'org101-queue', joined_at: new Date(at), started_at: new Date(at), ended_at: new Date(at), outcome: 'answered',
        hold_seconds: 4, talk_seconds: 30, answered_by: 'PJSIP/101001', answered_at: new Date(at), caller_number: '+77010000001',
      })
      await t.database.db.insert(lineCalls).values([call('1700000000.1', '2026-10-01T06:00:00Z'), call('1700000000.2', '2026-11-20T06:00:00Z')])
      await t.database.db.insert(memberStatePeriods).values([
        { interface: 'PJSIP/101001', state: 'ready', started_at: new Date('2026-10-01T05:00:00Z'), ended_at: new Date('2026-10-01T06:00:00Z') },
        { interface: 'PJSIP/101001', state: 'ready', started_at: new Date('2026-11-20T05:00:00Z'), ended_at: null },
      ])
      // the calls and the periods go in statements of their own: both are waited for
      const periodStarts = async () => (await t.database.db.select().from(memberStatePeriods)).map((p) => p.started_at.toISOString())
      await eventually(async () => (await t.app.inject({ url: '/api/line-calls/1700000000.1', headers: admin })).statusCode === 404, 10_000, 'the calls\' purge')
      await eventually(async () => (await periodStarts()).length === 1, 10_000, 'the periods\' purge')
      assert.equal((await t.app.inject({ url: '/api/line-calls/1700000000.2', headers: admin })).statusCode, 200, 'a call within the period stays')
      assert.deepEqual(await periodStarts(), ['2026-11-20T05:00:00.000Z'])
      const old = (await t.app.inject({ url: '/api/line-calls/kpis?date_from=2026-10-01&date_to=2026-10-01', headers: admin })).json()
      assert.equal(old.totals.offered, 1, 'the figures of a purged day stay')
      assert.equal(old.totals.average_talk, 30)
      assert.deepEqual(old.operators.map((o: { interface: string, calls: number }) => [o.interface, o.calls]), [['PJSIP/101001', 1]])
    } finally { await t.close() }
  })
})
