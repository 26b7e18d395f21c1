// Issue 16's figures: the hot reads of every console page, each beside a bare node:http server that
// answers the same bytes from memory (the ceiling of this machine), with 64 connections. "before" is
// the service with its reference cache off (REFERENCE_CACHE_VARIANTS=0), "after" as it runs.
// BENCH_ROUNDS (3) rounds of the three, back to back; BENCH_CASES picks cases by a part of their name.
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { seedReferenceData } from '../src/db/seed/index.js'
import { benchDatabase, insertBenchClassifier, load, rawQuery, startService, BENCH_SECONDS, type LoadResult } from './harness.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const CONNECTIONS = 64
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export async function benchHotPaths (): Promise<void> {
  const database = await benchDatabase('hot-paths')
  const sql = rawQuery(database)
  await seedReferenceData(database.db)
  const classifierId = await insertBenchClassifier(sql)
  const [region] = await sql<{ id: number }>('select id from regions order by id limit 1')
  await sql(`insert into organizations (name, prefix, region_id, modules)
    select 'Организация ' || i, lpad(i::text, 3, '0'), $1, '{appeals}' from generate_series(0, 999) i`, [region!.id])
  await sql('insert into organization_groups (name) select \'Группа \' || g from generate_series(1, 10) g')
  await sql('analyze')
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)

  const after = await startService(database)
  const before = await startService(database, { REFERENCE_CACHE_VARIANTS: '0' })
  const loginRes = await fetch(`${after.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })
  const auth = { authorization: `Bearer ${(await loginRes.json() as { access_token: string }).access_token}` }

  const allCases: [string, string][] = [
    ['regions tree', '/api/regions/tree'],
    ['regions list (inactive too)', '/api/regions?include_inactive=true'],
    ['references: regions', '/api/references/regions'],
    ['classifier tree (5 x 10 x 10, 73 kB)', `/api/classifiers/${classifierId}/tree`],
    ['subcategories (500)', '/api/classifiers/subcategories'],
    ['references: sources', '/api/references/sources'],
    ['references: organizations (1,000)', '/api/references/organizations'],
    ['groups', '/api/shared/groups'],
    ['profile (the smallest authenticated read)', '/api/auth/profile'],
    ['Shape B list (1,000 organizations)', '/api/organizations/?limit=1000'],
  ]
  // BENCH_CASES=shape runs only the cases whose name holds that text
  const cases = allCases.filter(([name]) => name.toLowerCase().includes((process.env.BENCH_CASES ?? '').toLowerCase()))
  // the ceiling: the same bytes, from memory, through node:http alone
  const bodies = new Map<string, Buffer>()
  for (const [, path] of cases) bodies.set(path, Buffer.from(await (await fetch(`${after.url}${path}`, { headers: auth })).arrayBuffer()))
  const ceiling = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end(bodies.get(req.url ?? '')) })
  await new Promise<void>((resolve) => ceiling.listen(0, '127.0.0.1', resolve))
  const ceilingUrl = `http://127.0.0.1:${(ceiling.address() as AddressInfo).port}`

  const lines = [
    `\nHot paths on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'} (${CONNECTIONS} connections, ${ROUNDS} rounds of ${BENCH_SECONDS} s each; medians)`,
    '| case | bytes | ceiling req/s | before req/s | before p99 ms | after req/s | after p99 ms | after/ceiling |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ]
  const warnings: string[] = []
  for (const [name, path] of cases) {
    // rounds of ceiling, before and after back to back: this VM's speed drifts by tens of per cent
    // within a minute, so each round's share is taken against its own ceiling, and medians reported
    const rounds: { top: LoadResult, was: LoadResult, now: LoadResult }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const top = await load(`${ceilingUrl}${path}`, {}, { connections: CONNECTIONS })
      const was = await load(`${before.url}${path}`, auth, { connections: CONNECTIONS })
      const now = await load(`${after.url}${path}`, auth, { connections: CONNECTIONS })
      rounds.push({ top, was, now })
      for (const [which, r] of [['ceiling', top], ['before', was], ['after', now]] as [string, LoadResult][]) {
        if (r.errors + r.non2xx > 0) warnings.push(`WARNING ${name} (${which}): ${r.errors} errors, ${r.non2xx} non-2xx`)
      }
    }
    const m = (pick: (r: typeof rounds[number]) => number) => median(rounds.map(pick))
    lines.push(`| ${name} | ${bodies.get(path)!.length} | ${m((r) => r.top.rps).toFixed(0)} | ${m((r) => r.was.rps).toFixed(0)} | ${m((r) => r.was.p99)} | ` +
      `${m((r) => r.now.rps).toFixed(0)} | ${m((r) => r.now.p99)} | ${(100 * m((r) => r.now.rps / r.top.rps)).toFixed(0)}% |`)
  }
  process.stdout.write(`${[...lines, ...warnings].join('\n')}\n`)
  ceiling.close()
  await after.app.close()
  await before.app.close()
  await database.close()
}
