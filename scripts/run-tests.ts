// `npm test`: prepares one migrated database template for the run, then runs every test file with
// node's test runner. Each file clones the template (DESIGN: no multi-second set-up per file). The
// files run as compiled once for the run (scripts/build.mjs, which `npm test` calls first): this
// script runs from the compiled copy and starts the compiled test files, named by their sources.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { finished } from 'node:stream/promises'
import { run } from 'node:test'
import { tap } from 'node:test/reporters'
import { chromium } from 'playwright-core'
import { adminQuery, databaseName, databaseUrlNamed, dropDatabase } from '../src/db/admin.js'
import { createDb } from '../src/db/client.js'
import { FRESH_IMAGE, prepareFreshImage } from '../src/db/fresh-image.js'
import { runMigrations } from '../src/db/migrate.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/console.js'
import { RUN_ROOT, runnableFile } from '../test/helpers/runnable.js'

/** how many of the slowest files the run names at its end */
const SLOWEST_SHOWN = 12
/** each file's time in the last run that had it, for the order of the next */
const TIMES_KEPT = 'node_modules/.cache/appeals-test-times.json'
/**
 * The files' times in a CI run on a 2-core machine, for the order of a run that has none of its own;
 * refreshed by hand when files come or change much: cp node_modules/.cache/appeals-test-times.json test/file-times.json
 */
