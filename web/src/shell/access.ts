import type { SessionUser } from '../session/session'

// What the menu offers whom. The service decides what each may do (a 403/404 says so); the console
// only hides what would be of no use to the role.

export const ADMIN_PAGES = [
  'employees', 'organizations', 'terminals', 'routing', 'pbx', 'classifiers', 'references', 'persons', 'regions', 'calendar', 'notifications', 'tenants',
] as const
export type AdminPage = typeof ADMIN_PAGES[number]

const MANAGER_PAGES = new Set<AdminPage>(['employees', 'terminals', 'routing', 'persons'])

export const isAdmin = (user: SessionUser) => user.role === 'admin'
/** operators take the calls; admins may sit at the desk too */
export const canUseDesk = (user: SessionUser) => user.role === 'operator' || user.role === 'admin'
export const canUseBoard = (user: SessionUser) => user.role === 'manager' || user.role === 'admin'

/** the platform's administrators place tenants; an organization's admin does not */
export const isPlatformAdmin = (user: SessionUser) => isAdmin(user) && user.user_type === 'platform'

export function canSeeAdminPage (user: SessionUser, page: AdminPage): boolean {
  if (page === 'tenants') return isPlatformAdmin(user)
  return isAdmin(user) || (user.role === 'manager' && MANAGER_PAGES.has(page))
}

/** where a user lands after sign-in */
export const homeOf = (user: SessionUser) => (user.role === 'operator' ? '/desk' : '/appeals')
