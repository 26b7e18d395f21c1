import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Download, type Page } from 'playwright-core'
import { createPostgresTestDatabaseUrl } from './database.js'
import { centreDayOf } from './clock.js'
import { costOfService } from './costs.js'

export const ADMIN = { email: 'admin@centre.kz', password: 'Admin-Passw0rd-2026' }
export const SCREENSHOTS = 'test-results/console'

async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * The service started as the README says (`npm start`), on a fresh database: the embedded one in a
 * new data directory, or a new PostgreSQL database when the run is on PostgreSQL. With `seed`, the
 * reference data is there as on a production start: the embedded database loads it at its first
 * start, on PostgreSQL `npm run seed` loads it.
 */
export async function startServiceAsReadme (env: Record<string, string | undefined> = {}): Promise<{ url: string, output: () => string, stop: () => Promise<void> }> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'appeals-console-'))
  const postgres = process.env.TEST_DATABASE_URL ? await createPostgresTestDatabaseUrl(process.env.TEST_DATABASE_URL) : undefined
  // a variable given as undefined is left out (ADMIN_PASSWORD: the first admin gets a generated one)
  const childEnv = Object.fromEntries(Object.entries({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    ...(postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: dataDir }),
    // the generated Asterisk files in the test's own folder, on PostgreSQL too
    PBX_CONFIG_DIR: join(dataDir, 'asterisk'),
    ...env,
  }).filter((entry): entry is [string, string] => entry[1] !== undefined))
  const child = spawn('npm', ['start'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let log = ''
  const keep = (chunk: Buffer) => { log = (log + chunk.toString()).slice(-8000) }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 120_000
  await costOfService(async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}): ${log}`)
      const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false)
      if (ok) return
      if (Date.now() > deadline) throw new Error(`the service did not start: ${log}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
  return {
    url,
    /** the last lines the service wrote (its log) */
    output: () => log,
    async stop () {
      // npm starts node: the signal goes to the whole group
      try { process.kill(-child.pid!, 'SIGTERM') } catch {}
      const stopping = Date.now()
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
      if (child.exitCode === null && child.signalCode === null) process.stdout.write(`# the service had not stopped ${Date.now() - stopping} ms after SIGTERM; its last lines:\n${log.split('\n').slice(-20).map((l) => `#   ${l}`).join('\n')}\n`)
      rmSync(dataDir, { recursive: true, force: true })
      await postgres?.drop()
    },
  }
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/**
 * Why the browser tests cannot run here, if they cannot: no Chromium. In CI that is a failure (CI
 * installs it); on a developer's machine the suite says so and skips them.
 */
export const noBrowser = existsSync(CHROMIUM) || process.env.CI ? undefined : `no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH) to run the console's browser tests`

/** Debian's Chromium through Playwright (its own browser download cannot work here) */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/**
 * The run's one Chromium (scripts/run-tests.ts starts it for the browser suites and says where in
 * TEST_BROWSER_WS), or one of this file's own. Each suite works in contexts of its own; closing the
 * browser closes them and leaves the shared one running.
 */
export async function launchChromium (): Promise<Browser> {
  const shared = process.env.TEST_BROWSER_WS
  if (shared) return chromium.connect(shared)
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}

/** a downloaded file's bytes, read through the browser's connection (the run's shared Chromium is another process's: its files have no path here) */
export const downloadedBytes = async (download: Download): Promise<Buffer> => Buffer.concat(await (await download.createReadStream()).toArray())

/**
 * A screenshot under test-results/console/, of the whole page unless `viewport`. Its bound is
 * generous: on a loaded 2-core machine with three suites in one Chromium a tall page's capture once
 * took over 30 s in CI. An open dropdown is taken with `viewport`: a full-page capture lays the page
 * out again at its whole height, and once in CI the header search's results were gone after it.
 */
export async function screenshot (page: Page, name: string, { viewport = false }: { viewport?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: !viewport, animations: 'disabled', timeout: 120_000 })
}

export async function apiToken (url: string, credentials: { email: string, password: string }): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
  if (!res.ok) throw new Error(`login ${res.status}`)
  return ((await res.json()) as { access_token: string }).access_token
}

/**
 * The browser's zone in every browser test: far from the centre's (Asia/Almaty, UTC+5), so that a day
 * the console derived from the browser's zone instead of the centre's is another day and fails.
 */
export const BROWSER_ZONE = 'America/Los_Angeles'

/** 02:00 in the centre (Asia/Almaty) on the day of `at`: the browser's date (America/Los_Angeles) is the day before then */
export function centreNightOf (at: Date | string = new Date()): Date {
  return new Date(`${centreDayOf(at)}T02:00:00+05:00`)
}

/**
 * A fresh browser context in Russian at an office screen's size, in BROWSER_ZONE; a page error fails the test.
 * The system asks for reduced motion unless `motion` is set: the console then draws no animations, so a test
 * never waits on a frame a loaded machine has not drawn yet (entry.test keeps the animated console covered).
 * `clockAt` fixes the browser's clock (its timers keep running): the hour a test must hold at.
 */
export async function newPage (browser: Browser, viewport = { width: 1366, height: 850 }, { motion = false, clockAt, locale = 'ru-RU' }: { motion?: boolean, clockAt?: Date, locale?: string } = {}): Promise<Page> {
  const context = await browser.newContext({ locale, timezoneId: BROWSER_ZONE, viewport, acceptDownloads: true, reducedMotion: motion ? 'no-preference' : 'reduce' })
  if (clockAt) await context.clock.setFixedTime(clockAt)
  const page = await context.newPage()
  page.on('pageerror', (err) => { throw err })
  // the console asks only for what its user may see, and the service never fails it
  page.on('response', (res) => {
    if (res.url().includes('/api/') && (res.status() === 403 || res.status() >= 500)) throw new Error(`the console got ${res.status()} from ${res.request().method()} ${res.url()}`)
  })
  return page
}

export async function signIn (page: Page, url: string, credentials: { email: string, password: string }, path = '/console/'): Promise<void> {
  await page.goto(`${url}${path}`)
  await page.getByLabel('Электронная почта').fill(credentials.email)
  await page.getByLabel('Пароль').fill(credentials.password)
  await page.getByRole('button', { name: 'Войти' }).click()
  await page.getByTestId('current-user').waitFor()
}

/** JSON requests to the service as one user: answers the body, fails the test on an unexpected status */
export function serviceApi (url: string, token?: string) {
  return async function call<T = any> (method: string, path: string, body?: unknown, expected = method === 'POST' ? [200, 201] : [200]): Promise<T> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
}

type ServiceCall = ReturnType<typeof serviceApi>

/** an employee created by the admin who accepted the mailed invitation: answers the id */
export async function activatedEmployee (
  url: string, admin: ServiceCall, smtp: { next: (to: string) => Promise<{ text: string }> },
  employee: { email: string, last_name: string, first_name: string, organization_id: number, role: string }, password: string
): Promise<number> {
  const { id } = await admin<{ id: number }>('POST', '/api/employees', employee)
  await admin('POST', `/api/auth/send-invite/${id}`)
  const token = /token=([A-Za-z0-9_-]+)/.exec((await smtp.next(employee.email)).text)![1]!
  await serviceApi(url)('POST', '/api/auth/invite/activate', { token, password })
  return id
}
