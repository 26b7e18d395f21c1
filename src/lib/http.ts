import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import { AppError } from './errors.js'

export interface RegisteredRoute { method: string, url: string, hidden: boolean }

declare module 'fastify' {
  interface FastifyInstance {
    /** every route of the application, as registered (the OpenAPI test compares the document with it) */
    registeredRoutes: RegisteredRoute[]
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
 */
export function registerNotFound (app: FastifyInstance): void {
  const known = FindMyWay({ ignoreTrailingSlash: false })
  const methods = new Set<HTTPMethod>()
  const registered: RegisteredRoute[] = []
  app.decorate('registeredRoutes', registered)
  app.addHook('onRoute', (route) => {
    // OpenAPI cannot describe a WebSocket: @fastify/swagger leaves those routes out, the README has them
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true || (route as { websocket?: boolean }).websocket === true
    for (const method of ([] as string[]).concat(route.method)) {
      methods.add(method as HTTPMethod)
      registered.push({ method, url: route.url, hidden })
      try { known.on(method as HTTPMethod, route.url, () => {}) } catch { /* same path registered twice */ }
    }
  })
  // `/api/shared/groups/` must not reach `/:group_id` with an empty id: a trailing slash is another path
  app.addHook('onRequest', async (req) => {
    const params = req.params as Record<string, string> | undefined
    if (params && Object.values(params).some((v) => v === '')) throw new AppError(404, 'not_found', 'Not Found')
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
