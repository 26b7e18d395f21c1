import { and, asc, count, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { dataProtectionOfficers, personalDataAccess, type PersonalDataAction, type PersonalDataSubject } from '../../db/schema/index.js'
import { CHAIN_START, chainHash, type ChainedFields } from './chain.js'
import { isDataProtectionOfficer } from './queries.js'

export type AccessRecord = typeof personalDataAccess.$inferSelect

/** any constant: the same for every instance, so that one appends to the chain at a time */
const CHAIN_LOCK = 7_351_050

export interface AccessFilter {
  actor_id?: number
  subject?: PersonalDataSubject
  subject_id?: string
  action?: PersonalDataAction
  from?: Date
  to?: Date
  /** keyset: records before this id (newest first) */
  before_id?: number
  limit: number
}

const conditions = (f: Omit<AccessFilter, 'limit' | 'before_id'>): SQL[] => [
  ...f.actor_id === undefined ? [] : [eq(personalDataAccess.actor_id, f.actor_id)],
  ...f.subject === undefined ? [] : [eq(personalDataAccess.subject, f.subject)],
  ...f.subject_id === undefined ? [] : [sql`${personalDataAccess.subject_ids} @> array[${f.subject_id}]::text[]`],
  ...f.action === undefined ? [] : [eq(personalDataAccess.action, f.action)],
  ...f.from === undefined ? [] : [gte(personalDataAccess.at, f.from)],
  ...f.to === undefined ? [] : [lt(personalDataAccess.at, f.to)],
]

/** the last record's hash: where the next one chains on */
async function chainEnd (db: AppDb): Promise<string> {
  const [last] = await db.select({ hash: personalDataAccess.hash }).from(personalDataAccess).orderBy(desc(personalDataAccess.id)).limit(1)
  return last?.hash ?? CHAIN_START
}

export function createAuditRepo (db: AppDb, { oneWriter = false }: { oneWriter?: boolean } = {}) {
  let lastHash: string | undefined
  return {
    /**
     * The records appended to the chain in the order given, one instance at a time (an advisory
     * lock, and the chain's end read under it). `oneWriter` (the embedded database: one process)
     * keeps the chain's end in memory and writes each batch in one statement.
     */
    async append (entries: ChainedFields[], key: Buffer): Promise<void> {
      const chained = (prev: string) => entries.map((e) => {
        const hash = chainHash(key, prev, e)
        const row = { ...e, prev_hash: prev, hash }
        prev = hash
        return row
      })
      if (oneWriter) {
        lastHash ??= await chainEnd(db)
        const rows = chained(lastHash)
        await db.insert(personalDataAccess).values(rows)
        lastHash = rows.at(-1)!.hash
        return
      }
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`)
        await tx.insert(personalDataAccess).values(chained(await chainEnd(tx)))
      })
    },

    async search (f: AccessFilter): Promise<AccessRecord[]> {
      return db.select().from(personalDataAccess)
        .where(and(...conditions(f), ...f.before_id === undefined ? [] : [lt(personalDataAccess.id, f.before_id)]))
        .orderBy(desc(personalDataAccess.id)).limit(f.limit)
    },

    async total (f: Omit<AccessFilter, 'limit' | 'before_id'>): Promise<number> {
      const [row] = await db.select({ n: count() }).from(personalDataAccess).where(and(...conditions(f)))
      return row?.n ?? 0
    },

    /** the records in the chain's order, from after `afterId` */
    inOrder: (afterId: number, limit: number): Promise<AccessRecord[]> =>
      db.select().from(personalDataAccess).where(gt(personalDataAccess.id, afterId)).orderBy(asc(personalDataAccess.id)).limit(limit),

    /** the retention purge: the only delete the table's trigger lets through */
    async purgeBefore (cutoff: Date): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('appeals.audit_purge', 'on', true)`)
        const gone = await tx.delete(personalDataAccess).where(lt(personalDataAccess.at, cutoff)).returning({ id: personalDataAccess.id })
        return gone.length
      })
    },

    isOfficer: (userId: number): Promise<boolean> => isDataProtectionOfficer(db, userId),

    /** grants (or with `revoke`, takes back) the audit's reading to an employee */
    async setOfficer (userId: number, revoke: boolean): Promise<void> {
      if (revoke) await db.delete(dataProtectionOfficers).where(eq(dataProtectionOfficers.user_id, userId))
      else await db.insert(dataProtectionOfficers).values({ user_id: userId }).onConflictDoNothing()
    },
  }
}

export type AuditRepo = ReturnType<typeof createAuditRepo>
