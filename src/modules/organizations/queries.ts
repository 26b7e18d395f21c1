import { and, asc, count, eq, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { AppDb, TxDb } from '../../db/client.js'
import { organizationGroupLinks, organizations } from '../../db/schema/index.js'
import { tenantStatusOf } from '../platform/queries.js'

/* What other modules may ask of the organizations' tables (their owner is this module). */

/** the name of the organization with this id, correlated to the caller's row (`<null>` when the id may be null) */
export const organizationName = <Absent extends null = never>(organizationId: SQLWrapper) =>
  sql<string | Absent>`(select o.name from ${organizations} o where o.id = ${organizationId})`

/** organizations' names as a subquery to join (`organization.id`, `organization.name`) */
export const organizationNames = (db: AppDb) =>
  db.select({ id: organizations.id, name: organizations.name }).from(organizations).as('organization')

export const organizationExists = async (db: AppDb, id: number) =>
  (await db.select({ n: count() }).from(organizations).where(eq(organizations.id, id)))[0]!.n > 0

/** the active organizations as picker items, of one region or of all */
export const activeOrganizationItems = (db: AppDb, regionId?: number) =>
  db.select({ id: organizations.id, name: organizations.name, region_id: organizations.region_id })
    .from(organizations)
    .where(and(eq(organizations.is_active, true), regionId === undefined ? undefined : eq(organizations.region_id, regionId)))
    .orderBy(asc(organizations.name), asc(organizations.id))

/** the active organizations that pass `condition` (given the organization's id), by prefix: the PBX's tenants */
export const activeOrganizationsByPrefix = (db: AppDb, condition: (organizationId: SQLWrapper) => SQL) =>
  db.select({ id: organizations.id, name: organizations.name, prefix: organizations.prefix, region_id: organizations.region_id })
    .from(organizations).where(and(eq(organizations.is_active, true), condition(organizations.id))).orderBy(asc(organizations.prefix))

export const organizationCountInRegion = async (db: AppDb, regionId: number) =>
  (await db.select({ n: count() }).from(organizations).where(eq(organizations.region_id, regionId)))[0]!.n

export const groupMemberCount = async (db: AppDb, groupId: number) =>
  (await db.select({ n: count() }).from(organizationGroupLinks).where(eq(organizationGroupLinks.group_id, groupId)))[0]!.n

/** the organization with the status of its platform tenant (null: none) */
export const organizationWithTenant = async (db: AppDb, id: number) =>
  (await db.select({ ...getTableColumns(organizations), tenant_status: tenantStatusOf(organizations.id) })
    .from(organizations).where(eq(organizations.id, id)))[0]

/** the prefix and quotas of the organization, its row locked until the transaction ends (prefix changes, terminal and queue creations queue) */
export const lockOrganizationQuota = async (tx: TxDb, id: number) =>
  (await tx.select({ prefix: organizations.prefix, max_operators: organizations.max_operators, max_queues: organizations.max_queues })
    .from(organizations).where(eq(organizations.id, id)).for('update'))[0]

/** the prefix of the organization with this id, correlated to the caller's row */
export const organizationPrefix = (organizationId: SQLWrapper) =>
  sql<string>`(select o.prefix from ${organizations} o where o.id = ${organizationId})`

/** what decides whether an organization's staff are the centre's (DESIGN 7.2: `modules` contains `call_center`), and its name for notices */
export const organizationRoleFacts = async (db: AppDb, id: number) =>
  (await db.select({ name: organizations.name, is_active: organizations.is_active, modules: organizations.modules }).from(organizations).where(eq(organizations.id, id)))[0]

/** an organization's is_active (null: no such organization), as a column of the caller's query */
export const organizationActiveFact = (id: number) => sql<boolean | null>`(select o.is_active from ${organizations} o where o.id = ${id})`

/** whether an active organization runs this module (`call_center`: its staff are the centre's), as a column of the caller's query */
export const organizationRunsFact = (id: number, module: string) =>
  sql<boolean>`exists (select 1 from ${organizations} o where o.id = ${id} and o.is_active and ${module} = any(o.modules))`

/** the id of the organization with this prefix, as a value of the caller's query */
export const organizationIdOfPrefix = (prefix: string) => sql<number | null>`(select o.id from ${organizations} o where o.prefix = ${prefix})`

/** the organization with this prefix (the PBX names its contexts and queues by it) */
export const organizationIdByPrefix = async (db: AppDb, prefix: string) =>
  (await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.prefix, prefix)))[0]?.id

/** what placing a call from the organization's terminals needs: its prefix (its context) and region (its area code) */
export const organizationDialFacts = async (db: AppDb, id: number) =>
  (await db.select({ prefix: organizations.prefix, region_id: organizations.region_id, is_active: organizations.is_active }).from(organizations).where(eq(organizations.id, id)))[0]
