// Issue 36, item 3: what recording the reads of personal data costs. The same reads (one appeal,
// a page of 50) against the same database with PERSONAL_DATA_AUDIT on and off, at one connection
// (each answer's own wait for its record) and at ten (records written together).
import { eq } from 'drizzle-orm'
import { appealTypes, categories, classifiers, organizations, responseMethods, sources, subcategories } from '../src/db/schema/index.js'
import { seedReferenceData } from '../src/db/seed/index.js'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { BENCH_SECONDS, benchDatabase, load, rawQuery, startService, type LoadResult } from './harness.js'

const APPEALS = 200

export async function benchAudit (): Promise<void> {
  const database = await benchDatabase('audit')
  const sql = rawQuery(database)
  const db = database.db
  await seedReferenceData(db)
  const [executor] = await db.insert(organizations).values({ name: 'Акимат', prefix: '201' }).returning()
  await createAdmin(db, 'bench@appeals.kz', 'Bench-password-1', false)
  const [classifier] = await db.select().from(classifiers).limit(1)
  const [type] = await db.select().from(appealTypes).where(eq(appealTypes.classifier_id, classifier!.id)).limit(1)
  const [category] = await db.insert(categories).values({ appeal_type_id: type!.id, name: 'Коммунальные услуги' }).returning()
  const [sub] = await db.insert(subcategories).values({ category_id: category!.id, name: 'Отопление', priority: 3, time_to_work: 2, time_to_close: 120 }).returning()
  const [source] = await db.select().from(sources).limit(1)
  const [method] = await db.select().from(responseMethods).limit(1)

  const rows: string[] = []
  const line = (what: string, audit: boolean, connections: number, r: LoadResult, records: number) =>
    `| ${what} | ${audit ? 'on' : 'off'} | ${connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${audit ? `${records} for ${Math.round(r.rps * BENCH_SECONDS)} reads` : '-'} |`
  let appealId = 0
  for (const audit of [false, true]) {
    const service = await startService(database, { PERSONAL_DATA_AUDIT: String(audit), NOTIFY_INTERVAL: '1h' })
    try {
      const login = await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })
      const admin = { authorization: `Bearer ${(await login.json() as { access_token: string }).access_token}` }
      if (appealId === 0) {
        for (let i = 0; i < APPEALS; i++) {
          const res = await fetch(`${service.url}/api/appeals`, {
            method: 'POST', headers: { ...admin, 'content-type': 'application/json' },
            body: JSON.stringify({ citizen: { full_name: `Гражданин ${i}`, phone: '+77011234567' }, source_id: source!.id, language: 'ru', text: `Обращение ${i}`, subcategory_id: sub!.id, response_method_id: method!.id, executor_organization_id: executor!.id }),
          })
          appealId = (await res.json() as { id: number }).id
        }
      }
      // warm-up: the figures are of a process whose hot paths are compiled
      await load(`${service.url}/api/appeals/${appealId}`, admin, { connections: 4, seconds: 2 })
      for (const [what, path] of [['one appeal', `/api/appeals/${appealId}`], ['a page of 50', '/api/appeals?limit=50']] as const) {
        for (const connections of [1, 10]) {
          const before = (await sql<{ n: number }>('select count(*)::int as n from personal_data_access'))[0]!.n
          const r = await load(`${service.url}${path}`, admin, { connections })
          const after = (await sql<{ n: number }>('select count(*)::int as n from personal_data_access'))[0]!.n
          rows.push(line(what, audit, connections, r, after - before))
        }
      }
    } finally {
      await service.app.close()
    }
  }
  const check = (await sql<{ n: number }>('select count(*)::int as n from personal_data_access'))[0]!.n
  process.stdout.write([
    `\nreads of personal data with the audit off and on (${database.kind}, ${BENCH_SECONDS} s each; ${check} records written in all)`,
    '| read | audit | connections | req/s | p50 ms | p99 ms | records |',
    '|---|---|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n') + '\n')
  await database.close()
}
