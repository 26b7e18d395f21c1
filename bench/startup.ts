// Issue 63: what starting costs, paid by every test file and every service the tests start. Each
// figure is the median of a few runs in fresh processes: the CPU (user + system) a test process
// spends loading the application, compiled once (dist/current) and through tsx; a database made
// from the migrated template; a new data directory, from PGlite's initdb and from the prepared
// copy of it (src/db/fresh-image.ts); and a service started as `npm start` runs it, to /health.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createDb } from '../src/db/client.js'
import { FRESH_IMAGE } from '../src/db/fresh-image.js'
import { runMigrations } from '../src/db/migrate.js'

const run = promisify(execFile)
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3)
const BUILD = 'dist/current'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

/** a fresh node process running `script` (an ES module's text) with `flags`: what it prints */
async function inProcess (flags: string[], script: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'appeals-bench-'))
  const file = join(process.cwd(), `.bench-startup-${process.pid}.mjs`)
  try {
    writeFileSync(file, script)
    const { stdout } = await run(process.execPath, [...flags, file], { env: { ...process.env, BENCH_DIR: dir }, maxBuffer: 1 << 20 })
    return stdout.trim().split('\n').at(-1)!
  } finally {
    rmSync(file, { force: true })
    rmSync(dir, { recursive: true, force: true })
  }
}

/** CPU ms a process spends importing `module` (the tests' application helper) */
const loadCpu = (flags: string[], module: string) => inProcess(flags, `
  await import(${JSON.stringify(join(process.cwd(), module))})
  const { user, system } = process.cpuUsage()
  console.log((user + system) / 1000)`).then(Number)

async function times (what: () => Promise<number>): Promise<number> {
  const measured: number[] = []
  for (let i = 0; i < RUNS; i++) measured.push(await what())
  return median(measured)
}

/** wall ms from the spawn of the service on a new data directory to its first healthy answer */
async function serviceToHealth (args: string[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'appeals-bench-service-'))
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const started = performance.now()
  const child = spawn(process.execPath, args, { env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', ADMIN_PASSWORD: 'Bench-password-1' }, stdio: 'ignore' })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode})`)
      if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) return performance.now() - started
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchStartup (): Promise<void> {
  if (!existsSync(BUILD) || !existsSync(FRESH_IMAGE)) throw new Error('run `node scripts/ensure-deps.mjs` first: it compiles the project and makes the first files of a new database')
  const templateFile = join(tmpdir(), `appeals-bench-template-${process.pid}.tar`)
  const template = await createDb({ loadDataDir: new Blob([readFileSync(FRESH_IMAGE)]) })
  await runMigrations(template)
  writeFileSync(templateFile, Buffer.from(await (await template.image()).arrayBuffer()))
  await template.close()
  /** wall ms to a database's first answer: `made` is the expression that makes it (createDb and PGlite in scope) */
  const madeIn = (made: string) => inProcess([], `
    const { createDb } = await import(${JSON.stringify(join(process.cwd(), BUILD, 'src/db/client.js'))})
    const { PGlite } = await import('@electric-sql/pglite')
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
    const { readFileSync } = await import('node:fs')
    const started = performance.now()
    const database = await ${made}
    await database.query('select 1')
    console.log(performance.now() - started)
    await database.close()`).then(Number)
  try {
    const rows = [
      ['loading the application, compiled once (dist/current)', seconds(await times(() => loadCpu(['--enable-source-maps'], `${BUILD}/test/helpers/app.js`))), 'CPU'],
      ['loading the application through tsx', seconds(await times(() => loadCpu(['--import', 'tsx'], 'test/helpers/app.ts'))), 'CPU'],
      ['a database from the migrated template (in memory)', seconds(await times(() => madeIn(`createDb({ loadDataDir: new Blob([readFileSync(${JSON.stringify(templateFile)})]) })`))), 'wall'],
      ['a new data directory from the prepared files (src/db/fresh-image.ts)', seconds(await times(() => madeIn('createDb({ dataDir: process.env.BENCH_DIR })'))), 'wall'],
      ['a new data directory by initdb', seconds(await times(() => madeIn('PGlite.create({ dataDir: process.env.BENCH_DIR, extensions: { pg_trgm } })'))), 'wall'],
      ['a service on a new data directory to /health, compiled (npm start)', seconds(await times(() => serviceToHealth(['--enable-source-maps', `${BUILD}/src/main.js`]))), 'wall'],
      ['a service on a new data directory to /health, through tsx', seconds(await times(() => serviceToHealth(['--import', 'tsx', 'src/main.ts']))), 'wall'],
    ]
    console.log(`\n## Start-up costs (median of ${RUNS} fresh processes)\n\n| what | time | measured as |\n|---|---:|---|`)
    for (const [what, time, kind] of rows) console.log(`| ${what} | ${time} | ${kind} |`)
  } finally {
    rmSync(templateFile, { force: true })
  }
}
