import { sql } from 'drizzle-orm'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import { recordingFile, routingOf } from '../call-routing/queries.js'
import { terminalsWithCredentials } from '../endpoints/queries.js'
import { activeOrganizationsByPrefix } from '../organizations/queries.js'
import { telephonyEnabled } from '../platform/queries.js'
import { regionDialCodes } from '../regions/queries.js'
import { outboundRoutesOf, trunksForPbx } from '../trunks/queries.js'

const GENERATION_LOCK = 7_351_006

/** The PBX owns no table: it reads the tenants, regions, terminals and call routing through their owners' queries. */
export function createPbxRepo<D extends AppDb> (db: D) {
  return {
    /** serialises generations across instances: the lock lives as long as the transaction */
    lockGeneration: inTransactionOnly(db, async (tx) => { await tx.execute(sql`select pg_advisory_xact_lock(${GENERATION_LOCK})`) }),
    activeOrganizations: () => activeOrganizationsByPrefix(db, telephonyEnabled),
    regions: () => regionDialCodes(db),
    terminalsOf: (organizationIds: number[]) => terminalsWithCredentials(db, organizationIds),
    routingOf: (organizationIds: number[]) => routingOf(db, organizationIds),
    outboundRoutesOf: (organizationIds: number[]) => outboundRoutesOf(db, organizationIds),
    trunks: () => trunksForPbx(db),
    recording: (promptId: number, language: 'ru' | 'kk') => recordingFile(db, promptId, language),
  }
}

export type PbxRepo = ReturnType<typeof createPbxRepo<AppDb>>
export type PbxTxRepo = ReturnType<typeof createPbxRepo<TxDb>>
