import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import type { InjectOptions } from 'fastify'
import { loggerOptions } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { startTracing, type Tracing } from '../src/integrations/tracing/otlp.js'
import { startAmiPeer } from './helpers/ami-peer.js'
import { buildTestApp, testEnv, type TestApp } from './helpers/app.js'
import { login, makeUser } from './helpers/factories.js'
import { eventually } from './helpers/http-target.js'
import { startLlmUpstream, type LlmUpstream } from './helpers/llm-upstream.js'
import { startSmtpServer } from './helpers/smtp.js'

// Traces over OTLP/HTTP to a local receiver that takes what a collector would (JSON on
// /v1/traces): a request, its statements and its calls out in one trace that continues the
// caller's traceparent; the request id in the answer's X-Request-Id and in every log line of it.

interface OtlpSpan { traceId: string, spanId: string, parentSpanId?: string, name: string, kind: number, attributes: { key: string, value: Record<string, unknown> }[] }

/** an OTLP/HTTP receiver: every span of every export it was sent */
async function startOtlpReceiver () {
  const spans: OtlpSpan[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => { body += d.toString() })
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) { res.writeHead(404).end(); return }
      const payload = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }
      for (const r of payload.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, close: () => new Promise((resolve) => server.close(resolve)) }
}

const attribute = (span: OtlpSpan, key: string) => { const v = span.attributes.find((a) => a.key === key)?.value; return v && Object.values(v)[0] }

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT) and the request id in logs', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>
  let tracing: Tracing
  let t: TestApp
  let upstream: LlmUpstream
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let admin: Record<string, string>
  let adminEmail: string
  const lines: Record<string, unknown>[] = []

  before(async () => {
    receiver = await startOtlpReceiver()
    // before the database opens, as main.ts does: its statements are traced
    tracing = startTracing({ endpoint: receiver.url, serviceName: 'appeals-test', version: 'test' })
    upstream = await startLlmUpstream()
    smtp = await startSmtpServer()
    peer = await startAmiPeer()
    const env = {
      SMTP_URL: smtp.url, ...peer.env(),
      LLM_PROVIDERS: JSON.stringify([{ name: 'openai', kind: 'openai-compatible', base_url: upstream.url, api_key: 'sk-tracing-test-key', model: 'gpt-test', timeout: '2s' }]),
    }
    const logs = new Writable({ write (chunk: Buffer, _enc, done) { for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line)); done() } })
    t = await buildTestApp({ env, deps: { logger: { ...loggerOptions(loadConfig({ ...testEnv, ...env, LOG_LEVEL: 'info' })) as object, stream: logs } } })
    const user = await makeUser(t.database.db, { role: 'admin' })
    adminEmail = user.email
    admin = await login(t.app, user)
  })
  after(async () => {
    await t.close()
    await tracing.stop()
    await receiver.close()
    await upstream.close()
    await smtp.close()
    await peer.close()
  })

  /** the spans of one trace, once the exporter has sent them */
  const traceOf = async (traceId: string) => {
    await tracing.flush()
    return receiver.spans.filter((s) => s.traceId === traceId)
  }
  const parentOf = (spans: OtlpSpan[], span: OtlpSpan) => spans.find((s) => s.spanId === span.parentSpanId)
  /** whether `span` lies under `root` in the trace */
  const under = (spans: OtlpSpan[], span: OtlpSpan, root: OtlpSpan): boolean => {
    for (let p = parentOf(spans, span); p; p = parentOf(spans, p)) if (p.spanId === root.spanId) return true
    return false
  }

  it('a request continues the caller\'s trace; its database statements are spans under it', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const callerSpan = '00f067aa0ba902b7'
    const res = await t.app.inject({ url: '/api/appeals?limit=1', headers: { ...admin, traceparent: `00-${traceId}-${callerSpan}-01` } })
    assert.equal(res.statusCode, 200)
    const spans = await traceOf(traceId)
    const server = spans.find((s) => s.name === 'GET /api/appeals')
    assert.ok(server, spans.map((s) => s.name).join(', '))
    assert.equal(server.parentSpanId, callerSpan)
    assert.equal(server.kind, 2, 'a server span')
    assert.equal(attribute(server, 'http.response.status_code'), 200)
    assert.equal(attribute(server, 'http.request.id'), res.headers['x-request-id'])
    const statements = spans.filter((s) => s.name.startsWith('db '))
    assert.ok(statements.length >= 1, 'the list\'s statements')
    assert.ok(statements.every((s) => under(spans, s, server)))
    assert.ok(statements.every((s) => !JSON.stringify(s.attributes).includes('Bearer')), 'no token in a span')
  })

  it('calls out are spans of the request\'s trace: the LLM provider, SMTP, AMI', async () => {
    const traced = async (method: InjectOptions['method'], url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: admin, payload })
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`)
      return res.headers['x-request-id'] as string
    }
    const requests = {
      llm: await traced('POST', '/api/llm/simple', { prompt: 'Сәлем' }),
      smtp: await traced('POST', '/api/auth/forgot-password', { email: adminEmail }),
      // ready once the service's AMI session to the peer is up (a loaded machine may take a while): that request's CoreStatus
      ami: await eventually(async () => {
        const res = await t.app.inject({ url: '/ready', headers: admin })
        return res.statusCode === 200 ? res.headers['x-request-id'] as string : undefined
      }, 30_000, 'ready, AMI answering'),
    }
    await tracing.flush()
    const serverOf = (requestId: string) => receiver.spans.find((s) => s.kind === 2 && attribute(s, 'http.request.id') === requestId)!
    for (const [what, name] of [['llm', 'llm openai'], ['smtp', 'smtp send'], ['ami', 'ami CoreStatus']] as const) {
      const server = serverOf(requests[what])
      assert.ok(server, what)
      const spans = receiver.spans.filter((s) => s.traceId === server.traceId)
      const call = spans.find((s) => s.name === name)
      assert.ok(call, `${what}: ${spans.map((s) => s.name).join(', ')}`)
      assert.equal(call.kind, 3, `${what}: a client span`)
      assert.ok(under(spans, call, server), `${what}: under its request`)
    }
    await smtp.next(adminEmail)
  })

  it('every log line of a request names it, and the trace; the answer says the id', async () => {
    const res = await t.app.inject({ url: '/api/appeals/999999', headers: { ...admin, 'x-request-id': 'trace-log-1' } })
    assert.equal(res.statusCode, 404)
    assert.equal(res.headers['x-request-id'], 'trace-log-1')
    const mine = lines.filter((l) => l.reqId === 'trace-log-1')
    assert.ok(mine.length >= 2, JSON.stringify(lines.slice(-3)))
    // Fastify's "incoming request" line is written before the request's span begins; every later line names the trace
    const traceIds = new Set(mine.filter((l) => l.msg !== 'incoming request').map((l) => l.trace_id))
    assert.equal(traceIds.size, 1, JSON.stringify(mine))
    assert.match(String([...traceIds][0]), /^[0-9a-f]{32}$/)
    assert.ok(lines.every((l) => !JSON.stringify(l).includes('sk-tracing-test-key')), 'no secret in a log line')
  })
})
