import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { notifications } from '../src/db/schema/index.js'
import { startAmiPeer } from './helpers/ami-peer.js'
import { buildTestApp, type TestApp } from './helpers/app.js'
import { login, makeUser } from './helpers/factories.js'
import { eventually } from './helpers/http-target.js'
import { startLlmUpstream, type LlmUpstream } from './helpers/llm-upstream.js'
import { parsePrometheusText, type MetricFamily, type MetricSample } from './helpers/prometheus-text.js'
import { openSse } from './helpers/sse.js'

// The service's figures in Prometheus' text format on a listener of their own (METRICS_PORT),
// scraped over HTTP and read with a parser of the format, as Prometheus would.

/** the exposition format's own example (Prometheus' documentation), as the reader must take it */
const SPEC_EXAMPLE = `# HELP http_requests_total The total number of HTTP requests.
# TYPE http_requests_total counter
http_requests_total{method="post",code="200"} 1027 1395066363000
http_requests_total{method="post",code="400"}    3 1395066363000

# Escaping in label values:
# TYPE msdos_file_access_time_seconds untyped
msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9

# A histogram, which has a pretty complex representation in the text format:
# HELP http_request_duration_seconds A histogram of the request duration.
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.05"} 24054
http_request_duration_seconds_bucket{le="0.1"} 33444
http_request_duration_seconds_bucket{le="0.2"} 100392
http_request_duration_seconds_bucket{le="0.5"} 129389
http_request_duration_seconds_bucket{le="1"} 133988
http_request_duration_seconds_bucket{le="+Inf"} 144320
http_request_duration_seconds_sum 53423
http_request_duration_seconds_count 144320
`

describe('the text format\'s reader (test/helpers/prometheus-text.ts)', () => {
  it('reads the format\'s documented example, and refuses what a scraper would', () => {
    const families = parsePrometheusText(SPEC_EXAMPLE)
    assert.deepEqual(families.get('http_requests_total')!.samples.map((s) => [s.labels, s.value]), [[{ method: 'post', code: '200' }, 1027], [{ method: 'post', code: '400' }, 3]])
    assert.deepEqual(families.get('msdos_file_access_time_seconds')!.samples[0]!.labels, { path: 'C:\\DIR\\FILE.TXT', error: 'Cannot find file:\n"FILE.TXT"' })
    const histogram = families.get('http_request_duration_seconds')!.samples[0]!
    assert.equal(histogram.count, 144320)
    assert.equal(histogram.buckets!.get(0.1), 33444)
    assert.throws(() => parsePrometheusText('# TYPE a counter\nb 1\n'), /outside its family/)
    assert.throws(() => parsePrometheusText('# TYPE a counter\na{x="1} 1\n'), /not closed/)
    assert.throws(() => parsePrometheusText('# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n'), /\+Inf bucket/)
  })
})

