import { and, asc, count, eq, inArray, isNotNull } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { psAuths, psEndpoints, sipTerminals } from '../../db/schema/index.js'

/* What other modules may ask of the terminal tables (Asterisk's ps_* and sip_terminals; their owner is this module). */

/** terminals of the organization, correlated to the caller's row */
export const terminalCountOf = async (db: AppDb, organizationId: number) =>
  (await db.select({ n: count() }).from(sipTerminals).where(eq(sipTerminals.organization_id, organizationId)))[0]!.n

/** which of these ids are terminals of the organization */
export const terminalIdsIn = async (db: AppDb, organizationId: number, ids: string[]) => ids.length === 0
  ? []
  : (await db.select({ id: sipTerminals.id }).from(sipTerminals).where(and(eq(sipTerminals.organization_id, organizationId), inArray(sipTerminals.id, ids)))).map((t) => t.id)

/** the terminals employees work at, with their organization: of one employee, of an organization's, or of everyone's */
export const employeeTerminals = (db: AppDb, of: { employeeId?: number, organizationId?: number }) =>
  db.select({ id: sipTerminals.id, employee_id: sipTerminals.employee_id, organization_id: sipTerminals.organization_id }).from(sipTerminals)
    .where(and(isNotNull(sipTerminals.employee_id), of.employeeId === undefined ? undefined : eq(sipTerminals.employee_id, of.employeeId),
      of.organizationId === undefined ? undefined : eq(sipTerminals.organization_id, of.organizationId)))
    .orderBy(asc(sipTerminals.id))

/** whose terminal this is: its organization and employee */
export const terminalOwner = async (db: AppDb, id: string) =>
  (await db.select({ id: sipTerminals.id, organization_id: sipTerminals.organization_id, employee_id: sipTerminals.employee_id })
    .from(sipTerminals).where(eq(sipTerminals.id, id)))[0]

/** terminals as a subquery to join (`terminal.id`, `terminal.name`, `terminal.organization_id`, `terminal.employee_id`) */
export const terminalDirectory = (db: AppDb) =>
  db.select({ id: sipTerminals.id, name: sipTerminals.name, organization_id: sipTerminals.organization_id, employee_id: sipTerminals.employee_id })
    .from(sipTerminals).as('terminal')

/** the organizations' terminals with their endpoints and credentials (digests only), for the PBX's files */
export const terminalsWithCredentials = (db: AppDb, organizationIds: number[]) => organizationIds.length === 0
  ? Promise.resolve([])
  : db.select({ terminal: sipTerminals, endpoint: psEndpoints, md5_cred: psAuths.md5_cred, password_digest: psAuths.password_digest, realm: psAuths.realm })
    .from(sipTerminals)
    .innerJoin(psEndpoints, eq(psEndpoints.id, sipTerminals.id))
    .innerJoin(psAuths, eq(psAuths.id, sipTerminals.id))
    .where(inArray(sipTerminals.organization_id, organizationIds))
    .orderBy(asc(sipTerminals.id))
