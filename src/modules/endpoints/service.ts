import type { Transactional } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Principal } from '../../lib/auth.js'
import { manageableTenant } from '../../lib/tenant.js'
import { sipCredentials } from '../../lib/sip-digest.js'
import { ECHO_TEST, internalContext } from '../../integrations/asterisk/names.js'
import { ConflictError, NotFoundError, RequestValidationError, type FieldError } from '../../lib/errors.js'
import type { EndpointRepo, EndpointTxRepo, TerminalRow } from './repo.js'
import type { EndpointCreate, EndpointResponse, EndpointUpdate } from './schemas.js'

const yes = (b: boolean) => (b ? 'yes' : 'no') as 'yes' | 'no'
const bool = (v: string | null) => v === 'yes'
const forwardings = ['unconditional', 'unavailable', 'noanswer', 'busy'] as const

/** the call-centre defaults of DESIGN 5.6 */
const endpointDefaults = (prefix: string) => ({
  transport: 'transport-udp', context: internalContext(prefix), disallow: 'all', allow: 'alaw,ulaw',
  direct_media: false, rtp_symmetric: true, force_rport: true, rewrite_contact: true, language: 'ru',
})

export function toEndpointResponse ({ endpoint: e, terminal: t }: TerminalRow): EndpointResponse {
  return {
    id: e.id, name: t.name, tenant_id: t.organization_id, extension: t.extension, context: e.context ?? '', transport: e.transport ?? '',
    disallow: e.disallow ?? '', allow: e.allow ?? '', direct_media: bool(e.direct_media), rtp_symmetric: bool(e.rtp_symmetric),
    force_rport: bool(e.force_rport), rewrite_contact: bool(e.rewrite_contact), language: e.language ?? '', outgoing_cli: t.outgoing_cli,
    allow_long_distance: t.allow_long_distance,
    cf_unconditional_enabled: t.cf_unconditional_enabled, cf_unconditional_dest: t.cf_unconditional_dest,
    cf_unavailable_enabled: t.cf_unavailable_enabled, cf_unavailable_dest: t.cf_unavailable_dest,
    cf_noanswer_enabled: t.cf_noanswer_enabled, cf_noanswer_dest: t.cf_noanswer_dest, cf_noanswer_timeout: t.cf_noanswer_timeout,
    cf_busy_enabled: t.cf_busy_enabled, cf_busy_dest: t.cf_busy_dest,
    aors: e.aors ?? e.id, auth: e.auth ?? e.id, type: 'endpoint', mailboxes: e.mailboxes, employee_id: t.employee_id, phone: t.phone,
  }
}

/** a forwarding that is switched on needs somewhere to forward to */
function checkForwarding (merged: Record<string, unknown>): void {
  const problems: FieldError[] = forwardings
    .filter((f) => merged[`cf_${f}_enabled`] === true && !merged[`cf_${f}_dest`])
    .map((f) => ({ type: 'value_error', loc: ['body', `cf_${f}_dest`], msg: `A destination is required when cf_${f}_enabled is true`, input: merged[`cf_${f}_dest`] ?? null }))
  if (problems.length > 0) throw new RequestValidationError(problems)
}

/** the API's fields split into the Asterisk row and the service's row */
function split (input: Partial<EndpointCreate>) {
  const endpoint: Record<string, unknown> = {}
  const terminal: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || k === 'password' || k === 'extension') continue
    if (['transport', 'disallow', 'allow', 'language', 'mailboxes'].includes(k)) endpoint[k] = v
    else if (['direct_media', 'rtp_symmetric', 'force_rport', 'rewrite_contact'].includes(k)) endpoint[k] = yes(v as boolean)
    else terminal[k] = v
  }
  if (input.outgoing_cli !== undefined) endpoint.callerid = input.outgoing_cli === null ? null : `<${input.outgoing_cli}>`
  return { endpoint, terminal }
}

