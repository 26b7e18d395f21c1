// Issue 15's and 35's figures: the console's built size, and its first page from a cold cache in
// Chromium against the service started as the README says (`npm start`): the bytes it transfers
// (headers and bodies as sent, compressed) and how long until its form can be used.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { launchChromium, startServiceAsReadme } from '../test/helpers/console.js'

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10)
/** issue 35's targets for the first load */
const MOST_BYTES = 350 * 1024
const MOST_MS = 1000

/** the bytes of every response the page receives, as sent over the wire */
function countTransfer (page: Page): () => Promise<{ requests: number, bytes: number }> {
  const sizes: Promise<number>[] = []
  page.on('requestfinished', (request) => {
    sizes.push(request.sizes().then((s) => s.responseHeadersSize + s.responseBodySize))
  })
  return async () => {
    const all = await Promise.all(sizes)
    return { requests: all.length, bytes: all.reduce((a, b) => a + b, 0) }
  }
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!
const verdict = (met: boolean) => (met ? 'met' : '**not met**')

export async function benchConsole (): Promise<void> {
  const service = await startServiceAsReadme()
  const browser = await launchChromium()
  try {
    const assets = readdirSync('web/dist/assets').filter((name) => !/\.(br|gz)$/.test(name)).map((name) => {
      const bytes = readFileSync(join('web/dist/assets', name))
      return { name, size: statSync(join('web/dist/assets', name)).size, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length }
    })
    const total = (key: 'size' | 'gzip' | 'brotli') => assets.reduce((s, a) => s + a[key], 0)
    const lines = ['\nconsole build', '| file | bytes | gzip | brotli |', '|---|---:|---:|---:|', ...assets.map((a) => `| ${a.name} | ${a.size} | ${a.gzip} | ${a.brotli} |`),
      `| total | ${total('size')} | ${total('gzip')} | ${total('brotli')} |`]
    const times: number[] = []
    const transfers: { requests: number, bytes: number }[] = []
    for (let i = 0; i < RUNS; i++) {
      // a new context each time: nothing cached, as on a first visit
      const context = await browser.newContext({ locale: 'ru-RU' })
      const page = await context.newPage()
      const transferred = countTransfer(page)
      const started = performance.now()
      await page.goto(`${service.url}/console/signin`)
      await page.getByLabel('Пароль').waitFor()
      await page.getByRole('button', { name: 'Войти' }).waitFor()
      times.push(performance.now() - started)
      await page.waitForLoadState('networkidle')
      transfers.push(await transferred())
      await context.close()
    }
    times.sort((a, b) => a - b)
    const bytes = transfers.map((t) => t.bytes).sort((a, b) => a - b)
    lines.push(`\nsign-in page from a cold cache (${RUNS} runs over loopback, embedded database):`,
      `- transferred until the network is idle: median ${(median(bytes) / 1024).toFixed(1)} kB in ${transfers[0]!.requests} requests, most ${(bytes[RUNS - 1]! / 1024).toFixed(1)} kB; target <= ${MOST_BYTES / 1024} kB: ${verdict(bytes[RUNS - 1]! <= MOST_BYTES)}`,
      `- until its form is usable: median ${median(times).toFixed(0)} ms, worst ${times[RUNS - 1]!.toFixed(0)} ms; target < ${MOST_MS} ms: ${verdict(times[RUNS - 1]! < MOST_MS)}`)
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    await browser.close()
    await service.stop()
  }
}
