import { PGlite } from '@electric-sql/pglite'
import { context, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import pg from 'pg'
import { enableTracing, traced } from '../../lib/tracing.js'

// OpenTelemetry over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT is set: the SDK, the
// context carried through async work, W3C trace context in and out, and the database's
// statements as spans (both drivers, patched once, before the database opens).

export interface Tracing {
  /** sends what is waiting (a test, a stop) */
  flush: () => Promise<void>
  stop: () => Promise<void>
}

/** a statement's text as a span names it: never its parameters, and not all of a long one */
const statementOf = (query: unknown): string => {
  const text = typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text ?? '')
  return text.length > 500 ? `${text.slice(0, 500)}...` : text
}
const statementSpan = (system: string, query: unknown) => ({ name: `db ${statementOf(query).split(/\s+/, 1)[0]?.toLowerCase() ?? 'query'}`, attributes: { 'db.system.name': system, 'db.query.text': statementOf(query) } })

function traceStatements (): void {
  // node-postgres: the promise forms (the query builder's); the callback form is the pool's own path into a client
  const poolQuery = pg.Pool.prototype.query
  const clientQuery = pg.Client.prototype.query
  const wrap = (original: (...args: any[]) => any) => function (this: unknown, ...args: any[]) {
    if (typeof args.at(-1) === 'function' || typeof args[0]?.submit === 'function') return original.apply(this, args)
    const span = statementSpan('postgresql', args[0])
    return traced(span.name, span.attributes, () => original.apply(this, args))
  }
  pg.Pool.prototype.query = wrap(poolQuery) as typeof poolQuery
  pg.Client.prototype.query = wrap(clientQuery) as typeof clientQuery
  // PGlite: its queries, and those of its transactions' handles
  const proto = PGlite.prototype as unknown as Record<string, (...args: any[]) => any>
  for (const method of ['query', 'exec']) {
    const original = proto[method]!
    proto[method] = function (this: unknown, ...args: any[]) {
      const span = statementSpan('postgresql', args[0])
      return traced(span.name, span.attributes, () => original.apply(this, args))
    }
  }
  const transaction = proto.transaction!
  proto.transaction = function (this: unknown, work: (tx: object) => unknown) {
    return transaction.call(this, (tx: Record<string, (...args: any[]) => any>) => work(new Proxy(tx, {
      get (target, key, receiver) {
        const value = Reflect.get(target, key, receiver)
        if ((key !== 'query' && key !== 'exec') || typeof value !== 'function') return value
        return (...args: any[]) => { const span = statementSpan('postgresql', args[0]); return traced(span.name, span.attributes, () => value.apply(target, args)) }
      },
    })))
  }
}

export function startTracing ({ endpoint, serviceName, version }: { endpoint: string, serviceName: string, version: string }): Tracing {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` })
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  })
  trace.setGlobalTracerProvider(provider)
  traceStatements()
  enableTracing()
  return { flush: () => provider.forceFlush(), stop: () => provider.shutdown() }
}
