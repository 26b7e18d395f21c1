import type { Transactional } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Principal } from '../../lib/auth.js'
import { groupBy } from '../../lib/collections.js'
import { ConflictError, NotFoundError, RequestValidationError, type FieldError, invalid, problem } from '../../lib/errors.js'
import { manageableTenant } from '../../lib/tenant.js'
import { sipCredentials } from '../../lib/sip-digest.js'
import { patternProblem, patternRegExp } from './dial-patterns.js'
import type { RouteRow, TrunkRepo, TrunkRow, TrunkTxRepo, TrunkWrite } from './repo.js'
import type { OutboundRouteCreate, OutboundRouteResponse, OutboundRouteUpdate, TrunkCreate, TrunkResponse, TrunkUpdate } from './schemas.js'

/** what Asterisk calls the trunk: its endpoint, auth, aor, registration and identify in pjsip.conf */
export const trunkName = (id: number) => `trunk${id}`

const iso = (d: Date) => d.toISOString()

/**
 * A registration trunk's credentials: the password is never kept, only the digests of
 * username:realm:password (as for terminals), so a new username or realm needs the password again.
 */
function credentials (merged: { mode: string, host: string, username?: string | null, realm?: string | null }, password: string | undefined, current?: TrunkRow): Pick<TrunkWrite, 'md5_cred' | 'password_digest' | 'realm'> {
  if (merged.mode !== 'registration') return password === undefined ? {} : invalidPassword('An IP trunk has no password: the provider knows it by its address')
  const username = merged.username
  if (!username) throw RequestValidationError.field(['body', 'username'], 'Field required: a registration trunk names its account at the provider', null, 'missing')
  const realm = merged.realm ?? merged.host
  if (password !== undefined) return { realm, ...sipCredentials(username, realm, password) }
  const unchanged = current?.md5_cred && current.username === username && current.realm === realm
  if (unchanged) return { realm }
  return invalidPassword(current?.md5_cred
    ? 'The password is needed again: only the digests of username:realm:password are kept, and the username or realm changed'
    : 'Field required: a registration trunk needs the account\'s password')
}
const invalidPassword = (msg: string): never => { throw RequestValidationError.field(['body', 'password'], msg, null, msg.startsWith('Field required') ? 'missing' : 'value_error') }

