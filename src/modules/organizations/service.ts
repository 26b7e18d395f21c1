import type { Transactional } from '../../db/client.js'
import { canManage } from '../../lib/access.js'
import { isoOrNull, type Clock } from '../../lib/clock.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError, ForbiddenError, NotFoundError, RequestValidationError } from '../../lib/errors.js'
import type { RegionRow } from '../regions/index.js'
import { indexRegions } from '../regions/service.js'
import type { ExtSyncRepo } from './ext-sync-repo.js'
import type { OrganizationRepo, OrganizationRow, OrganizationTxRepo } from './repo.js'
import type { NotificationSettingsSave, OrganizationCreate, OrganizationDetailUpdate, OrganizationView, TelephonyOrganizationCreate } from './schemas.js'

/** Repositories bound to one connection or transaction. Inside a transaction every read goes through
 * them: on the embedded database a query outside the open transaction would wait for it forever. */
interface Repos { orgs: OrganizationRepo, sync: ExtSyncRepo, regions: { all: () => Promise<RegionRow[]> } }
interface TxRepos extends Omit<Repos, 'orgs'> { orgs: OrganizationTxRepo }

export interface OrganizationServiceDeps {
  repos: Repos
  transaction: Transactional<TxRepos>
  clock: Clock
  /** false: no EXT_SYNC_URL, changes are recorded as `disabled` */
  extSyncEnabled: boolean
}

export interface ListOptions { regionId?: number, oblastId?: number, includeInactive: boolean, skip: number, limit: number }

const notificationDefaults = { is_active: false, partner_uuid: null, call_local: true, call_longdistance: false, call_mobile: false, cli_route_id: null, sms_enabled: false }