const TIMES_BASELINE = 'test/file-times.json'
/** a file that starts processes (the service, the CLI, Chromium, encoders) is slow; until a run has timed it, this long */
const STARTS_PROCESSES = /startServiceAsReadme\(|startService\(|spawn\(|spawnSync\(|execFile|launchChromium\(/

/** the source a file node ran was compiled from, as the project names it (test/x.test.ts; node names the source when the source maps are on) */
const sourceOf = (file: string) => file.endsWith('.js') ? relative(RUN_ROOT, file).replace(/\.js$/, '.ts') : relative(process.cwd(), file)

function testFiles (dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return testFiles(path)
    return path.endsWith('.test.ts') ? [path] : []
  }).sort()
}

/** the embedded template: the install's first files of a new database, migrated (src/db/fresh-image.ts; ensure-deps made them) */
async function preparePglite (): Promise<Record<string, string>> {
  await prepareFreshImage()
  return { TEST_PGLITE_TEMPLATE: FRESH_IMAGE }
}

async function preparePostgres (url: string): Promise<Record<string, string>> {
  const template = `${databaseName(url)}_tpl`
  await dropDatabase(url, template)
  await adminQuery(url, `create database "${template}"`)
  const database = await createDb({ databaseUrl: databaseUrlNamed(url, template), poolSize: 1 })
  await runMigrations(database)
  await database.close()
  return { TEST_PG_TEMPLATE: template }
}

/**
 * Test files run side by side: most wait on sockets, timers and child processes rather than on the
 * CPU, so a file per core and one more (TEST_CONCURRENCY overrides it); one file alone runs alone.
 */
function concurrency (files: string[]): number {
  const asked = Number(process.env.TEST_CONCURRENCY)
  if (Number.isInteger(asked) && asked > 0) return asked
  return Math.min(files.length, availableParallelism() + 1)
}

/** the slowest files of a run */
function slowestFiles (times: Map<string, number>, wallMs: number, atOnce: number): string {
  const sum = [...times.values()].reduce((total, ms) => total + ms, 0)
  return [
    `# the run: ${(wallMs / 1000).toFixed(0)} s, ${atOnce} files at a time (the files' own times add up to ${(sum / 1000).toFixed(0)} s); the slowest:`,
    ...[...times].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN).map(([file, ms]) => `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`),
    '',
  ].join('\n')
}

/** what the test processes told of their start-up costs (test/helpers/costs.ts), summed by kind */
function startCosts (file: string): string {
  if (!existsSync(file)) return ''
  const sums = new Map<string, { count: number, ms: number }>()
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const { kind, ms } = JSON.parse(line) as { kind: string, ms: number }
    const sum = sums.get(kind) ?? { count: 0, ms: 0 }
    sums.set(kind, { count: sum.count + 1, ms: sum.ms + ms })
  }
  const said = (kind: string, what: (count: number) => string, measure: string) => {
    const sum = sums.get(kind)
    return sum ? `${what(sum.count)}: ${(sum.ms / 1000).toFixed(0)} s of ${measure}` : undefined
  }
  return `# start-up costs: ${[
    said('load', (n) => `${n} test processes loading the code`, 'CPU'),
    said('database', (n) => `${n} databases made for tests`, 'CPU'),
    said('service', (n) => `${n} service processes started to their first answer`, 'waiting'),
  ].filter(Boolean).join('; ')}\n`
}

function keptTimes (file = TIMES_KEPT): Record<string, number> {
  try { return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number> } catch { return {} }
}

/**
 * The slowest files first (their last run's times, else whether they start processes): the run is
 * bound by the CPU, and a slow file begun last runs alone at the end while the other slots stand idle.
 * (node --test sorts the files it is given by name; run() keeps their order.)
 */
function slowestFirst (files: string[]): string[] {
  // this machine's last times, else a CI run's (a fresh clone, CI's own case, has no times of its own)
  const known = { ...keptTimes(TIMES_BASELINE), ...keptTimes() }
  const expected = (file: string) => known[file] ?? (STARTS_PROCESSES.test(readFileSync(file, 'utf8')) ? 60_000 : 10_000)
  const weight = new Map(files.map((f) => [f, expected(f)]))
  return [...files].sort((a, b) => weight.get(b)! - weight.get(a)! || a.localeCompare(b))
}

/** this run's times kept for the next run's order, beside those of the files it did not run */
function keepTimes (times: Map<string, number>): void {
  const kept = keptTimes()
  for (const [file, ms] of times) kept[file] = Math.round(ms)
  mkdirSync(dirname(TIMES_KEPT), { recursive: true })
  writeFileSync(TIMES_KEPT, JSON.stringify(kept, null, 1))
}

/**
 * One Chromium for the run's browser suites, when there are any and Chromium is installed: each
 * connects to it (TEST_BROWSER_WS) instead of starting its own.
 */
async function sharedChromium (files: string[]): Promise<{ env: Record<string, string>, close: () => Promise<void> }> {
  if (!files.some((f) => f.includes('test/browser/')) || !existsSync(CHROMIUM)) return { env: {}, close: async () => {} }
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  return { env: { TEST_BROWSER_WS: server.wsEndpoint() }, close: () => server.close() }
}

/**
 * TEST_BROWSERS=off leaves the console's browser suites out of a whole run: CI runs them once, on the
 * embedded run (the process and the test clocks in zones away from the centre's), not again on
 * PostgreSQL, where the API they drive is tested by every other suite. A file named is always run.
 */
function withoutBrowserSuites (files: string[]): string[] {
  if (process.env.TEST_BROWSERS !== 'off') return files
  const kept = files.filter((f) => !f.includes('test/browser/'))
  process.stdout.write(`# TEST_BROWSERS=off: the ${files.length - kept.length} browser suites are left out of this run\n`)
  return kept
}

async function main (): Promise<number> {
  const named = process.argv.slice(2).map((f) => relative(process.cwd(), resolve(f)))
  const files = named.length > 0 ? named : withoutBrowserSuites(testFiles('test'))
  if (files.length === 0) {
    process.stderr.write('no test files found under test/\n')
    return 1
  }
  const workDir = mkdtempSync(join(tmpdir(), 'appeals-test-'))
  let stopBrowser = async () => {}
  try {
    const url = process.env.TEST_DATABASE_URL
    // the embedded template always: the embedded driver's own tests run on it on a PostgreSQL run too
    const browser = await sharedChromium(files)
    stopBrowser = browser.close
    const costs = join(workDir, 'costs.jsonl')
    const env = { ...await preparePglite(), ...(url ? await preparePostgres(url) : {}), ...browser.env, TEST_COSTS: costs }
    process.stdout.write(`database: ${url ? 'PostgreSQL server' : 'embedded PGlite'}, ${files.length} test files\n`)
    const started = Date.now()
    const atOnce = concurrency(files)
    // the test files' processes inherit this one's environment and its flags (--enable-source-maps, or tsx's loader)
    Object.assign(process.env, env)
    const stream = run({ files: slowestFirst(files).map(runnableFile), concurrency: atOnce, timeout: 480_000 })
    // each file's time: its top-level tests' durations summed (a file's suites run one after the other)
    const times = new Map<string, number>()
    let failed = false
    const fileTime = (data: { nesting: number, file?: string, details?: { duration_ms?: number } }) => {
      if (data.nesting === 0 && data.file) times.set(sourceOf(data.file), (times.get(sourceOf(data.file)) ?? 0) + (data.details?.duration_ms ?? 0))
    }
    stream.on('test:pass', fileTime)
    stream.on('test:fail', (data) => { failed = true; fileTime(data) })
    const output = stream.compose(tap)
    output.pipe(process.stdout)
    await finished(output)
    process.stdout.write(slowestFiles(times, Date.now() - started, atOnce))
    process.stdout.write(startCosts(costs))
    keepTimes(times)
    const code = failed ? 1 : 0
    return code
  } finally {
    await stopBrowser()
    rmSync(workDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
