// Shared pieces of the benchmarks: a database, the service on a port, a bare node:http baseline, and
// autocannon in its own process (so the load generator does not share the service's event loop).
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { adminQuery, databaseName, databaseUrlNamed, dropDatabase } from '../src/db/admin.js'
import { createDb, type Database } from '../src/db/client.js'
import { runMigrations } from '../src/db/migrate.js'

const run = promisify(execFile)
export const BENCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
export const BENCH_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)

/**
 * The suite's database: a new embedded one, or on PostgreSQL one of its own beside BENCH_DATABASE_URL's
 * (`appeals_bench_hot_paths` for `appeals_bench`), so that no suite measures another's rows. It starts
 * empty, but with `keep` (the suites whose million rows take minutes to make) it keeps what the last
 * run left.
 */
export async function benchDatabase (suite: string, { keep = false } = {}): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL
  let databaseUrl: string | undefined
  if (url) {
    const name = `${databaseName(url)}_${suite.replaceAll('-', '_')}`
    if (!keep) await dropDatabase(url, name)
    await adminQuery(url, `create database "${name}"`).catch((err: unknown) => {
      if ((err as { code?: string }).code !== '42P04') throw err // duplicate_database: kept
    })
    databaseUrl = databaseUrlNamed(url, name)
  }
  const database = await createDb({ databaseUrl })
  await runMigrations(database)
  return database
}

/** Raw SQL on the same database, without the query builder: what the baseline server uses. */
export function rawQuery (database: Database) {
  return <T>(text: string, params: unknown[] = []): Promise<T[]> => database.query<T>(text, params)
}

/** a classifier of 5 appeal types x 10 categories x 10 subcategories (73 kB as a tree): answers its id */
export async function insertBenchClassifier (sql: ReturnType<typeof rawQuery>): Promise<number> {
  const [{ id: classifierId }] = await sql<{ id: number }>('insert into classifiers (name, code) values (\'Бенчмарк\', \'BENCH\') returning id') as [{ id: number }]
  await sql('insert into appeal_types (classifier_id, name, sort_order) select $1, \'Тип \' || t, t from generate_series(1, 5) t', [classifierId])
  await sql('insert into categories (appeal_type_id, name, sort_order) select a.id, \'Категория \' || c, c from appeal_types a, generate_series(1, 10) c where a.classifier_id = $1', [classifierId])
  await sql(`insert into subcategories (category_id, name, priority, sort_order) select k.id, 'Подкатегория ' || s, 1 + s % 5, s
    from categories k join appeal_types a on a.id = k.appeal_type_id, generate_series(1, 10) s where a.classifier_id = $1`, [classifierId])
  return classifierId
}

export async function startService (database: Database, env: Record<string, string> = {}): Promise<{ app: FastifyInstance, url: string }> {
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123', ...env }), database, logger: false })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url }
}

/** A bare node:http server: one handler per path, JSON out, nothing else. */
export async function startBaseline (handlers: Record<string, (url: URL) => Promise<unknown>>): Promise<{ server: Server, url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://baseline')
    const handler = handlers[url.pathname]
    if (!handler) { res.writeHead(404).end(); return }
    handler(url).then((body) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }, (err: unknown) => { res.writeHead(500).end(String(err)) })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

export interface LoadResult { rps: number, p50: number, p99: number, errors: number, non2xx: number }

/** `rate`: requests a second in all (autocannon's -R), else as fast as the connections go */
export async function load (url: string, headers: Record<string, string> = {}, request: { method?: string, body?: string, connections?: number, seconds?: number, rate?: number } = {}): Promise<LoadResult> {
  const args = ['-c', String(request.connections ?? BENCH_CONNECTIONS), '-d', String(request.seconds ?? BENCH_SECONDS), '-j']
  if (request.rate) args.push('-R', String(request.rate))
  if (request.method) args.push('-m', request.method)
  if (request.body) args.push('-b', request.body)
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`)
  const { stdout } = await run('node_modules/.bin/autocannon', [...args, url], { maxBuffer: 16 * 1024 * 1024 })
  const r = JSON.parse(stdout) as { requests: { average: number }, latency: { p50: number, p99: number }, errors: number, non2xx: number }
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx }
}

export interface Row { case: string, service: LoadResult, baseline: LoadResult }

export function printTable (title: string, rows: Row[]): void {
  const lines = [
    `\n${title} (${BENCH_CONNECTIONS} connections, ${BENCH_SECONDS} s each)`,
    '| case | service req/s | service p99 ms | baseline req/s | baseline p99 ms | service/baseline req/s |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.case} | ${r.service.rps.toFixed(0)} | ${r.service.p99} | ${r.baseline.rps.toFixed(0)} | ${r.baseline.p99} | ${(r.service.rps / r.baseline.rps).toFixed(2)} |`),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  for (const r of rows) {
    if (r.service.errors + r.service.non2xx + r.baseline.errors + r.baseline.non2xx > 0) {
      process.stdout.write(`WARNING ${r.case}: errors or non-2xx answers ${JSON.stringify(r)}\n`)
    }
  }
}
