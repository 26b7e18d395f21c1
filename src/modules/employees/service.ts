import { canManage } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError, ForbiddenError, NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import { fullName } from '../auth/index.js'
import type { EmployeeRepo, EmployeeRow } from './repo.js'
import type { EmployeeCreate, EmployeeListQuery, EmployeeResponse, EmployeeUpdate } from './schemas.js'

const toResponse = (r: EmployeeRow): EmployeeResponse => ({
  id: r.id, email: r.email, last_name: r.last_name, first_name: r.first_name, middle_name: r.middle_name,
  full_name: fullName(r), organization_id: r.organization_id, organization_name: r.organization_name,
  position: r.position, phone: r.phone, modules: r.modules, user_type: r.user_type, role: r.role,
  is_active: r.is_active, must_change_password: r.must_change_password, has_password: r.password_hash !== null,
  created_at: r.created_at.toISOString(),
})

export interface EmployeeServiceDeps {
  repo: EmployeeRepo
  /** an account's role, organization or activity changed: this instance's cached principal goes at once */
  principalChanged?: (id: number) => void
}

export function createEmployeeService ({ repo, principalChanged = () => {} }: EmployeeServiceDeps) {
  /** an employee the actor may see: admins see all, managers their organization's (others are 404) */
  async function visible (actor: Principal, id: number): Promise<EmployeeRow> {
    const row = await repo.findById(id)
    if (!row || !canManage(actor, row.organization_id)) throw new NotFoundError('Employee')
    return row
  }

  async function normalizeFields<T extends { phone?: string | null, organization_id?: number | null, email?: string }> (input: T): Promise<T> {
    const out = { ...input }
    if (out.email !== undefined) out.email = out.email.toLowerCase()
    if (typeof out.phone === 'string') {
      const phone = out.phone.trim() === '' ? null : normalizeKzPhone(out.phone)
      if (phone === undefined) throw RequestValidationError.field(['body', 'phone'], 'Value is not a valid Kazakhstan phone number', input.phone)
      out.phone = phone
    }
    if (typeof out.organization_id === 'number' && !await repo.organizationExists(out.organization_id)) {
      throw RequestValidationError.field(['body', 'organization_id'], 'Organization does not exist', out.organization_id)
    }
    return out
  }

  function checkShape (userType: string, organizationId: number | null | undefined): void {
    if (userType === 'staff' && (organizationId === null || organizationId === undefined)) {
      throw RequestValidationError.field(['body', 'organization_id'], 'A staff employee belongs to an organization', organizationId ?? null)
    }
  }

  /** what a manager may do: operators of its own organization only */
  function checkManagerScope (actor: Principal, target: { role?: string, organization_id?: number | null, user_type?: string }): void {
    if (actor.role === 'admin') return
    if ((target.role !== undefined && target.role !== 'operator') || (target.user_type !== undefined && target.user_type !== 'staff') ||
        (target.organization_id !== undefined && !canManage(actor, target.organization_id))) {
      throw new ForbiddenError('A manager manages the operators of its own organization only', 'own_organization_only')
    }
  }

  return {
    async list (actor: Principal, query: EmployeeListQuery): Promise<EmployeeResponse[]> {
      let organizationId = query.organization_id
      if (actor.role !== 'admin') {
        if (organizationId !== undefined && organizationId !== actor.organization_id) throw new ForbiddenError('Managers see their own organization only', 'own_organization_only')
        organizationId = actor.organization_id ?? -1
      }
      const rows = await repo.list({ organizationId, role: query.role, q: query.q?.trim() || undefined, includeInactive: query.include_inactive, skip: query.skip, limit: query.limit })
      return rows.map(toResponse)
    },

    get: async (actor: Principal, id: number) => toResponse(await visible(actor, id)),

    async create (actor: Principal, input: EmployeeCreate): Promise<EmployeeResponse> {
      const values = await normalizeFields({
        ...input,
        role: input.role ?? 'operator',
        user_type: input.user_type ?? 'staff',
        organization_id: input.organization_id ?? (actor.role === 'manager' ? actor.organization_id : null),
      })
      checkManagerScope(actor, values)
      checkShape(values.user_type, values.organization_id)
      // no password: the invitation sets it
      const id = await repo.insert({ ...values, password_hash: null })
      return toResponse((await repo.findById(id))!)
    },

    async update (actor: Principal, id: number, input: EmployeeUpdate): Promise<EmployeeResponse> {
      const current = await visible(actor, id)
      checkManagerScope(actor, { role: current.role, user_type: current.user_type })
      const values = await normalizeFields(input)
      checkManagerScope(actor, values)
      checkShape(values.user_type ?? current.user_type, values.organization_id === undefined ? current.organization_id : values.organization_id)
      if (id === actor.id && (values.is_active === false || (values.role !== undefined && values.role !== current.role))) {
        throw new ConflictError('You cannot deactivate yourself or change your own role', 'self_change')
      }
      await repo.update(id, values)
      principalChanged(id)
      return toResponse((await repo.findById(id))!)
    },

    async remove (actor: Principal, id: number) {
      const current = await visible(actor, id)
      checkManagerScope(actor, { role: current.role, user_type: current.user_type })
      if (id === actor.id) throw new ConflictError('You cannot delete yourself', 'self_change')
      await repo.remove(id) // rows that still refer to the employee make this a 409
      principalChanged(id)
      return { message: 'Employee deleted' }
    },
  }
}

export type EmployeeService = ReturnType<typeof createEmployeeService>
