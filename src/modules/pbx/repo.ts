import { asc, eq, inArray, sql } from 'drizzle-orm'
import { type AppDb, type TxDb } from '../../db/client.js'
import { pbxApplyState, pbxAsteriskRefusals, pbxVersions } from '../../db/schema/pbx.js'
import { recordingFile, routingOf } from '../call-routing/queries.js'
import { terminalsWithCredentials } from '../endpoints/queries.js'
import { activeOrganizationsByPrefix, organizationWithTenant } from '../organizations/queries.js'
import { telephonyEnabled } from '../platform/queries.js'
import { regionDialCodes } from '../regions/queries.js'
import { outboundRoutesOf, trunksForPbx } from '../trunks/queries.js'
import type { AsteriskRefusal } from './asterisk-refusals.js'

const versionColumns = { scope: pbxVersions.scope, version: pbxVersions.version, applied: pbxVersions.applied, prefix: pbxVersions.prefix, problem: pbxVersions.problem, problem_since: pbxVersions.problem_since, files_digest: pbxVersions.files_digest }

export interface ScopeVersion { scope: number, version: number, applied: number | null, prefix: string | null, problem: string | null, problem_since: Date | null, files_digest: string | null }
export interface ScopeApplied { scope: number, version: number, prefix: string | null, problem: string | null, files_digest?: string | null }

/** The PBX owns the apply's bookkeeping; it reads the tenants, regions, terminals and call routing through their owners' queries. */
export function createPbxRepo<D extends AppDb> (db: D) {
  return {
    activeOrganizations: () => activeOrganizationsByPrefix(db, telephonyEnabled),
    organization: (id: number) => organizationWithTenant(db, id),
    regions: () => regionDialCodes(db),
    terminalsOf: (organizationIds: number[]) => terminalsWithCredentials(db, organizationIds),
    routingOf: (organizationIds: number[]) => routingOf(db, organizationIds),
    outboundRoutesOf: (organizationIds: number[]) => outboundRoutesOf(db, organizationIds),
    trunks: () => trunksForPbx(db),
    recording: (promptId: number, language: 'ru' | 'kk') => recordingFile(db, promptId, language),

    versions: (): Promise<ScopeVersion[]> => db.select(versionColumns).from(pbxVersions),
    /** these scopes' versions only (an organization's, and the shared ones beside it) */
    versionsOf: (scopes: number[]): Promise<ScopeVersion[]> => db.select(versionColumns).from(pbxVersions).where(inArray(pbxVersions.scope, scopes)),
    /** what was written (or refused) at which version; a refusal keeps the time it began */
    markApplied: async (rows: ScopeApplied[]) => {
      if (rows.length === 0) return
      await db.insert(pbxVersions).values(rows.map((r) => ({ scope: r.scope, version: r.version, applied: r.version, prefix: r.prefix, problem: r.problem, problem_since: r.problem ? sql`now()` : null, files_digest: r.files_digest ?? null })))
        .onConflictDoUpdate({
          target: pbxVersions.scope,
          set: {
            applied: sql`excluded.applied`, prefix: sql`excluded.prefix`, problem: sql`excluded.problem`, files_digest: sql`excluded.files_digest`,
            problem_since: sql`case when excluded.problem is null then null else coalesce(${pbxVersions.problem_since}, now()) end`,
          },
        })
    },
    /** a scope whose files are gone with its organization, and what Asterisk refused of them */
    forget: async (scope: number) => {
      await db.delete(pbxVersions).where(eq(pbxVersions.scope, scope))
      await db.delete(pbxAsteriskRefusals).where(eq(pbxAsteriskRefusals.scope, scope))
    },
    state: async () => (await db.select().from(pbxApplyState))[0]!,
    /** the files written need these reloads: kept until Asterisk has done them */
    written: async (reloads: string[], at: Date) => {
      await db.update(pbxApplyState).set({
        pending_reloads: sql`array(select distinct unnest(${pbxApplyState.pending_reloads} || ${`{${reloads.join(',')}}`}::text[]) order by 1)`,
        write_seq: sql`${pbxApplyState.write_seq} + 1`, applied_at: at, error: null, error_at: null,
      })
    },
    /** nothing written: the last apply stands */
    appliedNothing: async (at: Date) => { await db.update(pbxApplyState).set({ applied_at: at }) },
    /** the reloads done, unless a write came after they began */
    reloaded: async (writeSeq: number) => { await db.update(pbxApplyState).set({ pending_reloads: [], error: null, error_at: null }).where(eq(pbxApplyState.write_seq, writeSeq)) },
    failed: async (error: string, at: Date) => { await db.update(pbxApplyState).set({ error, error_at: at }) },
    /** what Asterisk refused in its last reload of `module`: replaces what its earlier reload refused */
    asteriskRefused: async (module: string, refusals: AsteriskRefusal[], at: Date) => {
      await db.transaction(async (tx) => {
        await tx.delete(pbxAsteriskRefusals).where(eq(pbxAsteriskRefusals.module, module))
        if (refusals.length > 0) await tx.insert(pbxAsteriskRefusals).values(refusals.map((r) => ({ module, scope: r.scope, message: r.message, logged_at: at })))
      })
    },
    /** what Asterisk refused, by scope (these scopes only, or all), oldest first */
    asteriskRefusals: (scopes?: number[]) => db.select().from(pbxAsteriskRefusals)
      .where(scopes === undefined ? undefined : inArray(pbxAsteriskRefusals.scope, scopes)).orderBy(asc(pbxAsteriskRefusals.logged_at), asc(pbxAsteriskRefusals.module)),
  }
}

export type PbxRepo = ReturnType<typeof createPbxRepo<AppDb>>
export type PbxTxRepo = ReturnType<typeof createPbxRepo<TxDb>>
