import type { Schemas } from '../api/client'
import type { SessionUser } from '../session/session'

export type Workplace = Schemas['AppealWorkplace']

// What the menu offers whom. The service decides what each may do (a 403/404 says so); the console
// only hides what would be of no use to the role.

export const ADMIN_PAGES = [
  'employees', 'organizations', 'terminals', 'routing', 'pbx', 'classifiers', 'references', 'persons', 'regions', 'calendar', 'notifications', 'tenants',
] as const
export type AdminPage = typeof ADMIN_PAGES[number]

const MANAGER_PAGES = new Set<AdminPage>(['employees', 'terminals', 'routing', 'persons'])

export const isAdmin = (user: SessionUser) => user.role === 'admin'
/** the centre's operators take the calls (admins may sit at the desk too); an executor's staff register nothing */
export const canUseDesk = (user: SessionUser, workplace: Workplace | undefined) => (user.role === 'operator' || user.role === 'admin') && workplace?.registers === true
export const canUseBoard = (user: SessionUser) => user.role === 'manager' || user.role === 'admin'

/** the platform's administrators place tenants; an organization's admin does not */
export const isPlatformAdmin = (user: SessionUser) => isAdmin(user) && user.user_type === 'platform'

export function canSeeAdminPage (user: SessionUser, page: AdminPage): boolean {
  if (page === 'tenants') return isPlatformAdmin(user)
  return isAdmin(user) || (user.role === 'manager' && MANAGER_PAGES.has(page))
}

/** an executor's staff: the appeals handed to their organization are their work */
export const isExecutorStaff = (workplace: Workplace | undefined) => workplace !== undefined && !workplace.centre_staff && workplace.organization_id !== null
/** the inbox: an executor's own; admins look into any executor's */
export const canUseInbox = (user: SessionUser, workplace: Workplace | undefined) => isExecutorStaff(workplace) || isAdmin(user)

/** where a user lands after sign-in: the centre's operators at the desk, an executor's staff in their inbox, everyone else in the register */
export function homeOf (user: SessionUser, workplace: Workplace | undefined): string {
  if (user.role === 'operator' && canUseDesk(user, workplace)) return '/desk'
  return isExecutorStaff(workplace) ? '/inbox' : '/appeals'
}
