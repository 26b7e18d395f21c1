import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify'
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

/** roles a route admits: any signed-in user (`true`) or these */
export type Admits = true | readonly Role[]

declare module 'fastify' {
  /**
   * Who may call a route: its marks, read by the auth plugin on every request and listed route by
   * route in docs/access.md (`npm run docs:access`). An unmarked route is open in AUTH_MODE=interface
   * and needs a user token for writes in AUTH_MODE=strict.
   */
  interface FastifyContextConfig {
    /** open in every mode (sign-in, password reset, invitations, health, the console's files) */
    public?: boolean
    /** machine route: when SERVICE_TOKEN is set, only that token is accepted; without it, open in interface mode and an administrator's token in strict */
    machine?: boolean
    /** a machine route that a platform administrator's own token opens too (the console's tenants page) */
    platformAdmins?: boolean
    /** the interface's Bearer marker: a user token in every mode; with roles, a user of one of them (403 otherwise) */
    user?: Admits
    /** unmarked in the interface, closed in AUTH_MODE=strict for reads too: a user token, or one of these roles (403 otherwise) */
    strict?: Admits
    /** a token the route reads and judges itself, said in words (a WebSocket's query or subprotocol: browsers cannot set its headers) */
    ownToken?: string
    /**
     * the path parameter naming the organization the route works on: anyone but an administrator
     * must belong to it (403 own_organization_only), whatever the route's roles
     */
    organization?: string
  }
  interface FastifyRequest {
    principal: Principal | null
    viaServiceToken: boolean
  }
  interface FastifyInstance {
    /** the principal of a token that did not come in the Authorization header (WebSocket upgrades) */
    resolvePrincipal: (token: string) => Promise<Principal | undefined>
    /** every route with its access marks (docs/access.md) */
    markedRoutes: () => MarkedRoute[]
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

/** what a route asks of its caller in one mode, from its marks */
export type Requirement =
  | { kind: 'open' }
  /** a user token (of these roles; `platform`: a platform administrator's; `organization`: of the organization that path parameter names, unless an administrator) */
  | { kind: 'user', admits: Admits, platform?: boolean, organization?: string }
  /** SERVICE_TOKEN (or a platform administrator's token) */
  | { kind: 'service', platformAdmins: boolean }
  /** a token that the route reads and judges itself */
  | { kind: 'own_token', who: string }

export interface AccessContext { authMode: AuthMode, serviceToken: boolean }
export type RouteMarks = Pick<FastifyContextConfig, 'public' | 'machine' | 'platformAdmins' | 'user' | 'strict' | 'ownToken' | 'organization'>

const OPEN: Requirement = { kind: 'open' }
const ADMINS: readonly Role[] = ['admin']

/** the one reading of a route's marks: the plugin enforces it, docs/access.md lists it */
export function requirementOf (marks: RouteMarks, method: string, { authMode, serviceToken }: AccessContext): Requirement {
  if (marks.public) return OPEN
  if (marks.ownToken) return { kind: 'own_token', who: marks.ownToken }
  const organization = marks.organization === undefined ? {} : { organization: marks.organization }
  if (marks.user) return { kind: 'user', admits: marks.user, ...organization }
  const strict = authMode === 'strict'
  if (marks.machine) {
    if (serviceToken) return { kind: 'service', platformAdmins: marks.platformAdmins === true }
    return strict ? { kind: 'user', admits: ADMINS, platform: marks.platformAdmins === true } : OPEN
  }
  if (!strict) return OPEN
  if (marks.strict) return { kind: 'user', admits: marks.strict, ...organization }
  // the service token is a machine credential: it opens machine routes, not the users' writes
  return WRITE_METHODS.has(method) ? { kind: 'user', admits: true } : OPEN
}

function refusalOf (required: Requirement, req: FastifyRequest): Error | undefined {
  switch (required.kind) {
    case 'open':
    case 'own_token':
      return undefined
    case 'service':
      if (req.viaServiceToken || (required.platformAdmins && isPlatformAdmin(req.principal))) return undefined
      return new UnauthorizedError(required.platformAdmins ? 'This route accepts only the service token or a platform administrator\'s' : 'This route accepts only the service token')
    case 'user': {
      const principal = req.principal
      if (!principal) return new UnauthorizedError()
      if (required.platform && principal.user_type !== 'platform') return new ForbiddenError('Only the platform\'s administrators may do this (or set SERVICE_TOKEN)', 'platform_administrators_only')
      if (required.admits !== true && !required.admits.includes(principal.role)) {
        return required.admits.length === 1 && required.admits[0] === 'admin'
          ? new ForbiddenError('Only administrators may do this', 'administrators_only')
          : new ForbiddenError(`Only these roles may do this: ${required.admits.join(', ')}`, 'role_not_allowed')
      }
      if (required.organization !== undefined && !ofOrganization(principal, (req.params as Record<string, string | undefined>)[required.organization])) {
        return new ForbiddenError('Only an administrator or the staff of this organization may do this', 'own_organization_only')
      }
      return undefined
    }
  }
}

/**
 * marks every route the plugin registers after this call (a route's own marks win); `writesOnly`:
 * only its POST, PUT, PATCH and DELETE routes. An `organization` mark binds only the routes that
 * have that parameter.
 */
export function markRoutes (app: FastifyInstance, marks: RouteMarks, { writesOnly = false } = {}): void {
  const { organization, ...rest } = marks
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (writesOnly && !methods.some((m) => WRITE_METHODS.has(m))) return
    const own = organization !== undefined && route.url.includes(`:${organization}`) ? { organization } : {}
    route.config = { ...rest, ...own, ...route.config }
  })
}

