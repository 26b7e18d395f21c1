// Issue 15's figures: the console's built size, and how long its first page takes to load in
// Chromium from a cold cache, against the service started as the README says (`npm start`).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchChromium, startServiceAsReadme } from '../test/helpers/console.js'

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10)

export async function benchConsole (): Promise<void> {
  const service = await startServiceAsReadme()
  const browser = await launchChromium()
  try {
    const assets = readdirSync('web/dist/assets').map((name) => {
      const bytes = readFileSync(join('web/dist/assets', name))
      return { name, size: statSync(join('web/dist/assets', name)).size, gzip: gzipSync(bytes).length }
    })
    const lines = ['\nconsole build', '| file | bytes | gzip |', '|---|---:|---:|', ...assets.map((a) => `| ${a.name} | ${a.size} | ${a.gzip} |`),
      `| total | ${assets.reduce((s, a) => s + a.size, 0)} | ${assets.reduce((s, a) => s + a.gzip, 0)} |`]
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      // a new context each time: nothing cached, as on a first visit
      const context = await browser.newContext({ locale: 'ru-RU' })
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(`${service.url}/console/signin`)
      await page.getByRole('button', { name: 'Войти' }).waitFor()
      times.push(performance.now() - started)
      await context.close()
    }
    times.sort((a, b) => a - b)
    lines.push(`\nsign-in page from a cold cache to its form usable (${RUNS} runs over loopback, embedded database): median ${times[Math.floor(RUNS / 2)]!.toFixed(0)} ms, worst ${times[RUNS - 1]!.toFixed(0)} ms`)
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    await browser.close()
    await service.stop()
  }
}
