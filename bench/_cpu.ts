import { launchChromium, startServiceAsReadme } from '../test/helpers/console.js'
const service = await startServiceAsReadme()
const browser = await launchChromium()
for (let i = 0; i < 2; i++) {
  const context = await browser.newContext({ locale: 'ru-RU' })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  const t0 = performance.now()
  await page.goto(`${service.url}/console/signin`)
  await page.getByRole('button', { name: 'Войти' }).waitFor()
  const took = performance.now() - t0
  const { profile } = await cdp.send('Profiler.stop') as { profile: { nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number }, hitCount: number, children?: number[] }[], timeDeltas: number[], samples: number[] } }
  if (i === 0) { await context.close(); continue }
  const interval = profile.timeDeltas.reduce((a, b) => a + b, 0) / profile.samples.length / 1000
  const self = new Map<string, number>()
  const byUrl = new Map<string, number>()
  const counts = new Map<number, number>()
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1)
  for (const n of profile.nodes) {
    const c = counts.get(n.id) ?? 0
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').at(-1)}:${n.callFrame.lineNumber}`
    self.set(key, (self.get(key) ?? 0) + c * interval)
    const u = n.callFrame.url.split('/').at(-1) || n.callFrame.functionName
    byUrl.set(u, (byUrl.get(u) ?? 0) + c * interval)
  }
  console.log('usable', took.toFixed(0))
  console.log([...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${v.toFixed(0)} ms ${k}`).join('\n'))
  console.log('---')
  console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0)} ms ${k}`).join('\n'))
  await context.close()
}
await browser.close(); await service.stop()
