import type { Principal } from './auth.js'
import { canManage } from './access.js'
import { ForbiddenError, NotFoundError } from './errors.js'

/**
 * The organization whose telephony an administrator or one of its managers works on (its SIP
 * terminals, its call routing): a suspended or deleted platform tenant switches that telephony off.
 */
export async function manageableTenant<T extends { tenant_status: string | null }> (
  actor: Principal, tenantId: number, find: (id: number) => Promise<T | undefined>, what: string
): Promise<T> {
  if (!canManage(actor, tenantId)) throw new ForbiddenError(`Only an administrator or a manager of this organization manages ${what}`, 'own_organization_only')
  const organization = await find(tenantId)
  if (!organization) throw new NotFoundError('Organization')
  if (organization.tenant_status !== null && organization.tenant_status !== 'active') {
    throw new ForbiddenError(`The telephony of organization ${tenantId} is switched off: its platform tenant is ${organization.tenant_status}`, 'telephony_off')
  }
  return organization
}
