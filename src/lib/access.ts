// The one access policy of the service: an admin may see and manage everything; a manager the data
// of its own organization; other staff (operators) only what is their own. SQL filters, single-row
// checks and the live-event filter all read it from here.
import type { Principal } from './auth.js'
import { ForbiddenError } from './errors.js'

/** What a principal may see, as a filter: undefined members do not restrict. */
export interface Scope {
  /** only rows of this organization (a manager without one sees nothing: -1 matches no row) */
  organizationId?: number
  /** only rows that belong to this employee */
  employeeId?: number
}

export function scopeOf (p: Principal): Scope {
  if (p.role === 'admin') return {}
  if (p.role === 'manager') return { organizationId: p.organization_id ?? -1 }
  return { employeeId: p.id }
}

/** a row owned by an organization and, maybe, an employee */
export interface Owned { organization_id: number | null, employee_id?: number | null }

/** a supervisor's scope (an admin: everything; a manager: its organization); operators are refused, naming `what` */
export function supervisorScope (p: Principal, what: string): Scope {
  if (p.role === 'operator') throw new ForbiddenError(`Only supervisors see ${what}`, 'supervisors_only')
  return scopeOf(p)
}

/** whether the row lies inside the principal's scope */
export function canSee (p: Principal, row: Owned): boolean {
  const scope = scopeOf(p)
  if (scope.organizationId !== undefined && row.organization_id !== scope.organizationId) return false
  return scope.employeeId === undefined || row.employee_id === scope.employeeId
}

/** an admin, or a manager of this organization */
export function canManage (p: Principal, organizationId: number | null | undefined): boolean {
  if (p.role === 'admin') return true
  return p.role === 'manager' && p.organization_id !== null && p.organization_id === organizationId
}

/**
 * Who sees an appeal: an admin and the call centre's staff see every appeal, the staff of the
 * executor organization the ones it executes, nobody else any. The register's single-row checks, its
 * list's SQL filter and the live stream's filter all ask this.
 */
export interface AppealViewer {
  principal: Principal
  /** staff of an active organization running the call centre (looked up once per request or console) */
  centre: boolean
}

const seesEveryAppeal = (v: AppealViewer) => v.principal.role === 'admin' || v.centre

export function canSeeAppeal (v: AppealViewer, executorOrganizationId: number | null): boolean {
  if (seesEveryAppeal(v)) return true
  return v.principal.organization_id !== null && v.principal.organization_id === executorOrganizationId
}

/** the same rule as a filter: undefined sees every appeal, else only those of this executor (-1: none) */
export function appealExecutorScope (v: AppealViewer): number | undefined {
  return seesEveryAppeal(v) ? undefined : v.principal.organization_id ?? -1
}

/**
 * The role check that comes before any lookup: a caller who could manage no organization's rows
 * learns nothing about whether a row exists.
 */
export function requireManagerRole (p: Principal, message = 'Not enough permissions'): void {
  if (p.role !== 'admin' && p.role !== 'manager') throw new ForbiddenError(message)
}
