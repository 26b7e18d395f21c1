import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { lineCalls } from '../../db/schema/index.js'
import { organizationIdByPrefix } from '../organizations/queries.js'
import type { LineCall } from './tracker.js'

export interface LineCallFilter { organizationId?: number, outcome?: LineCall['outcome'], limit: number, offset: number }

export function createLineCallRepo (db: AppDb) {
  return {
    /** the organization of a prefix now (a prefix may be changed, or freed and taken by another) */
    organizationOf: (prefix: string) => organizationIdByPrefix(db, prefix),
    /** the call as it stands now: inserted at its first event, then updated */
    async save (call: LineCall, organizationId: number | null): Promise<void> {
      const { linkedid, organization_prefix: _prefix, ...rest } = call
      const row = { ...rest, organization_id: organizationId, attempts: call.attempts.map((a) => ({ ...a, rung_at: a.rung_at.toISOString() })) }
      await db.insert(lineCalls).values({ linkedid, ...row }).onConflictDoUpdate({ target: lineCalls.linkedid, set: row })
    },
    async list (f: LineCallFilter) {
      const where: SQL | undefined = and(f.organizationId === undefined ? undefined : eq(lineCalls.organization_id, f.organizationId), f.outcome ? eq(lineCalls.outcome, f.outcome) : undefined)
      const items = await db.select().from(lineCalls).where(where).orderBy(desc(lineCalls.started_at), desc(lineCalls.linkedid)).limit(f.limit).offset(f.offset)
      const total = (await db.select({ n: count() }).from(lineCalls).where(where))[0]!.n
      return { items, total }
    },
    get: async (linkedid: string) => (await db.select().from(lineCalls).where(eq(lineCalls.linkedid, linkedid)))[0],
  }
}

export type LineCallRepo = ReturnType<typeof createLineCallRepo>
