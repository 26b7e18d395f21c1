import { and, asc, count, eq, sql } from 'drizzle-orm'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import { psAors, psAuths, psEndpoints, sipTerminals } from '../../db/schema/index.js'
import { employeeOrganization } from '../employees/queries.js'
import { renewBrowserKeys } from './queries.js'
import { lockOrganizationQuota, organizationPrefix, organizationWithTenant } from '../organizations/queries.js'

const terminalColumns = {
  endpoint: psEndpoints,
  terminal: sipTerminals,
  organization_prefix: organizationPrefix(sipTerminals.organization_id),
}
export type TerminalRow = { endpoint: typeof psEndpoints.$inferSelect, terminal: typeof sipTerminals.$inferSelect, organization_prefix: string }

export interface TerminalWrite {
  endpoint: typeof psEndpoints.$inferInsert
  terminal: typeof sipTerminals.$inferInsert
  auth: typeof psAuths.$inferInsert
}

export function createEndpointRepo<D extends AppDb> (db: D) {
  const joined = () => db.select(terminalColumns).from(sipTerminals)
    .innerJoin(psEndpoints, eq(psEndpoints.id, sipTerminals.id))
  return {
    list: (organizationId: number, skip: number, limit: number): Promise<TerminalRow[]> => joined()
      .where(eq(sipTerminals.organization_id, organizationId)).orderBy(asc(sipTerminals.extension)).offset(skip).limit(limit),
    /** a terminal of this tenant only: another tenant's id is not found */
    find: async (organizationId: number, id: string): Promise<TerminalRow | undefined> =>
      (await joined().where(and(eq(sipTerminals.organization_id, organizationId), eq(sipTerminals.id, id))))[0],
    countFor: async (organizationId: number) =>
      (await db.select({ n: count() }).from(sipTerminals).where(eq(sipTerminals.organization_id, organizationId)))[0]!.n,
    employeeOrganization: (id: number) => employeeOrganization(db, id),
    organization: (id: number) => organizationWithTenant(db, id),
    lockOrganization: inTransactionOnly(db, lockOrganizationQuota),
    /** the Asterisk rows and the service's row, together (the caller holds a transaction) */
    async insert (w: TerminalWrite): Promise<void> {
      await db.insert(psEndpoints).values(w.endpoint)
      await db.insert(psAuths).values(w.auth)
      await db.insert(psAors).values({ id: w.endpoint.id, max_contacts: 1, remove_existing: 'yes' })
      await db.insert(sipTerminals).values(w.terminal)
    },
    async update (id: string, endpoint: Partial<typeof psEndpoints.$inferInsert>, terminal: Partial<typeof sipTerminals.$inferInsert>): Promise<void> {
      if (Object.keys(endpoint).length > 0) await db.update(psEndpoints).set(endpoint).where(eq(psEndpoints.id, id))
      await db.update(sipTerminals).set({ ...terminal, updated_at: sql`now()` }).where(eq(sipTerminals.id, id))
    },
    renewBrowserKey: (id: string) => renewBrowserKeys(db, { terminalId: id }),
    setCredentials: async (id: string, credentials: { md5_cred: string, password_digest: string }) => {
      await db.update(psAuths).set({ ...credentials, auth_type: 'digest' }).where(eq(psAuths.id, id))
    },
    async remove (id: string): Promise<void> {
      await db.delete(sipTerminals).where(eq(sipTerminals.id, id))
      await db.delete(psAors).where(eq(psAors.id, id))
      await db.delete(psAuths).where(eq(psAuths.id, id))
      await db.delete(psEndpoints).where(eq(psEndpoints.id, id))
    },
  }
}

export type EndpointRepo = ReturnType<typeof createEndpointRepo<AppDb>>
export type EndpointTxRepo = ReturnType<typeof createEndpointRepo<TxDb>>
