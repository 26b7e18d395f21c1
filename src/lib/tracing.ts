import { AsyncLocalStorage } from 'node:async_hooks'
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api'
import type { FastifyInstance } from 'fastify'

// Traces (docs/operations.md, "Traces"): a request, its database statements and its calls out as one trace,
// sent over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (integrations/tracing starts that). Off,
// nothing here does any work: `traced` runs its work as it is, and no hook is added.

const tracer = trace.getTracer('appeals')
let enabled = false

/** turned on once, by the OTLP exporter's start */
export function enableTracing (): void { enabled = true }
export const tracingEnabled = (): boolean => enabled

function failed (span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err))
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) })
}

/** the work as a span of the trace in progress (a statement, a call out); a failure marks it */
export async function traced<T> (name: string, attributes: Attributes, work: () => Promise<T>, kind: SpanKind = SpanKind.CLIENT): Promise<T> {
  if (!enabled) return work()
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work()
    } catch (err) {
      failed(span, err)
      throw err
    } finally {
      span.end()
    }
  })
}

/** the trace's context as W3C `traceparent` headers, for a call out to a service that continues it */
export function traceHeaders (): Record<string, string> {
  const headers: Record<string, string> = {}
  if (enabled) propagation.inject(context.active(), headers)
  return headers
}

/** the request being answered, wherever its work goes (a log line written by a service's code) */
const requestIds = new AsyncLocalStorage<string>()
export const currentRequestId = (): string | undefined => requestIds.getStore()

declare module 'fastify' {
  interface FastifyRequest { traceSpan?: Span }
}

/**
 * Each request runs with its id at hand (log lines of the code it calls name it) and, when tracing
 * is on, as a server span that continues the caller's `traceparent`; the span ends with the answer.
 */
export function traceRequests (app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (!enabled) { requestIds.run(req.id, done); return }
    const parent = propagation.extract(context.active(), req.headers)
    const route = req.routeOptions.url
    const span = tracer.startSpan(`${req.method} ${route ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'http.route': route ?? 'unmatched', 'url.path': req.url.split('?')[0], 'http.request.id': req.id },
    }, parent)
    req.traceSpan = span
    requestIds.run(req.id, () => context.with(trace.setSpan(parent, span), done))
  })
  if (!enabled) return
  app.addHook('onResponse', (req, reply, done) => {
    const span = req.traceSpan
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode)
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
    }
    done()
  })
}

/** the fields every log line gets: the request it belongs to (unless its logger names it already) and the trace */
export function logContext (bound: () => Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  const id = requestIds.getStore()
  if (id !== undefined && bound().reqId === undefined) fields.reqId = id
  if (enabled) {
    const span = trace.getActiveSpan()?.spanContext()
    if (span) { fields.trace_id = span.traceId; fields.span_id = span.spanId }
  }
  return fields
}
