import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import { AppError, RequestValidationError } from './errors.js'
import { deeperThan, MAX_JSON_DEPTH } from './json-depth.js'

export interface RegisteredRoute { method: string, url: string, hidden: boolean }

declare module 'fastify' {
  interface FastifyInstance {
    /** every route of the application, as registered (the OpenAPI test compares the document with it) */
    registeredRoutes: RegisteredRoute[]
  }
  interface FastifyRequest {
    /** a JSON body's text as it came (see sentBody) */
    sentJson: string | undefined
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Keeps a caller's `x-request-id` when it is harmless in a log line; otherwise makes a new one. */
export function requestId (req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID()
}

/**
 * 404 `{"detail":"Not Found"}` for unknown paths and 405 with `Allow` for a known path
 * with another method, as FastAPI (Starlette) answers. Fastify itself only knows 404.
 * Also the first hook of every request: its `x-request-id` header, and 404 for an empty path parameter.
 */
export function registerNotFound (app: FastifyInstance): void {
  const known = FindMyWay({ ignoreTrailingSlash: false })
  const methods = new Set<HTTPMethod>()
  const registered: RegisteredRoute[] = []
  app.decorate('registeredRoutes', registered)
  app.addHook('onRoute', (route) => {
    // OpenAPI cannot describe a WebSocket: @fastify/swagger leaves those routes out, docs/telephony.md has them
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true || (route as { websocket?: boolean }).websocket === true
    for (const method of ([] as string[]).concat(route.method)) {
      methods.add(method as HTTPMethod)
      registered.push({ method, url: route.url, hidden })
      try { known.on(method as HTTPMethod, route.url, () => {}) } catch { /* same path registered twice */ }
    }
  })
  app.addHook('onRequest', (req, reply, done) => {
    // every answer has its request's id, errors and 404s too, and no hook runs on the way out for it
    reply.header('x-request-id', req.id)
    // `/api/shared/groups/` must not reach `/:group_id` with an empty id: a trailing slash is another
    // path. Before authentication, as FastAPI finds no route there. One callback hook, no promise.
    const params = req.params as Record<string, string> | undefined
    done(params && Object.values(params).some((v) => v === '') ? new AppError(404, 'not_found', 'Not Found') : undefined)
  })
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? req.url
    const allowed = [...methods].filter((m) => {
      const match = known.find(m, path)
      return match !== null && !Object.values(match.params).some((v) => v === '')
    })
    if (allowed.length > 0) {
      return reply.code(405).header('allow', allowed.join(', ')).send({ detail: 'Method Not Allowed' })
    }
    return reply.code(404).send({ detail: 'Not Found' })
  })
}

/**
 * FastAPI ignores the body of an operation that takes none, and many HTTP clients send
 * `Content-Type: application/json` on every POST: an empty JSON body is no body, not an error.
 * An operation that needs a body still answers 422 "Field required".
 */
export function acceptEmptyJsonBodies (app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.decorateRequest('sentJson', undefined)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString()
    if (text.trim() === '') { done(null, undefined); return }
    const tooDeep = deeperThan(text)
    if (tooDeep >= 0) { done(tooDeeplyNested(tooDeep), undefined); return }
    req.sentJson = text
    parseJson(req, text, done)
  })
}

/** FastAPI's answer to JSON it cannot decode, saying why */
function tooDeeplyNested (position: number): RequestValidationError {
  return new RequestValidationError([{
    type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` },
  }])
}

/**
 * The body as the client sent it. Validation fills in defaults and trims strings in the parsed body
 * itself; a 422 echoes the input as sent, as FastAPI does. Parsed again only then.
 */
export function sentBody (req: FastifyRequest): unknown {
  return req.sentJson === undefined ? undefined : JSON.parse(req.sentJson)
}

/**
 * Reads and drops the rest of a request's body, up to `maxBytes` or `maxMs`. An answer sent while
 * the client is still sending (a 413 found on the Content-Length) and the connection closed after
 * it reach Node's fetch and browsers as a reset (EPIPE), never as the answer: they read it only once
 * their upload is through.
 */
export function discardRequestBody (req: IncomingMessage, limits: { maxBytes: number, maxMs: number }): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    let received = 0
    const finish = () => {
      clearTimeout(timer)
      req.off('data', onData).off('end', finish).off('close', finish).off('error', finish)
      resolve()
    }
    const onData = (chunk: Buffer) => { received += chunk.length; if (received > limits.maxBytes) finish() }
    const timer = setTimeout(finish, limits.maxMs)
    req.on('data', onData).once('end', finish).once('close', finish).once('error', finish)
    req.resume()
  })
}

const SECRET_QUERY_KEY = /token|secret|password|key/i

/**
 * A request URL as it may be logged: the values of secret-looking query parameters (the WebSocket's
 * `?token=`) and the invitation token in `/invite/{token}` are replaced.
 */
export function loggableUrl (url: string): string {
  const q = url.indexOf('?')
  const path = (q < 0 ? url : url.slice(0, q)).replace(/\/invite\/[^/]+/, '/invite/[redacted]')
  if (q < 0) return path
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=')
    let key = eq < 0 ? pair : pair.slice(0, eq)
    try { key = decodeURIComponent(key) } catch { /* logged as sent */ }
    return eq >= 0 && SECRET_QUERY_KEY.test(key) ? `${pair.slice(0, eq)}=[redacted]` : pair
  })
  return `${path}?${query.join('&')}`
}

type RouteHookName = 'onRequest' | 'preSerialization' | 'onSend'

/** one more hook of a route being declared (an onRoute hook's work), after the ones it has */
export function appendRouteHook (route: RouteOptions, name: RouteHookName, hook: unknown): void {
  (route as Record<RouteHookName, unknown>)[name] = [...([] as unknown[]).concat(route[name] ?? []), hook]
}