/** the structure of the centre (organizations, groups, regions, references): in strict mode, every write is an administrator's */
export const STRUCTURE_WRITE: RouteMarks = { strict: ['admin'] }

export interface MarkedRoute {
  method: string
  url: string
  marks: RouteMarks
  /** a built file of the console or the API's docs, served as a route of its own (its name changes with each build) */
  staticFile: boolean
}

/**
 * Keeps every route the application registers after this call, for `app.markedRoutes()` (the table
 * of docs/access.md). The marks are read when asked: a plugin's markRoutes runs after this hook.
 */
export function recordRoutes (app: FastifyInstance): void {
  const registered: { method: string | string[], url: string, route: { config?: RouteMarks }, staticFile: boolean }[] = []
  app.addHook('onRoute', (route) => {
    const staticFile = route.schema?.hide === true && /\.[a-z0-9]+$/i.test(route.url)
    registered.push({ method: route.method, url: route.url, route, staticFile })
  })
  app.decorate('markedRoutes', (): MarkedRoute[] => registered.flatMap(({ method, url, route, staticFile }) =>
    (Array.isArray(method) ? method : [method]).filter((m) => m !== 'HEAD').map((m) => ({ method: m, url, marks: route.config ?? {}, staticFile }))))
}

/**
 * Every request: a bearer token that is sent is verified (401 when invalid, even on open routes),
 * the caller is recorded, and the route's marks (`public`, `machine`, `user`, `strict`, ...) decide.
 */
export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, options) => {
  const serviceDigest = options.serviceToken ? digest(options.serviceToken) : undefined
  const isServiceToken = (token: string) => serviceDigest !== undefined && timingSafeEqual(digest(token), serviceDigest)
  const context: AccessContext = { authMode: options.authMode, serviceToken: serviceDigest !== undefined }

  app.decorateRequest('principal', null)
  app.decorateRequest('viaServiceToken', false)

  // a route's requirement is read from its marks once per method, not on each request
  const requirements = new WeakMap<object, Map<string, Requirement>>()
  const requirementFor = (req: FastifyRequest): Requirement => {
    const config = req.routeOptions.config
    let byMethod = requirements.get(config)
    if (!byMethod) requirements.set(config, byMethod = new Map())
    let required = byMethod.get(req.method)
    if (!required) byMethod.set(req.method, required = requirementOf(config, req.method, context))
    return required
  }
  const refusal = (req: FastifyRequest) => refusalOf(requirementFor(req), req)

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

  app.decorate('resolvePrincipal', options.resolvePrincipal)
}, { name: 'auth' })

/** what the configuration leaves open to callers without a token: said at start and on /ready */
export function openAccessWarnings ({ authMode, serviceToken }: { authMode: AuthMode, serviceToken?: string }): string[] {
  return [
    ...(authMode === 'interface' ? ['AUTH_MODE=interface: the routes the interface leaves unmarked are open without a token (every unmarked write, the PBX\'s previews, generation and reloads, the persons search, the online operators); leave AUTH_MODE unset (strict) unless a client of the old service needs them open'] : []),
    ...(serviceToken === undefined && authMode === 'interface' ? ['SERVICE_TOKEN is not set: machine routes (call events, platform control) accept any caller'] : []),
  ]
}

/**
 * whether the principal may work on the organization a path names: an administrator on any; anyone
 * else on their own, named as the service names it (`2`: not `2.0`, `+2` or `0x2`, which the
 * validation would coerce to the same id after this check)
 */
function ofOrganization (principal: Principal, value: string | undefined): boolean {
  if (principal.role === 'admin' || value === undefined) return true
  return principal.organization_id !== null && value === String(principal.organization_id)
}

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
