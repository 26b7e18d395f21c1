import { sql, type SQLWrapper } from 'drizzle-orm'
import { platformTenants, type TenantStatus } from '../../db/schema/index.js'

/* What other modules may ask of the platform's tables: SQL fragments correlated to their own rows. */

const tenantOf = (organizationId: SQLWrapper) => sql`t.tenant_id = (${organizationId})::text`

/**
 * True unless a tenant named after the organization is suspended or deleted: the one rule that
 * keeps a suspended tenant's telephony out of terminal routes, PBX files and online operators.
 */
export const telephonyEnabled = (organizationId: SQLWrapper) =>
  sql`not exists (select 1 from ${platformTenants} t where ${tenantOf(organizationId)} and t.status <> 'active')`

/** the status of the tenant named after the organization, or null when there is none */
export const tenantStatusOf = (organizationId: SQLWrapper) =>
  sql<TenantStatus | null>`(select t.status from ${platformTenants} t where ${tenantOf(organizationId)})`