describe('metrics (GET /metrics on METRICS_PORT)', () => {
  let t: TestApp
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let upstream: LlmUpstream
  let admin: Record<string, string>

  const scrape = async (): Promise<Map<string, MetricFamily>> => {
    const res = await fetch(`${t.app.metricsAddress()!}/metrics`)
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
    return parsePrometheusText(await res.text())
  }
  /** the sample of a family whose labels include these */
  const sample = (families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): MetricSample | undefined =>
    families.get(name)?.samples.find((m) => Object.entries(labels).every(([k, v]) => m.labels[k] === v))
  const value = (families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}) => sample(families, name, labels)?.value ?? NaN

  before(async () => {
    peer = await startAmiPeer()
    upstream = await startLlmUpstream()
    t = await buildTestApp({
      env: {
        METRICS_PORT: '0',
        ...peer.env(),
        LLM_PROVIDERS: JSON.stringify([{ name: 'openai', kind: 'openai-compatible', base_url: upstream.url, api_key: 'sk-metrics-test-key', model: 'gpt-test', timeout: '2s' }]),
        LLM_MAX_RETRIES: '0',
      },
    })
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
  })
  after(async () => {
    await t.close()
    await peer.close()
    await upstream.close()
  })

  it('not on the public listener; a service without METRICS_PORT has no listener at all', async () => {
    assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 404)
    const plain = await buildTestApp()
    try {
      assert.equal(plain.app.metricsAddress(), undefined)
      assert.equal((await plain.app.inject({ url: '/metrics' })).statusCode, 404)
    } finally {
      await plain.close()
    }
    assert.match(t.app.metricsAddress()!, /^http:\/\/127\.0\.0\.1:\d+$/, 'the loopback by default')
  })

  it('the listener answers GET /metrics only', async () => {
    const base = t.app.metricsAddress()!
    assert.equal((await fetch(`${base}/metrics`, { method: 'POST' })).status, 404)
    assert.equal((await fetch(`${base}/`)).status, 404)
    assert.equal((await fetch(`${base}/metrics?x=1`)).status, 200)
  })

  it('HTTP requests by route template, method and status, with their latency; never a raw path', async () => {
    assert.equal((await t.app.inject({ url: '/api/regions/987654', headers: admin })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/no/such/path/987654' })).statusCode, 404)
    const families = await scrape()
    const http = families.get('http_request_duration_seconds')!
    assert.equal(http.type, 'histogram')
    const byTemplate = sample(families, 'http_request_duration_seconds', { method: 'GET', route: '/api/regions/:region_id', status_code: '404' })
    assert.ok(byTemplate, JSON.stringify(http.samples.map((m) => m.labels)))
    assert.ok(byTemplate.count! >= 1)
    assert.ok(byTemplate.sum! > 0)
    assert.ok(sample(families, 'http_request_duration_seconds', { route: 'unmatched', status_code: '404' }))
    assert.ok(http.samples.every((m) => !JSON.stringify(m.labels).includes('987654')), 'no id in a label')
  })

  it('the database: connections in use and at most, waits, and the process\'s own figures', async () => {
    const families = await scrape()
    assert.ok(value(families, 'db_pool_connections', { state: 'max' }) >= 1)
    assert.ok(value(families, 'db_pool_acquired_total') > 0)
    assert.equal(families.get('db_pool_acquired_total')!.type, 'counter')
    assert.ok(value(families, 'db_pool_wait_seconds_total') >= 0)
    assert.equal(value(families, 'db_pool_wait_timeouts_total'), 0)
    assert.equal(value(families, 'db_pool_waiting_requests'), 0)
    assert.ok(value(families, 'process_resident_memory_bytes') > 0)
    assert.ok(families.has('nodejs_eventloop_lag_seconds'))
  })

  it('an outbox\'s backlog and its oldest message\'s age, by channel', async () => {
    let families = await scrape()
    assert.equal(value(families, 'outbox_backlog_messages', { outbox: 'notifications', channel: 'email' }), 0)
    assert.equal(value(families, 'outbox_oldest_age_seconds', { outbox: 'notifications', channel: 'sms' }), 0)
    // a mail waiting for a minute (no SMTP_URL here: e-mail notifications wait)
    await t.database.db.insert(notifications).values({
      idempotency_key: 'metrics-1', channel: 'email', kind: 'assign', recipient: 'someone@example.kz', body: 'text', created_at: new Date(Date.now() - 60_000),
    })
    try {
      families = await scrape()
      assert.equal(value(families, 'outbox_backlog_messages', { outbox: 'notifications', channel: 'email' }), 1)
      assert.ok(value(families, 'outbox_oldest_age_seconds', { outbox: 'notifications', channel: 'email' }) >= 60)
      assert.equal(value(families, 'outbox_backlog_messages', { outbox: 'notifications', channel: 'sms' }), 0)
    } finally {
      await t.database.query('delete from notifications where idempotency_key = $1', ['metrics-1'])
    }
  })

  it('LLM calls by provider, task and outcome, their tokens and latency; a failed one counted as a failure', async () => {
    upstream.script({ text: 'Сәлем', usage: { prompt: 12, completion: 5 } }, { status: 400, body: { error: { message: 'bad request' } } })
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/llm/simple', headers: admin, payload: { prompt: 'Привет' } })).statusCode, 200)
    assert.notEqual((await t.app.inject({ method: 'POST', url: '/api/llm/simple', headers: admin, payload: { prompt: 'Привет' } })).statusCode, 200)
    const families = await scrape()
    assert.equal(value(families, 'llm_requests_total', { provider: 'openai', task: 'simple', outcome: 'ok' }), 1)
    assert.equal(value(families, 'llm_requests_total', { provider: 'openai', task: 'simple', outcome: 'error' }), 1)
    assert.equal(value(families, 'llm_tokens_total', { provider: 'openai', task: 'simple', direction: 'input' }), 12)
    assert.equal(value(families, 'llm_tokens_total', { provider: 'openai', task: 'simple', direction: 'output' }), 5)
    assert.equal(sample(families, 'llm_request_duration_seconds', { provider: 'openai', task: 'simple' })?.count, 2)
    assert.equal(value(families, 'failures_total', { kind: 'llm_request' }), 1)
  })

  it('transcription intake by outcome; live consoles; the reference cache\'s hits', async () => {
    const chunk = (payload: object) => t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload })
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '101001', caller_phone: '+77010000001', call_datetime: new Date().toISOString() } })).statusCode, 200)
    const first = { call_id: 'metrics-call', operator_num: '101001', channel: 'caller', chunk_text: 'Сәлеметсіз бе', full_text: 'Сәлеметсіз бе' }
    assert.equal((await chunk(first)).statusCode, 200)
    assert.equal((await chunk(first)).statusCode, 200)
    assert.equal((await chunk({ ...first, chunk_text: 'соңы', full_text: 'Сәлеметсіз бе соңы', is_final: true })).statusCode, 200)
    assert.equal((await chunk({ ...first, chunk_text: 'тағы', full_text: 'тағы' })).statusCode, 409)

    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const address = t.app.server.address() as { port: number }
    const stream = await openSse(`http://127.0.0.1:${address.port}/api/call-events/stream`, admin)
    await eventually(async () => value(await scrape(), 'live_consoles') === 1, 10_000, 'the console counted')
    await stream.close()
    await eventually(async () => value(await scrape(), 'live_consoles') === 0, 10_000, 'the console gone')

    for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ url: '/api/regions/tree', headers: admin })).statusCode, 200)
    const families = await scrape()
    assert.equal(value(families, 'transcription_chunks_total', { outcome: 'stored' }), 1)
    assert.equal(value(families, 'transcription_chunks_total', { outcome: 'duplicate' }), 1)
    assert.equal(value(families, 'transcription_chunks_total', { outcome: 'final' }), 1)
    assert.equal(value(families, 'transcription_chunks_total', { outcome: 'refused' }), 1)
    assert.ok(value(families, 'reference_cache_requests_total', { topic: 'regions', result: 'hit' }) >= 1)
    assert.ok(value(families, 'reference_cache_requests_total', { topic: 'regions', result: 'miss' }) >= 1)
  })

  it('AMI: the events\' connection up, each event\'s lag to its call written; a lost connection counted and shown', async () => {
    await eventually(async () => value(await scrape(), 'ami_connected') === 1, 10_000, 'AMI events connected')
    peer.replay('queue-answered.txt')
    await eventually(async () => (sample(await scrape(), 'ami_event_lag_seconds')?.count ?? 0) > 0, 10_000, 'an event\'s lag observed')
    const lag = sample(await scrape(), 'ami_event_lag_seconds')!
    assert.ok(lag.sum! >= 0 && lag.sum! < 60, String(lag.sum))
    peer.state.mode = 'drop'
    peer.dropStreams()
    try {
      await eventually(async () => {
        const families = await scrape()
        return value(families, 'ami_connected') === 0 && value(families, 'failures_total', { kind: 'ami_connection' }) >= 1
      }, 10_000, 'the loss shown')
    } finally {
      peer.state.mode = 'normal'
    }
    await eventually(async () => value(await scrape(), 'ami_connected') === 1, 30_000, 'connected again')
  })

  it('names and labels follow Prometheus\' conventions', async () => {
    const families = await scrape()
    for (const [name, family] of families) {
      assert.match(name, /^[a-z_][a-z0-9_]*$/, name)
      assert.ok(family.help.length > 0, `${name} has its help`)
      if (family.type === 'counter') assert.match(name, /_total$/, name)
      if (family.type === 'histogram') assert.match(name, /_seconds$/, name)
    }
    const routes = new Set(families.get('http_request_duration_seconds')!.samples.map((m) => m.labels.route!))
    assert.ok([...routes].every((r) => r === 'unmatched' || r.startsWith('/')), [...routes].join(' '))
    const kinds = new Set(families.get('failures_total')!.samples.map((m) => m.labels.kind!))
    assert.ok(kinds.size <= 8)
  })
})
