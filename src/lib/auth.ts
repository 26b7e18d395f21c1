import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { AuthMode } from '../config.js'
import type { Role, UserType } from '../db/schema/users.js'
import { ForbiddenError, UnauthorizedError } from './errors.js'

/** The user behind a valid access token. */
export interface Principal {
  id: number
  email: string
  role: Role
  user_type: UserType
  organization_id: number | null
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** stays open in AUTH_MODE=strict (login, password reset, invitations) */
    public?: boolean
    /** machine route: when SERVICE_TOKEN is set, only that token is accepted */
    machine?: boolean
    /** a machine route that a platform administrator's own token opens too (the console's tenants page) */
    platformAdmins?: boolean
    /** in AUTH_MODE=strict a user token is required for reads too (PBX routes) */
    strictReads?: boolean
  }
  interface FastifyRequest {
    principal: Principal | null
    viaServiceToken: boolean
  }
  interface FastifyInstance {
    /** the route requires a valid user token (the interface's Bearer marker) */
    requireUser: onRequestHookHandler
    /** the route requires a valid user token of one of these roles */
    requireRole: (...roles: Role[]) => onRequestHookHandler
    /** the principal of a token that did not come in the Authorization header (WebSocket upgrades) */
    resolvePrincipal: (token: string) => Promise<Principal | undefined>
  }
}

export interface AuthOptions {
  authMode: AuthMode
  serviceToken?: string
  /** the principal of a valid, unrevoked access token; undefined otherwise */
  resolvePrincipal: (token: string) => Promise<Principal | undefined>
  /** the same answer when it is known without waiting (null: invalid); undefined sends the request to `resolvePrincipal` */
  knownPrincipal?: (token: string) => Principal | null | undefined
}

const digest = (s: string) => createHash('sha256').update(s).digest()
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export function bearerToken (req: FastifyRequest): string | undefined {
  const header = req.headers.authorization
  if (header === undefined) return undefined
  const m = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim())
  if (!m) throw new UnauthorizedError('Invalid authorization header')
  return m[1]
}

/**
 * Every request: a bearer token that is sent is verified (401 when invalid, even on open routes),
 * and the caller is recorded. Routes then declare what they need with `app.requireUser` /
 * `app.requireRole(...)` or route config (`machine`, `public`, `strictReads`).
 */
export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, options) => {
  const serviceDigest = options.serviceToken ? digest(options.serviceToken) : undefined
  const isServiceToken = (token: string) => serviceDigest !== undefined && timingSafeEqual(digest(token), serviceDigest)

  app.decorateRequest('principal', null)
  app.decorateRequest('viaServiceToken', false)

  /** what the route asks of a caller whose token (if any) is known: an error, or nothing */
  function refusal (req: FastifyRequest): UnauthorizedError | undefined {
    if (serviceDigest === undefined && options.authMode !== 'strict') return undefined // nothing a route could ask
    const config = req.routeOptions.config
    if (config.machine && serviceDigest !== undefined && !req.viaServiceToken && !(config.platformAdmins && isPlatformAdmin(req.principal))) {
      return new UnauthorizedError(config.platformAdmins ? 'This route accepts only the service token or a platform administrator\'s' : 'This route accepts only the service token')
    }
    // the service token is a machine credential: it opens machine routes, not the users' writes
    if (options.authMode === 'strict' && !config.public && !config.machine && !req.principal &&
        (WRITE_METHODS.has(req.method) || config.strictReads)) {
      return new UnauthorizedError('Not authenticated (AUTH_MODE=strict)')
    }
    return undefined
  }

  const admit = (req: FastifyRequest, principal: Principal | null | undefined, done: (err?: Error) => void) => {
    req.principal = principal ?? null
    done(principal ? refusal(req) : new UnauthorizedError('Invalid or expired token'))
  }

  // Callback hooks: a request without a token, with the service token, or with a user token checked
  // before whose user is kept in memory costs no promise; only the rest wait for their principal.
  app.addHook('onRequest', (req, _reply, done) => {
    let token: string | undefined
    try { token = bearerToken(req) } catch (err) { done(err as Error); return }
    if (token === undefined || isServiceToken(token)) {
      req.viaServiceToken = token !== undefined
      done(refusal(req))
      return
    }
    const known = options.knownPrincipal?.(token)
    if (known !== undefined) { admit(req, known, done); return }
    options.resolvePrincipal(token).then((principal) => { admit(req, principal, done) }, done)
  })

  const requireUser: onRequestHookHandler = (req, _reply, done) => {
    done(req.principal ? undefined : new UnauthorizedError())
  }
  app.decorate('requireUser', requireUser)
  app.decorate('resolvePrincipal', options.resolvePrincipal)
  app.decorate('requireRole', (...allowed: Role[]): onRequestHookHandler => (req, _reply, done) => {
    if (!req.principal) done(new UnauthorizedError())
    else done(allowed.includes(req.principal.role) ? undefined : new ForbiddenError())
  })
}, { name: 'auth' })

const isPlatformAdmin = (principal: Principal | null) => principal?.user_type === 'platform' && principal.role === 'admin'

/** One cookie of the request (no cookie plugin needed for the single cookie the service reads). */
export function cookieValue (req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try { return decodeURIComponent(part.slice(eq + 1).trim()) } catch { return undefined }
    }
  }
  return undefined
}
