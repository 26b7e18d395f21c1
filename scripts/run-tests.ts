// `npm test`: prepares one migrated database template for the run, then runs every test file with
// node's test runner. Each file clones the template (DESIGN: no multi-second set-up per file).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { chromium } from 'playwright-core'
import { adminQuery, databaseName, databaseUrlNamed, dropDatabase } from '../src/db/admin.js'
import { createDb } from '../src/db/client.js'
import { runMigrations } from '../src/db/migrate.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/console.js'

/** how many of the slowest files the run names at its end */
const SLOWEST_SHOWN = 12

function testFiles (dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return testFiles(path)
    return path.endsWith('.test.ts') ? [path] : []
  }).sort()
}

async function preparePglite (workDir: string): Promise<Record<string, string>> {
  const database = await createDb({})
  await runMigrations(database)
  const image = await database.image()
  const file = join(workDir, 'template.tar')
  writeFileSync(file, Buffer.from(await image.arrayBuffer()))
  await database.close()
  return { TEST_PGLITE_TEMPLATE: file }
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

/** the slowest files of a run, from what scripts/file-times-reporter.mjs wrote */
function slowestFiles (timesFile: string, wallMs: number, atOnce: number): string {
  const times = existsSync(timesFile)
    ? readFileSync(timesFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { file: string, ms: number })
    : []
  const sum = times.reduce((total, t) => total + t.ms, 0)
  return [
    `# the run: ${(wallMs / 1000).toFixed(0)} s, ${atOnce} files at a time (the files' own times add up to ${(sum / 1000).toFixed(0)} s); the slowest:`,
    ...times.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN).map((t) => `#   ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${relative(process.cwd(), t.file)}`),
    '',
  ].join('\n')
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
  const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : withoutBrowserSuites(testFiles('test'))
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
    const env = { ...await preparePglite(workDir), ...(url ? await preparePostgres(url) : {}), ...browser.env }
    process.stdout.write(`database: ${url ? 'PostgreSQL server' : 'embedded PGlite'}, ${files.length} test files\n`)
    const started = Date.now()
    const timesFile = join(workDir, 'file-times.jsonl')
    const atOnce = concurrency(files)
    const child = spawn(process.execPath, [
      '--import', 'tsx', '--test', `--test-concurrency=${atOnce}`, '--test-timeout=480000',
      '--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/file-times-reporter.mjs', `--test-reporter-destination=${timesFile}`,
      ...files,
    ], { stdio: 'inherit', env: { ...process.env, ...env } })
    const code = await new Promise<number>((resolve) => child.on('exit', (exit) => resolve(exit ?? 1)))
    process.stdout.write(slowestFiles(timesFile, Date.now() - started, atOnce))
    return code
  } finally {
    await stopBrowser()
    rmSync(workDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
