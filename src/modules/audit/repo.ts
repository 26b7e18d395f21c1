import { and, asc, count, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { dataProtectionOfficers, personalDataAccess, users, type PersonalDataAction, type PersonalDataSubject } from '../../db/schema/index.js'
import { CHAIN_START, chainHash, type ChainedFields } from './chain.js'

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

export function createAuditRepo (db: AppDb) {
  return {
    /** the records appended to the chain in the order given, one instance at a time */
    async append (entries: ChainedFields[], key: Buffer): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`)
        const [last] = await tx.select({ hash: personalDataAccess.hash }).from(personalDataAccess).orderBy(desc(personalDataAccess.id)).limit(1)
        let prev = last?.hash ?? CHAIN_START
        const rows = entries.map((e) => {
          const hash = chainHash(key, prev, e)
          const row = { ...e, prev_hash: prev, hash }
          prev = hash
          return row
        })
        await tx.insert(personalDataAccess).values(rows)
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

    async isOfficer (userId: number): Promise<boolean> {
      const [row] = await db.select({ id: dataProtectionOfficers.user_id }).from(dataProtectionOfficers).where(eq(dataProtectionOfficers.user_id, userId))
      return row !== undefined
    },

    /** grants (or with `revoke`, takes back) the audit's reading to an active employee; answers whether one was found */
    async setOfficer (email: string, revoke: boolean): Promise<boolean> {
      const [user] = await db.select({ id: users.id }).from(users).where(and(eq(users.email, email), eq(users.is_active, true)))
      if (!user) return false
      if (revoke) await db.delete(dataProtectionOfficers).where(eq(dataProtectionOfficers.user_id, user.id))
      else await db.insert(dataProtectionOfficers).values({ user_id: user.id }).onConflictDoNothing()
      return true
    },
  }
}

export type AuditRepo = ReturnType<typeof createAuditRepo>