export function createOrganizationService (deps: OrganizationServiceDeps) {
  const { repos, transaction, clock } = deps

  /** every field of every shape; the route's response schema picks its shape's */
  function toView (r: OrganizationRow, regions: ReturnType<typeof indexRegions>): OrganizationView {
    const region = r.region_id === null ? undefined : regions.byId.get(r.region_id)
    const oblast = region ? regions.oblastOf(region) : undefined
    return {
      id: r.id, name: r.name, org_name: r.name, prefix: r.prefix, org_prefix: r.prefix,
      region_id: r.region_id, region_name: r.region_name, groups: r.groups, employee_count: r.employee_count,
      modules: r.modules, is_active: r.is_active, max_queues: r.max_queues, max_operators: r.max_operators,
      created_at: r.created_at.toISOString(),
      ext_sync_status: r.ext_sync_status ?? (deps.extSyncEnabled ? 'pending' : 'disabled'),
      ext_sync_error: r.ext_sync_error, ext_synced_at: isoOrNull(r.ext_synced_at),
      oblast_id: oblast?.id ?? null, oblast_name: oblast?.name ?? null,
      city_name: region && oblast && region.id !== oblast.id ? region.name : null,
      // one queue per organization that has terminals (the queues generator); outbound routes are not stored entities
      queues_count: r.queues_count, operators_count: r.operators_count, endpoints_count: r.endpoints_count, routes_count: 0,
    }
  }

  async function views (filter: Parameters<OrganizationRepo['list']>[0], on: Repos | TxRepos = repos): Promise<OrganizationView[]> {
    const [rows, regionRows] = await Promise.all([on.orgs.list(filter), on.regions.all()])
    const regions = indexRegions(regionRows)
    return rows.map((r) => toView(r, regions))
  }

  async function get (id: number, on: Repos | TxRepos = repos): Promise<OrganizationView> {
    const [view] = await views({ id, includeInactive: true, skip: 0, limit: 1 }, on)
    if (!view) throw new NotFoundError('Organization')
    return view
  }

  /** the change and its outbox entry commit together */
  async function syncWithin (tx: TxRepos, id: number, event: 'organization.upserted' | 'organization.deleted', organization: OrganizationView): Promise<void> {
    const now = clock()
    const { queues_count: _q, operators_count: _o, endpoints_count: _e, routes_count: _r, ext_sync_status: _s, ext_sync_error: _x, ext_synced_at: _t, org_name: _n, org_prefix: _p, ...state } = organization
    await tx.sync.enqueue(id, { event, organization: state, changed_at: now.toISOString() }, deps.extSyncEnabled ? 'pending' : 'disabled', now)
  }

  async function checkReferences (tx: Repos | TxRepos, input: { region_id?: number, group_ids?: number[] }): Promise<void> {
    if (input.region_id !== undefined && !await tx.orgs.regionExists(input.region_id)) {
      throw RequestValidationError.field(['body', 'region_id'], `Region ${input.region_id} does not exist`, input.region_id)
    }
    if (input.group_ids && input.group_ids.length > 0) {
      const existing = new Set(await tx.orgs.existingGroupIds(input.group_ids))
      const missing = input.group_ids.filter((g) => !existing.has(g))
      if (missing.length > 0) throw RequestValidationError.field(['body', 'group_ids'], `Groups do not exist: ${missing.join(', ')}`, input.group_ids)
    }
  }

  async function create (values: { name: string, prefix: string, region_id?: number, group_ids?: number[], modules?: string[], is_active?: boolean, max_queues?: number, max_operators?: number }) {
    return transaction(async (tx) => {
      await checkReferences(tx, values)
      const { group_ids: groupIds, ...columns } = values
      const row = await tx.orgs.insert(columns) // a prefix in use is 409
      if (groupIds) await tx.orgs.setGroups(row.id, groupIds)
      const view = await get(row.id, tx)
      await syncWithin(tx, row.id, 'organization.upserted', view)
      return get(row.id, tx)
    })
  }

  return {
    get,

    async list (o: ListOptions): Promise<OrganizationView[]> {
      let regionIds: number[] | undefined = o.regionId === undefined ? undefined : [o.regionId]
      if (o.oblastId !== undefined) {
        const regions = indexRegions(await repos.regions.all())
        const under = [...regions.byId.values()].filter((r) => regions.oblastOf(r).id === o.oblastId).map((r) => r.id)
        regionIds = regionIds === undefined ? under : regionIds.filter((id) => under.includes(id))
      }
      return views({ regionIds, includeInactive: o.includeInactive, skip: o.skip, limit: o.limit })
    },

    createShared: (input: OrganizationCreate) => create(input),
    createTelephony: (input: TelephonyOrganizationCreate) => create({
      name: input.org_name, prefix: input.org_prefix, is_active: input.is_active, max_queues: input.max_queues, max_operators: input.max_operators,
    }),

    /** Shape A/S bodies, Shape B bodies, or the union on the colliding route: only what is sent changes */
    async update (id: number, input: OrganizationDetailUpdate): Promise<OrganizationView> {
      if (input.name !== undefined && input.org_name !== undefined && input.name !== input.org_name) {
        throw RequestValidationError.field(['body', 'org_name'], 'name and org_name name the same field and differ', input.org_name)
      }
      return transaction(async (tx) => {
        const current = await tx.orgs.lockForUpdate(id)
        if (!current) throw new NotFoundError('Organization')
        await checkReferences(tx, input)
        if (input.org_prefix !== undefined && input.org_prefix !== current.prefix && (await tx.orgs.dependents(id)).terminals > 0) {
          throw new ConflictError('The prefix of an organization with SIP terminals cannot change: it is part of their ids', 'prefix_in_use')
        }
        const { group_ids: groupIds, org_name: orgName, org_prefix: orgPrefix, ...rest } = input
        const columns = { ...rest, ...(orgName !== undefined ? { name: orgName } : {}), ...(orgPrefix !== undefined ? { prefix: orgPrefix } : {}) }
        if (Object.keys(columns).length > 0) await tx.orgs.update(id, columns)
        if (groupIds) await tx.orgs.setGroups(id, groupIds)
        await syncWithin(tx, id, 'organization.upserted', await get(id, tx))
        return get(id, tx)
      })
    },

    async remove (id: number) {
      return transaction(async (tx) => {
        const view = await get(id, tx)
        const { employees, terminals } = await tx.orgs.dependents(id)
        const what = [employees > 0 ? `${employees} employees` : '', terminals > 0 ? `${terminals} SIP terminals` : ''].filter(Boolean).join(' and ')
        if (what) throw new ConflictError(`Organization ${id} still has ${what}`, 'still_referenced')
        await tx.orgs.remove(id) // group links and notification settings go with it
        await syncWithin(tx, id, 'organization.deleted', view)
        return { message: 'Organization deleted' }
      })
    },

    async retryOne (id: number) {
      if (!await repos.orgs.findBasic(id)) throw new NotFoundError('Organization')
      const queued = deps.extSyncEnabled ? await repos.sync.requeue(id, clock()) : 0
      return { message: deps.extSyncEnabled ? 'Synchronisation queued' : 'Synchronisation is disabled (EXT_SYNC_URL is not set)', queued }
    },
    async retryAllFailed () {
      const queued = deps.extSyncEnabled ? await repos.sync.requeueFailed(clock()) : 0
      return { message: deps.extSyncEnabled ? `${queued} failed synchronisations queued` : 'Synchronisation is disabled (EXT_SYNC_URL is not set)', queued }
    },

    async notifications (id: number) {
      if (!await repos.orgs.findBasic(id)) throw new NotFoundError('Organization')
      const saved = await repos.orgs.findNotifications(id)
      return { ...notificationDefaults, ...saved, organization_id: id }
    },
    async saveNotifications (actor: Principal, id: number, input: NotificationSettingsSave) {
      if (!canManage(actor, id)) throw new ForbiddenError('A manager changes its own organization\'s settings only', 'own_organization_only')
      if (!await repos.orgs.findBasic(id)) throw new NotFoundError('Organization')
      const saved = await repos.orgs.upsertNotifications(id, input) // a partner_uuid of another organization is 409
      return { ...notificationDefaults, ...saved, organization_id: id }
    },
    async findByPartner (partnerUuid: string): Promise<OrganizationView> {
      const [view] = await views({ partnerUuid, includeInactive: true, skip: 0, limit: 1 })
      if (!view) throw new NotFoundError('Organization')
      return view
    },
  }
}

export type OrganizationService = ReturnType<typeof createOrganizationService>
