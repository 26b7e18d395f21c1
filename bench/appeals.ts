// Issue 14's figures: registrations per second under concurrent load, the filtered list with
// 1,000,000 appeals (p50/p99 at one connection, per filter), and the memory an export of 100,000
// rows takes (CSV and XLSX) while a client reads it over a real socket.
import { performance } from 'node:perf_hooks'
import { eq } from 'drizzle-orm'
import { appealTypes, categories, classifiers, organizations, regions, responseMethods, sources, subcategories, users } from '../src/db/schema/index.js'
import { seedReferenceData } from '../src/db/seed/index.js'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { hashPassword } from '../src/lib/passwords.js'
import { insertSyntheticAppeals } from '../test/helpers/appeals.js'
import { BENCH_SECONDS, benchDatabase, load, rawQuery, startService } from './harness.js'

const APPEALS = Number(process.env.BENCH_APPEALS ?? 1_000_000)
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 200)
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

export async function benchAppeals (): Promise<void> {
  const database = await benchDatabase('appeals', { keep: true })
  const sql = rawQuery(database)
  const db = database.db
  await seedReferenceData(db)
  const [centre] = await db.insert(organizations).values({ name: 'Контакт-центр 109', prefix: '109', modules: ['call_center'] }).returning()
  const executors = await db.insert(organizations).values(Array.from({ length: 20 }, (_, i) => ({ name: `Исполнитель ${i + 1}`, prefix: String(200 + i) }))).returning()
  await db.insert(users).values({ email: 'operator@bench.kz', role: 'operator', organization_id: centre!.id, password_hash: await hashPassword('Bench-password-1') })
  await createAdmin(db, 'bench@appeals.kz', 'Bench-password-1', false)
  const [classifier] = await db.select().from(classifiers).limit(1)
  const [type] = await db.select().from(appealTypes).where(eq(appealTypes.classifier_id, classifier!.id)).limit(1)
  const [category] = await db.insert(categories).values({ appeal_type_id: type!.id, name: 'Коммунальные услуги' }).returning()
  const subs = await db.insert(subcategories).values(['Отопление', 'Водоснабжение', 'Электричество', 'Вывоз мусора'].map((name) => ({ category_id: category!.id, name, priority: 3, time_to_work: 2, time_to_close: 120 }))).returning()
  const [source] = await db.select().from(sources).limit(1)
  const [method] = await db.select().from(responseMethods).limit(1)
  const regionIds = (await db.select({ id: regions.id }).from(regions)).map((r) => r.id)

  // NOTIFY_INTERVAL long: the assignment mails wait (no SMTP) and the worker does not compete
  const service = await startService(database, { NOTIFY_INTERVAL: '1h' })
  const tokenOf = async (email: string) => (await (await fetch(`${service.url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Bench-password-1' }),
  })).json() as { access_token: string }).access_token
  const operator = { authorization: `Bearer ${await tokenOf('operator@bench.kz')}`, 'content-type': 'application/json' }
  const admin = { authorization: `Bearer ${await tokenOf('bench@appeals.kz')}` }
  const out: string[] = []

  // 1. registrations: a full one (new citizen, region, executor assigned at once) per request
  const body = JSON.stringify({
    citizen: { full_name: 'Иванов Иван', phone: '+77011234567' }, source_id: source!.id, language: 'ru', text: 'В доме нет отопления третий день, просим принять меры',
    subcategory_id: subs[0]!.id, region_id: regionIds[3], response_method_id: method!.id, executor_organization_id: executors[0]!.id,
  })
  // a short warm-up first: the figures are of a process whose hot paths are compiled, as in production
  await load(`${service.url}/api/appeals`, operator, { method: 'POST', body, connections: 16, seconds: 3 })
  for (const connections of [16, 64]) {
    const before = (await sql<{ n: number }>('select count(*)::int as n from appeals'))[0]!.n
    const r = await load(`${service.url}/api/appeals`, operator, { method: 'POST', body, connections })
    const { n, max } = (await sql<{ n: number, max: string }>('select count(*)::int as n, max(substring(number from 10))::text as max from appeals'))[0]!
    out.push(`| registrations, ${connections} connections | ${r.rps.toFixed(0)}/s | p50 ${r.p50} ms, p99 ${r.p99} ms | ${n - before} registered in ${BENCH_SECONDS} s; numbers 1..${Number(max)} for ${n} appeals (gapless: ${Number(max) === n}); errors ${r.errors + r.non2xx} |`)
  }

  // 2. the list over a register of 1,000,000 appeals
  const started = performance.now()
  const refs = { source: source!.id, method: method!.id, classifier: classifier!.id, appealType: type!.id, category: category!.id, subcategories: subs.map((s) => s.id), regions: regionIds, executors: executors.map((e) => e.id) }
  const existing = (await sql<{ n: number }>('select count(*)::int as n from appeals'))[0]!.n
  for (let done = 0; done < APPEALS; done += 100_000) {
    await insertSyntheticAppeals(db, refs, { count: Math.min(100_000, APPEALS - done), until: new Date(), days: 730, year: 2020, first: existing + done + 1 })
  }
  await sql('analyze appeals')
  out.push(`| ${APPEALS.toLocaleString('en')} appeals written | ${((performance.now() - started) / 1000).toFixed(0)} s | | |`)
  const topRegion = regionIds[0]!
  const cases: [string, string][] = [
    ['newest first, no filter', ''],
    ['status', 'status=in_work'],
    ['executor', `executor_organization_id=${executors[3]!.id}`],
    ['region (with districts)', `region_id=${topRegion}`],
    ['subcategory', `subcategory_id=${subs[2]!.id}`],
    ['overdue', 'overdue=true'],
    ['received in a month', `received_from=${new Date(Date.now() - 90 * 86_400_000).toISOString()}&received_to=${new Date(Date.now() - 60 * 86_400_000).toISOString()}`],
    ['phone', 'phone=%2B77010012345'],
    ['number', 'q=109-2020-512345'],
    ['words (full text)', `q=${encodeURIComponent('отопления')}`],
    ['executor + status + overdue', `executor_organization_id=${executors[4]!.id}&status=assigned&overdue=true`],
    ['page 20 (keyset)', '__cursor'],
  ]
  for (const [name, query] of cases) {
    const times: number[] = []
    let url = `${service.url}/api/appeals?limit=50&${query}`
    if (query === '__cursor') {
      let cursor = ''
      for (let i = 0; i < 19; i++) cursor = (await (await fetch(`${service.url}/api/appeals?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { headers: admin })).json() as { next_cursor: string }).next_cursor
      url = `${service.url}/api/appeals?limit=50&cursor=${cursor}`
    }
    let items = 0
    for (let i = 0; i < LIST_REQUESTS; i++) {
      const t0 = performance.now()
      const res = await fetch(url, { headers: admin })
      const json = await res.json() as { items: unknown[] }
      times.push(performance.now() - t0)
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`)
      items = json.items.length
    }
    times.sort((a, b) => a - b)
    out.push(`| list: ${name} | p50 ${percentile(times, 0.5).toFixed(1)} ms | p99 ${percentile(times, 0.99).toFixed(1)} ms | ${items} items, 1 connection, ${LIST_REQUESTS} requests |`)
  }

  // 3. an export of 100,000 rows, read by a client over a socket, and the process's memory meanwhile;
  // bounded memory shows as the same peak for a tenth of the rows
  const newest = (await sql<{ at: Date }>('select received_at as at from appeals order by received_at desc limit 1 offset 10000'))[0]!.at
  for (const format of ['csv', 'xlsx']) {
    for (const [label, filter] of [['100,000 rows', ''], ['10,000 rows', `&received_from=${new Date(newest).toISOString()}`]]) {
      // with --expose-gc the sampler collects first: what it reads is live memory, not garbage yet to be collected
      const gc = (globalThis as { gc?: () => void }).gc
      gc?.()
      const base = process.memoryUsage()
      let peakRss = base.rss
      let peakHeap = base.heapUsed
      const sampler = setInterval(() => {
        gc?.()
        const m = process.memoryUsage()
        peakRss = Math.max(peakRss, m.rss)
        peakHeap = Math.max(peakHeap, m.heapUsed)
      }, 100)
      const t0 = performance.now()
      const res = await fetch(`${service.url}/api/appeals/export?format=${format}${filter}`, { headers: admin })
      let bytes = 0
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length
      clearInterval(sampler)
      const mb = (n: number) => (n / 1024 / 1024).toFixed(0)
      out.push(`| export ${format}, ${label} (${res.headers.get('x-export-rows')}) | ${((performance.now() - t0) / 1000).toFixed(1)} s, ${mb(bytes)} MB | live heap +${mb(peakHeap - base.heapUsed)} MB${gc ? '' : ' (run with --expose-gc for live memory)'}, RSS +${mb(peakRss - base.rss)} MB at most (service and client in one process) | |`)
    }
  }

  process.stdout.write(`\nAppeals register (${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})\n| case | figure | latency / detail | |\n|---|---:|---|---|\n${out.join('\n')}\n`)
  await service.app.close()
  await database.close()
}
