// Issue 4's figures: persons search over 100,000 persons, the regions tree and a classifier tree of
// 5 appeal types x 10 categories x 10 subcategories, each beside a bare node:http server that
// answers the same query from the same database.
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { seedReferenceData } from '../src/db/seed/index.js'
import { benchDatabase, insertBenchClassifier, load, printTable, rawQuery, startBaseline, startService, type Row } from './harness.js'

const SURNAMES = ['Ахметов', 'Серикова', 'Жанибеков', 'Нурланова', 'Иванов', 'Ким', 'Омаров', 'Сулейменова', 'Абдрахманов', 'Петрова']
const NAMES = ['Ерлан', 'Алия', 'Данияр', 'Айгерим', 'Сергей', 'Мадина', 'Нурсултан', 'Дана', 'Арман', 'Ольга']

export async function benchReferenceData (): Promise<void> {
  const database = await benchDatabase('reference-data')
  const sql = rawQuery(database)
  await seedReferenceData(database.db)
  const started = performance.now()
  await sql(`insert into persons (full_name, phone, email)
    select (array['${SURNAMES.join("','")}'])[1 + i % 10] || ' ' || (array['${NAMES.join("','")}'])[1 + (i / 10) % 10] || ' ' || i,
           '+7701' || lpad(i::text, 7, '0'), 'person' || i || '@mail.kz'
    from generate_series(1, 100000) as i`)
  await sql('analyze persons')
  process.stdout.write(`100,000 persons inserted in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)

  const classifierId = await insertBenchClassifier(sql)

  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const service = await startService(database)
  const loginRes = await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })
  const token = (await loginRes.json() as { access_token: string }).access_token

  const personColumns = 'id, full_name, iin, phone, email, is_active'
  const baseline = await startBaseline({
    // the same three bounded queries as the service's search, merged the same way
    '/persons': async (url) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      const digits = /^\d+$/.test(q)
      const [exact, prefix, others] = await Promise.all([
        digits && q.length >= 11 ? sql<{ id: number }>(`select ${personColumns} from persons where is_active and (iin = $1 or phone = $1) limit 50`, [q]) : [],
        digits ? [] : sql<{ id: number }>(`select ${personColumns} from persons where is_active and lower(full_name) collate "C" like $1 order by lower(full_name) collate "C", id limit 50`, [`${q}%`]),
        digits
          ? sql<{ id: number }>(`select ${personColumns} from persons where is_active and (iin like $1 or phone like $1) order by id desc limit 50`, [`%${q}%`])
          : sql<{ id: number }>(`select ${personColumns} from persons where is_active and (lower(full_name) like $1 or lower(email) like $1) order by id desc limit 50`, [`%${q}%`]),
      ])
      const seen = new Set<number>()
      return [...exact, ...prefix, ...others].filter((p) => !seen.has(p.id) && seen.add(p.id)).slice(0, 50)
    },
    '/regions/tree': async () => {
      type R = { id: number, name: string, parent_id: number | null, phone_code: string | null, phone_zone: string | null, is_active: boolean }
      const rows = await sql<R>('select id, name, parent_id, phone_code, phone_zone, is_active from regions where is_active order by sort_order, name, id')
      const build = (parent: number | null): unknown[] => rows.filter((r) => r.parent_id === parent)
        .map((r) => ({ id: r.id, name: r.name, phone_code: r.phone_code, phone_zone: r.phone_zone, children: build(r.id), is_active: r.is_active }))
      return build(null)
    },
    '/classifier/tree': async () => {
      const [c] = await sql<Record<string, unknown>>('select id, name, code, description, is_active from classifiers where id = $1', [classifierId])
      const types = await sql<{ id: number }>('select id, name, code, sort_order, is_active from appeal_types where classifier_id = $1 and is_active order by sort_order, name, id', [classifierId])
      const cats = await sql<{ id: number, appeal_type_id: number }>('select id, appeal_type_id, name, sort_order, is_active from categories where appeal_type_id = any($1) and is_active order by sort_order, name, id', [types.map((t) => t.id)])
      const subs = await sql<{ category_id: number }>('select id, category_id, name, priority, time_to_work, time_to_close, sort_order, is_active from subcategories where category_id = any($1) and is_active order by sort_order, name, id', [cats.map((k) => k.id)])
      return { ...c, appeal_types: types.map((t) => ({ ...t, categories: cats.filter((k) => k.appeal_type_id === t.id).map((k) => ({ ...k, subcategories: subs.filter((s) => s.category_id === k.id) })) })) }
    },
  })

  const auth = { authorization: `Bearer ${token}` }
  const cases: [string, string, string, Record<string, string>][] = [
    ['persons ?q=серик (name substring, 100k persons)', `/api/references/persons?q=${encodeURIComponent('серик')}`, `/persons?q=${encodeURIComponent('серик')}`, {}],
    ['persons ?q=алия (substring, 100k persons)', `/api/references/persons?q=${encodeURIComponent('алия')}`, `/persons?q=${encodeURIComponent('алия')}`, {}],
    ['persons ?q=0012345 (phone digits, 100k persons)', '/api/references/persons?q=0012345', '/persons?q=0012345', {}],
    ['regions tree (98 regions)', '/api/regions/tree', '/regions/tree', {}],
    ['classifier tree (5 x 10 x 10)', `/api/classifiers/${classifierId}/tree`, '/classifier/tree', auth],
  ]
  const rows: Row[] = []
  for (const [name, servicePath, baselinePath, headers] of cases) {
    rows.push({ case: name, service: await load(`${service.url}${servicePath}`, headers), baseline: await load(`${baseline.url}${baselinePath}`) })
  }
  printTable(`Reference data on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}`, rows)
  await service.app.close()
  baseline.server.close()
  await database.close()
}
