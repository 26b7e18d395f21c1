import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import { organizations, psAuths, psEndpoints, regions, sipTerminals } from '../../db/schema/index.js'
import { telephonyEnabled } from '../platform/index.js'

const GENERATION_LOCK = 7_351_006

export function createPbxRepo<D extends AppDb> (db: D) {
  return {
    /** serialises generations across instances: the lock lives as long as the transaction */
    lockGeneration: inTransactionOnly(db, async () => { await db.execute(sql`select pg_advisory_xact_lock(${GENERATION_LOCK})`) }),
    activeOrganizations: () => db.select({ id: organizations.id, name: organizations.name, prefix: organizations.prefix, region_id: organizations.region_id })
      .from(organizations).where(and(eq(organizations.is_active, true), telephonyEnabled(organizations.id))).orderBy(asc(organizations.prefix)),
    regions: () => db.select({ id: regions.id, parent_id: regions.parent_id, phone_code: regions.phone_code, local_digits: regions.local_digits }).from(regions),
    terminalsOf: (organizationIds: number[]) => organizationIds.length === 0
      ? Promise.resolve([])
      : db.select({ terminal: sipTerminals, endpoint: psEndpoints, md5_cred: psAuths.md5_cred, password_digest: psAuths.password_digest, realm: psAuths.realm }).from(sipTerminals)
        .innerJoin(psEndpoints, eq(psEndpoints.id, sipTerminals.id))
        .innerJoin(psAuths, eq(psAuths.id, sipTerminals.id))
        .where(and(inArray(sipTerminals.organization_id, organizationIds)))
        .orderBy(asc(sipTerminals.id)),
  }
}

export type PbxRepo = ReturnType<typeof createPbxRepo<AppDb>>
export type PbxTxRepo = ReturnType<typeof createPbxRepo<TxDb>>
