import { createServer, type Server } from 'node:http'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Running } from './module.js'

// The service's figures in Prometheus' text format (docs/operations.md, "Metrics"), on a listener of their own
// (METRICS_PORT): never on the public one. Each instance of the application has its own registry,
// so that tests may run several in one process. Names and labels follow Prometheus' conventions:
// the unit in the name, `_total` for counters, label values from small fixed sets.

/** what failed, as a label: a fixed set, so that a flood of new messages cannot make new series */
export type FailureKind =
  | 'http_server_error' | 'notification_delivery' | 'ext_sync_delivery' | 'ami_connection'
  | 'llm_request' | 'line_call_save' | 'screen_pop'
  /** a write of an instance that no longer leads the events' reading, refused by its fencing epoch */
  | 'stale_leader_write'
  /** a recording that could not be taken over or compressed (its raw file kept) */
  | 'recording'

export type TranscriptionOutcome = 'stored' | 'final' | 'duplicate' | 'refused'

export interface LlmCallFigures {
  provider: string
  task: string
  /** aborted: a stream the client left */
  outcome: 'ok' | 'error' | 'aborted'
  seconds: number
  inputTokens?: number
  outputTokens?: number
}

/** an outbox's waiting messages (by channel where it has several) and the oldest one's time of queueing */
export interface OutboxBacklog { channel?: string, messages: number, oldest: Date | null }

/** one labelled value of a figure read when Prometheus asks */
export interface Sample { labels?: Record<string, string>, value: number }

export interface Metrics {
  /** the registry behind it (the listener's, a test's) */
  registry: Registry
  httpRequest: (method: string, route: string, status: number, seconds: number) => void
  failure: (kind: FailureKind) => void
  llmCall: (call: LlmCallFigures) => void
  amiConnected: (connected: boolean) => void
  /** an AMI event's time from its arrival to its call's record written */
  amiEvent: (lagSeconds: number) => void
  transcription: (outcome: TranscriptionOutcome) => void
  referenceLookup: (topic: string, hit: boolean) => void
  /** an outbox whose backlog is read when Prometheus asks (`outbox_backlog_messages`, `outbox_oldest_age_seconds`) */
  outbox: (outbox: string, read: () => Promise<OutboxBacklog[]>) => void
  /**
   * A figure read when Prometheus asks (a pool's use, an outbox's backlog): a gauge, or a counter
   * for a running total kept elsewhere. A read that fails leaves the figure out of that scrape.
   */
  sampled: (kind: 'gauge' | 'counter', name: string, help: string, labelNames: string[], read: () => Sample[] | Promise<Sample[]>) => void
}

