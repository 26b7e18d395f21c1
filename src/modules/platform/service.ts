import { isDeepStrictEqual } from 'node:util'
import type { Transactional } from '../../db/client.js'
import type { TenantStatus } from '../../db/schema/index.js'
import { isoOrNull, type Clock } from '../../lib/clock.js'
import { ConflictError, NotFoundError, RequestValidationError } from '../../lib/errors.js'
import type { PlatformRepo, PlatformTxRepo, TenantRow } from './repo.js'
import type { TenantCreate } from './schemas.js'

export type TenantAction = 'suspend' | 'activate' | 'delete'

/** who asked, for the audit log */
export interface Actor { actor: string, actor_address: string | null, request_id: string | null }

const MAX_METADATA_BYTES = 16 * 1024

/** the state machine: the next status of each action from each status, or why it is refused */
const transitions: Record<TenantAction, Record<TenantStatus, TenantStatus | 'refused'>> = {
  suspend: { active: 'suspended', suspended: 'suspended', deleted: 'refused' },
  activate: { active: 'active', suspended: 'active', deleted: 'refused' },
  delete: { active: 'deleted', suspended: 'deleted', deleted: 'deleted' },
}

const toWire = (t: TenantRow) => ({
  tenant_id: t.tenant_id, name: t.name, cell_id: t.cell_id, metadata: t.metadata, status: t.status,
  created_at: t.created_at.toISOString(), updated_at: t.updated_at.toISOString(), suspended_at: isoOrNull(t.suspended_at), deleted_at: isoOrNull(t.deleted_at),
})

export function createPlatformService ({ repo, transaction, cellId, clock }: { repo: PlatformRepo, transaction: Transactional<PlatformTxRepo>, cellId?: string, clock: Clock }) {
  return {
    /** creates the tenant; an identical repeat answers the tenant as it is, a different one is 409 */
    async create (body: TenantCreate, actor: Actor): Promise<ReturnType<typeof toWire>> {
      if (cellId !== undefined && body.cell_id !== cellId) throw new ConflictError(`This is cell '${cellId}': tenant placed in cell '${body.cell_id}' does not belong here`, 'wrong_cell')
      const metadata = body.metadata ?? {}
      if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) throw RequestValidationError.field(['body', 'metadata'], `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`, null)
      return transaction(async (tx) => {
        const now = clock()
        const inserted = await tx.insert({ tenant_id: body.tenant_id, name: body.name, cell_id: body.cell_id, metadata, created_at: now, updated_at: now })
        if (inserted) {
          await tx.audit({ ...actor, at: now, action: 'create', tenant_id: body.tenant_id, from_status: null, to_status: 'active' })
          return toWire(inserted)
        }
        const existing = (await tx.find(body.tenant_id))!
        const same = existing.name === body.name && existing.cell_id === body.cell_id && isDeepStrictEqual(existing.metadata, metadata)
        if (!same) throw new ConflictError(`Tenant '${body.tenant_id}' exists with a different name, cell or metadata`, 'tenant_exists')
        if (existing.status === 'deleted') throw new ConflictError(`Tenant '${body.tenant_id}' was deleted; its id cannot be used again`, 'tenant_deleted')
        return toWire(existing)
      })
    },

    async get (tenantId: string) {
      const tenant = await repo.find(tenantId)
      if (!tenant) throw new NotFoundError('Tenant')
      return toWire(tenant)
    },

    list: async (filter: { status?: TenantStatus, skip: number, limit: number }) => (await repo.list(filter)).map(toWire),

    /** suspend, activate, delete: idempotent; nothing leaves `deleted` */
    async apply (tenantId: string, action: TenantAction, actor: Actor) {
      return transaction(async (tx) => {
        const tenant = await tx.lock(tenantId)
        if (!tenant) throw new NotFoundError('Tenant')
        const next = transitions[action][tenant.status]
        if (next === 'refused') throw new ConflictError(`Tenant '${tenantId}' is deleted: it cannot be ${action === 'suspend' ? 'suspended' : 'activated'}`, 'tenant_deleted')
        if (next === tenant.status) return toWire(tenant)
        const now = clock()
        const updated = await tx.setStatus(tenantId, next, now)
        await tx.audit({ ...actor, at: now, action, tenant_id: tenantId, from_status: tenant.status, to_status: next })
        return toWire(updated)
      })
    },

    audit: async (filter: { tenantId?: string, skip: number, limit: number }) =>
      (await repo.auditLog(filter)).map((e) => ({ ...e, at: e.at.toISOString() })),
  }
}

export type PlatformService = ReturnType<typeof createPlatformService>