export function createEndpointService ({ repo, transaction, sipRealm, sipServer, websocketUrl, control }: { repo: EndpointRepo, transaction: Transactional<EndpointTxRepo>, sipRealm: string, sipServer?: string, websocketUrl?: string, control?: Pick<PbxControl, 'endpointStates'> }) {
  const [serverHost, serverPort] = sipServer?.split(':') ?? []
  const tenant = (actor: Principal, tenantId: number) => manageableTenant(actor, tenantId, repo.organization, 'its SIP terminals')
  async function checkEmployee (tenantId: number, employeeId: number | null | undefined): Promise<void> {
    if (employeeId === null || employeeId === undefined) return
    if (await repo.employeeOrganization(employeeId) !== tenantId) {
      throw RequestValidationError.field(['body', 'employee_id'], `Employee ${employeeId} is not an employee of organization ${tenantId}`, employeeId)
    }
  }
  async function terminal (tenantId: number, id: string): Promise<TerminalRow> {
    const row = await repo.find(tenantId, id)
    if (!row) throw new NotFoundError('SIP terminal')
    return row
  }

  return {
    async list (actor: Principal, tenantId: number, skip: number, limit: number) {
      await tenant(actor, tenantId)
      return (await repo.list(tenantId, skip, limit)).map(toEndpointResponse)
    },
    async get (actor: Principal, tenantId: number, id: string) {
      await tenant(actor, tenantId)
      return toEndpointResponse(await terminal(tenantId, id))
    },
    async create (actor: Principal, tenantId: number, input: EndpointCreate) {
      await tenant(actor, tenantId)
      await checkEmployee(tenantId, input.employee_id)
      // the organization's row is locked: parallel creations count one after another, and its prefix cannot change meanwhile
      const id = await transaction(async (tx) => {
        const organization = await tx.lockOrganization(tenantId)
        if (!organization) throw new NotFoundError('Organization')
        if (await tx.countFor(tenantId) >= organization.max_operators) {
          throw new ConflictError(`The organization may have ${organization.max_operators} SIP terminals (max_operators)`, 'quota_exceeded')
        }
        const id = `${organization.prefix}${input.extension}`
        // said of the field the user typed (the console puts it there), not of the terminal's id
        if (await tx.find(tenantId, id)) throw new ConflictError(`extension '${input.extension}' already exists`, 'taken')
        const values = { ...endpointDefaults(organization.prefix), ...input }
        checkForwarding(values)
        const { endpoint, terminal: own } = split(values)
        await tx.insert({ // an extension in use is a primary-key clash: 409
          endpoint: { ...endpoint, id, aors: id, auth: id, context: internalContext(organization.prefix) },
          auth: { id, auth_type: 'digest', username: id, realm: sipRealm, ...sipCredentials(id, sipRealm, input.password) },
          terminal: { ...own, id, organization_id: tenantId, extension: input.extension, name: input.name } as never,
        })
        if (own.phone === 'browser' && own.employee_id != null) await tx.renewBrowserKey(id)
        return id
      })
      return toEndpointResponse(await terminal(tenantId, id))
    },
    async update (actor: Principal, tenantId: number, id: string, input: EndpointUpdate) {
      await tenant(actor, tenantId)
      const current = toEndpointResponse(await terminal(tenantId, id))
      checkForwarding({ ...current, ...input })
      await checkEmployee(tenantId, input.employee_id)
      const { endpoint, terminal: own } = split(input)
      // a browser phone's key changes with its hands: the one given out before is void
      const changesHands = (input.phone !== undefined && input.phone !== current.phone) || (input.employee_id !== undefined && input.employee_id !== current.employee_id)
      await transaction(async (tx) => {
        await tx.update(id, endpoint, own)
        if (changesHands) await tx.renewBrowserKey(id)
      })
      return toEndpointResponse(await terminal(tenantId, id))
    },
    async phoneSettings (actor: Principal, tenantId: number) {
      await tenant(actor, tenantId)
      return { server: serverHost ?? null, port: serverPort ? Number(serverPort) : 5060, realm: sipRealm, echo_test: ECHO_TEST, websocket_url: websocketUrl ?? null }
    },
    async setPassword (actor: Principal, tenantId: number, id: string, password: string) {
      await tenant(actor, tenantId)
      await terminal(tenantId, id)
      await repo.setCredentials(id, sipCredentials(id, sipRealm, password))
      return { message: 'SIP password changed', id }
    },
    /** each terminal of the tenant with its registration in Asterisk (PJSIPShowEndpoints / PJSIPShowContacts) */
    async status (actor: Principal, tenantId: number) {
      const organization = await tenant(actor, tenantId)
      const terminals = await repo.list(tenantId, 0, Math.max(organization.max_operators, 1))
      const row = (t: TerminalRow, state?: Awaited<ReturnType<PbxControl['endpointStates']>>[number]) => {
        const contact = state?.contacts[0]
        return {
          id: t.terminal.id, name: t.terminal.name, extension: t.terminal.extension,
          registered: state ? state.contacts.length > 0 : null,
          device_state: state?.device_state ?? null, contact_uri: contact?.uri ?? null,
          user_agent: contact?.user_agent ?? null, roundtrip_ms: contact?.roundtrip_ms ?? null,
        }
      }
      if (!control) return { ami_connected: false, message: 'Asterisk Manager Interface is not configured', endpoints: terminals.map((t) => row(t)) }
      try {
        const states = new Map((await control.endpointStates()).map((s) => [s.id, s]))
        return { ami_connected: true, message: 'ok', endpoints: terminals.map((t) => row(t, states.get(t.terminal.id) ?? { id: t.terminal.id, device_state: 'Not in Asterisk', contacts: [] })) }
      } catch (err) {
        return { ami_connected: false, message: `Asterisk is not answering: ${(err as Error).message}`, endpoints: terminals.map((t) => row(t)) }
      }
    },
    async remove (actor: Principal, tenantId: number, id: string): Promise<void> {
      await tenant(actor, tenantId)
      await terminal(tenantId, id)
      await transaction((tx) => tx.remove(id))
    },
  }
}

export type EndpointService = ReturnType<typeof createEndpointService>