/** seconds: from a cached reference answer (well under a millisecond) to a slow export */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LLM_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
const LAG_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export function createMetrics ({ processFigures = true }: { processFigures?: boolean } = {}): Metrics {
  const registry = new Registry()
  const registers = [registry]
  // the process's CPU, memory, event-loop delay, handles and garbage collection
  if (processFigures) collectDefaultMetrics({ register: registry })

  const http = new Histogram({
    name: 'http_request_duration_seconds', help: 'HTTP requests answered, by route template, method and status code, and how long each took',
    labelNames: ['method', 'route', 'status_code'], buckets: HTTP_BUCKETS, registers,
  })
  const failures = new Counter({ name: 'failures_total', help: 'Failures by kind (a request answered 5xx, a delivery or save that failed, a lost AMI connection, an LLM call that failed)', labelNames: ['kind'], registers })
  const llmRequests = new Counter({ name: 'llm_requests_total', help: 'LLM calls by provider, task and outcome', labelNames: ['provider', 'task', 'outcome'], registers })
  const llmTokens = new Counter({ name: 'llm_tokens_total', help: 'Tokens of LLM calls by provider, task and direction (input, output)', labelNames: ['provider', 'task', 'direction'], registers })
  const llmDuration = new Histogram({ name: 'llm_request_duration_seconds', help: 'How long LLM calls took, by provider and task', labelNames: ['provider', 'task'], buckets: LLM_BUCKETS, registers })
  const amiUp = new Gauge({ name: 'ami_connected', help: '1 while the connection reading Asterisk\'s events is logged in, else 0', registers })
  const amiLag = new Histogram({ name: 'ami_event_lag_seconds', help: 'From an AMI event\'s arrival to its call\'s record written', buckets: LAG_BUCKETS, registers })
  const transcripts = new Counter({ name: 'transcription_chunks_total', help: 'Transcript chunks received, by outcome (stored, final, duplicate, refused)', labelNames: ['outcome'], registers })
  const references = new Counter({ name: 'reference_cache_requests_total', help: 'Reads of reference data by topic, answered from memory (hit) or the database (miss)', labelNames: ['topic', 'result'], registers })

  // an LLM call's series, looked up once per provider, task and outcome (labels hashed per call cost
  // more than the rest of its accounting)
  const llmSeriesKept = new Map<string, { requests: ReturnType<typeof llmRequests.labels>, duration: ReturnType<typeof llmDuration.labels>, input: ReturnType<typeof llmTokens.labels>, output: ReturnType<typeof llmTokens.labels> }>()
  const llmSeries = ({ provider, task, outcome }: LlmCallFigures) => {
    const key = `${provider}\u0000${task}\u0000${outcome}`
    let series = llmSeriesKept.get(key)
    if (!series) {
      series = { requests: llmRequests.labels({ provider, task, outcome }), duration: llmDuration.labels({ provider, task }), input: llmTokens.labels({ provider, task, direction: 'input' }), output: llmTokens.labels({ provider, task, direction: 'output' }) }
      llmSeriesKept.set(key, series)
    }
    return series
  }

  const outboxes = new Map<string, () => Promise<OutboxBacklog[]>>()
  // both gauges of a scrape from one read of each outbox: a scrape starts its collections in the
  // order of registration, the backlog's first, before any of them awaits
  const readAll = async () => (await Promise.all([...outboxes].map(async ([outbox, read]) => (await read()).map((r) => ({ ...r, outbox }))))).flat()
  let shared: ReturnType<typeof readAll> | undefined
  const backlogFirst = () => (shared = readAll())
  const backlogAgain = () => { const rows = shared ?? readAll(); shared = undefined; return rows }
  const labelsOf = (r: { outbox: string, channel?: string }) => ({ outbox: r.outbox, channel: r.channel ?? '' })

  const figures: Metrics = {
    registry,
    httpRequest: (method, route, status, seconds) => { http.observe({ method, route, status_code: String(status) }, seconds) },
    failure: (kind) => { failures.inc({ kind }) },
    llmCall: (call) => {
      const series = llmSeries(call)
      series.requests.inc()
      series.duration.observe(call.seconds)
      if (call.inputTokens) series.input.inc(call.inputTokens)
      if (call.outputTokens) series.output.inc(call.outputTokens)
    },
    amiConnected: (connected) => { amiUp.set(connected ? 1 : 0) },
    amiEvent: (lagSeconds) => { amiLag.observe(lagSeconds) },
    transcription: (outcome) => { transcripts.inc({ outcome }) },
    referenceLookup: (topic, hit) => { references.inc({ topic, result: hit ? 'hit' : 'miss' }) },
    outbox: (outbox, read) => { outboxes.set(outbox, read) },
    sampled: (kind, name, help, labelNames, read) => {
      const Metric = kind === 'gauge' ? Gauge : Counter
      // eslint-disable-next-line no-new -- registered with the registry, which keeps it
      new Metric({
        name, help, labelNames, registers,
        async collect () {
          let samples: Sample[]
          try { samples = await read() } catch { this.reset(); return }
          this.reset()
          for (const s of samples) {
            if (this instanceof Gauge) this.set(s.labels ?? {}, s.value)
            else (this as Counter).inc(s.labels ?? {}, s.value)
          }
        },
      })
    },
  }
  figures.sampled('gauge', 'outbox_backlog_messages', 'Messages waiting in each outbox (notifications by channel, the external sync)', ['outbox', 'channel'],
    async () => (await backlogFirst()).map((r) => ({ labels: labelsOf(r), value: r.messages })))
  figures.sampled('gauge', 'outbox_oldest_age_seconds', 'Age of the oldest message waiting in each outbox (0 when none waits)', ['outbox', 'channel'],
    async () => (await backlogAgain()).map((r) => ({ labels: labelsOf(r), value: r.oldest ? Math.max(0, (Date.now() - r.oldest.getTime()) / 1000) : 0 })))
  return figures
}

/** the figures' own listener (METRICS_HOST:METRICS_PORT): GET /metrics, nothing else */
export function metricsListener (metrics: Metrics, { host, port }: { host: string, port: number }, log: { info: (o: object, m: string) => void }): Running & { address: () => string | undefined } {
  let server: Server | undefined
  return {
    address: () => {
      const a = server?.address()
      return a && typeof a === 'object' ? `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : undefined
    },
    start: async () => {
      server = createServer((req, res) => {
        if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}')
          return
        }
        metrics.registry.metrics().then(
          (text) => { res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text) },
          () => { res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"Internal Server Error"}') }
        )
      })
      await new Promise<void>((resolve, reject) => { server!.once('error', reject).listen(port, host, () => resolve()) })
      log.info({ metrics: `${host}:${(server.address() as { port: number }).port}` }, 'metrics listening (GET /metrics)')
    },
    stop: async () => { await new Promise((resolve) => server ? server.close(resolve) : resolve(undefined)) },
  }
}
