// Issue 8's and 36's figures: the latency the gateway adds over calling the same local upstream directly,
// for a whole completion and for the first streamed byte (p50/p99 of sequential requests).
import { startLlmUpstream } from '../test/helpers/llm-upstream.js'
import { benchDatabase, startService } from './harness.js'

const REQUESTS = Number(process.env.BENCH_LLM_REQUESTS ?? 1000)
const WARM_UP = 100
const MESSAGES = [{ role: 'user', content: 'Гражданин сообщает, что в доме нет отопления. ИИН 061211600012, тел. 87011234567.' }]

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** time until the response's whole body, or its first body chunk */
async function timed (request: () => Promise<Response>, until: 'body' | 'first-chunk'): Promise<number> {
  const started = performance.now()
  const res = await request()
  if (until === 'body') {
    await res.arrayBuffer()
    return performance.now() - started
  }
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error('stream ended before a delta')
    seen += decoder.decode(value, { stream: true })
    // the first text delta in either wire format (upstream: "content", gateway: "delta")
    if (/"content":"[^"]|"type":"delta"/.test(seen)) break
  }
  const elapsed = performance.now() - started
  await reader.cancel()
  return elapsed
}

/** direct and gateway requests taken in turns, so that both meet the same moments of the machine */
async function measure (direct: () => Promise<Response>, gateway: () => Promise<Response>, until: 'body' | 'first-chunk') {
  for (let i = 0; i < WARM_UP; i++) { await timed(direct, until); await timed(gateway, until) }
  const samples = { direct: [] as number[], gateway: [] as number[], added: [] as number[] }
  for (let i = 0; i < REQUESTS; i++) {
    const d = await timed(direct, until)
    const g = await timed(gateway, until)
    samples.direct.push(d)
    samples.gateway.push(g)
    samples.added.push(g - d)
  }
  return { direct: quantiles(samples.direct), gateway: quantiles(samples.gateway), added: quantiles(samples.added) }
}

function quantiles (values: number[]) {
  const sorted = values.sort((a, b) => a - b)
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
  return { p50: q(0.5), p99: q(0.99) }
}

export async function benchLlm (): Promise<void> {
  const upstream = await startLlmUpstream()
  upstream.respond = () => ({ chunks: ['Принято', ', ', 'спасибо'] })
  const database = await benchDatabase('llm')
  const service = await startService(database, { LLM_BENCH_BASE_URL: upstream.url, LLM_BENCH_MODEL: 'bench-model', LLM_BENCH_API_KEY: 'sk-bench' })
  const body = { model: 'bench-model', messages: MESSAGES }
  const rows = [
    ['complete', 'body', () => post(`${upstream.url}/chat/completions`, body), () => post(`${service.url}/api/llm/complete`, { messages: MESSAGES })],
    ['first streamed byte', 'first-chunk', () => post(`${upstream.url}/chat/completions`, { ...body, stream: true, stream_options: { include_usage: true } }), () => post(`${service.url}/api/llm/stream`, { messages: MESSAGES })],
  ] as const
  process.stdout.write(`\nLLM gateway on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}: ${REQUESTS} sequential requests each, direct and through the gateway in turns, PII redaction and accounting on\n`)
  for (const [name, until, direct, gateway] of rows) {
    const { direct: d, gateway: g, added } = await measure(direct, gateway, until)
    process.stdout.write(`${name}: direct p50 ${d.p50.toFixed(2)} ms p99 ${d.p99.toFixed(2)} ms; through the gateway p50 ${g.p50.toFixed(2)} ms p99 ${g.p99.toFixed(2)} ms; ` +
      `added p50 ${(g.p50 - d.p50).toFixed(2)} ms, p99 ${(g.p99 - d.p99).toFixed(2)} ms; median of the ${REQUESTS} pairs' differences ${added.p50.toFixed(2)} ms\n`)
  }
  await service.app.close()
  await database.close()
  await upstream.close()
}