/** The providers' trunks the deployment shares, and each organization's outbound routes over them (issue 49). */
export function createTrunkService ({ repo, transaction, control }: { repo: TrunkRepo, transaction: Transactional<TrunkTxRepo>, control?: Pick<PbxControl, 'trunkStates'> }) {
  async function trunkViews (rows: TrunkRow[]): Promise<TrunkResponse[]> {
    const users = groupBy(await repo.usersOf(rows.map((t) => t.id)), (u) => u.trunk_id)
    return rows.map((t) => ({
      id: t.id, asterisk_name: trunkName(t.id), name: t.name, mode: t.mode, host: t.host, port: t.port, transport: t.transport,
      username: t.username, realm: t.realm, has_password: t.md5_cred !== null, match: t.match, codecs: t.codecs, context: t.context,
      number_format: t.number_format, caller_id: t.caller_id,
      used_by: (users.get(t.id) ?? []).map(({ trunk_id: _t, ...u }) => ({ ...u, organization_name: u.organization_name ?? '' })),
      created_at: iso(t.created_at), updated_at: iso(t.updated_at),
    }))
  }
  async function trunk (id: number): Promise<TrunkRow> {
    const row = await repo.trunk(id)
    if (!row) throw new NotFoundError('Trunk')
    return row
  }
  const view = async (id: number) => (await trunkViews([await trunk(id)]))[0]!
  /** an organization's internal context names an organization that exists */
  async function checkContext (context: string | undefined): Promise<void> {
    const prefix = /^org([0-9]+)-internal$/.exec(context ?? '')?.[1]
    if (prefix !== undefined && await repo.organizationIdByPrefix(prefix) === undefined) {
      throw RequestValidationError.field(['body', 'context'], `No organization has the prefix ${prefix}`, context)
    }
  }

  const tenant = (actor: Principal, tenantId: number) => manageableTenant(actor, tenantId, repo.organization, 'its outbound routes')

  async function routeViews (rows: RouteRow[]): Promise<OutboundRouteResponse[]> {
    const trunksOf = groupBy(await repo.trunksOfRoutes(rows.map((r) => r.id)), (t) => t.route_id)
    return rows.map((r) => {
      const through = (trunksOf.get(r.id) ?? []).map(({ id, name }) => ({ id, name }))
      return {
        id: r.id, tenant_id: r.organization_id, name: r.name, patterns: r.patterns, long_distance: r.long_distance,
        trunk_ids: through.map((t) => t.id), trunks: through, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
      }
    })
  }
  async function route (tenantId: number, id: number): Promise<RouteRow> {
    const row = await repo.route(tenantId, id)
    if (!row) throw new NotFoundError('Outbound route')
    return row
  }

  /**
   * 422 on the pattern that Asterisk would take differently than meant: a malformed set, one that
   * takes the organization's 3-digit extensions or its queue's 0 (those win, so the route never
   * would), or one another of its routes already has (Asterisk keeps one of them).
   */
  async function checkRoute (organization: { id: number, prefix: string }, patterns: string[] | undefined, trunkIds: number[] | undefined, self?: number): Promise<void> {
    const problems: FieldError[] = []
    if (patterns) {
      const extensions = ['0', ...(await repo.terminalIds(organization.id)).map((t) => t.id.slice(organization.prefix.length))]
      const others = new Map((await repo.routes(organization.id)).filter((r) => r.id !== self).flatMap((r) => r.patterns.map((p) => [p, r.name] as const)))
      patterns.forEach((p, i) => {
        const at = ['body', 'patterns', i]
        const malformed = patternProblem(p)
        if (malformed) return problems.push(problem(at, malformed, p))
        const shadowed = extensions.find((e) => patternRegExp(p).test(e))
        if (shadowed !== undefined) return problems.push(problem(at, `Takes ${shadowed === '0' ? 'the organization\'s queue (0)' : `the extension ${shadowed} of a terminal`}: internal dialling wins, so the route would never be used`, p))
        const other = others.get(p)
        if (other !== undefined) problems.push(problem(at, `The route «${other}» already has this pattern`, p))
      })
    }
    if (trunkIds) {
      const known = new Set((await repo.trunkNames(trunkIds)).map((t) => t.id))
      trunkIds.forEach((id, i) => { if (!known.has(id)) problems.push(problem(['body', 'trunk_ids', i], `Trunk ${id} does not exist`, id)) })
    }
    invalid(problems)
  }

  return {
    trunks: {
      list: async () => trunkViews(await repo.trunks()),
      get: view,
      async create (input: TrunkCreate) {
        const { password, ...settings } = input
        await checkContext(settings.context)
        const id = await repo.insertTrunk({ ...settings, ...(settings.mode === 'registration' ? {} : { username: null, realm: null }), ...credentials(settings, password) })
        return view(id)
      },
      async update (id: number, input: TrunkUpdate) {
        const current = await trunk(id)
        const { password, ...settings } = input
        await checkContext(settings.context)
        const merged = { ...current, ...settings }
        const secrets = merged.mode === 'registration' ? credentials(merged, password, current) : { ...credentials(merged, password), username: null, realm: null, md5_cred: null, password_digest: null }
        await repo.updateTrunk(id, { ...settings, ...secrets })
        return view(id)
      },
      async remove (id: number) {
        const [current] = await trunkViews([await trunk(id)])
        if (current!.used_by.length > 0) {
          const routes = current!.used_by.map((u) => `«${u.route_name}» of ${u.organization_name}`).join(', ')
          throw new ConflictError(`Still used by outbound routes: ${routes}; take the trunk out of them first`, 'still_referenced')
        }
        await repo.removeTrunk(id)
      },
      /** each trunk with its registration in Asterisk (PJSIPShowRegistrationsOutbound) */
      async status () {
        const rows = await repo.trunks()
        const row = (t: TrunkRow, state?: Awaited<ReturnType<PbxControl['trunkStates']>>) => {
          const registration = state?.registrations.find((r) => r.id === trunkName(t.id))
          return {
            id: t.id, name: t.name, asterisk_name: trunkName(t.id), mode: t.mode,
            registration: t.mode === 'registration' && state ? registration?.status ?? 'Not in Asterisk' : null,
            server_uri: registration?.server_uri ?? null, next_registration_seconds: registration?.next_registration_seconds ?? null,
            in_asterisk: state ? state.endpoints.includes(trunkName(t.id)) : null,
          }
        }
        if (!control) return { ami_connected: false, message: 'Asterisk Manager Interface is not configured', trunks: rows.map((t) => row(t)) }
        try {
          const state = await control.trunkStates()
          return { ami_connected: true, message: 'ok', trunks: rows.map((t) => row(t, state)) }
        } catch (err) {
          return { ami_connected: false, message: `Asterisk is not answering: ${(err as Error).message}`, trunks: rows.map((t) => row(t)) }
        }
      },
    },

    routes: {
      async list (actor: Principal, tenantId: number) {
        await tenant(actor, tenantId)
        return routeViews(await repo.routes(tenantId))
      },
      async create (actor: Principal, tenantId: number, input: OutboundRouteCreate) {
        const organization = await tenant(actor, tenantId)
        await checkRoute(organization, input.patterns, input.trunk_ids)
        const id = await transaction(async (tx) => {
          const id = await tx.insertRoute({ organization_id: tenantId, name: input.name, patterns: input.patterns, long_distance: input.long_distance ?? false })
          await tx.setRouteTrunks(id, input.trunk_ids)
          return id
        })
        return (await routeViews([await route(tenantId, id)]))[0]!
      },
      async update (actor: Principal, tenantId: number, id: number, input: OutboundRouteUpdate) {
        const organization = await tenant(actor, tenantId)
        await route(tenantId, id)
        await checkRoute(organization, input.patterns, input.trunk_ids, id)
        const { trunk_ids: trunkIds, ...settings } = input
        await transaction(async (tx) => {
          await tx.updateRoute(id, settings)
          if (trunkIds) await tx.setRouteTrunks(id, trunkIds)
        })
        return (await routeViews([await route(tenantId, id)]))[0]!
      },
      async remove (actor: Principal, tenantId: number, id: number) {
        await tenant(actor, tenantId)
        await route(tenantId, id)
        await repo.removeRoute(id)
      },
    },
  }
}

export type TrunkService = ReturnType<typeof createTrunkService>
