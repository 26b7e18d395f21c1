import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { lineCalls } from '../../db/schema/index.js'
import { queueByAsteriskName } from '../call-routing/queries.js'
import { organizationIdByPrefix } from '../organizations/queries.js'
import { operatorOf } from './figures.js'
import { operatorFigures, queueFigures, terminalNames, waitingNow, type KpiScope, type OperatorRow } from './kpis.js'
import type { LineCall } from './tracker.js'

/** what the service knows of a call's organization and queue */
export interface CallContext { organization_id: number | null, service_level_seconds: number | null, wrapup_seconds: number | null }

export interface LineCallFilter { organizationId?: number, outcome?: LineCall['outcome'], limit: number, offset: number }

export function createLineCallRepo (db: AppDb) {
  return {
    /** the organization of a prefix now (a prefix may be changed, or freed and taken by another) */
    organizationOf: (prefix: string) => organizationIdByPrefix(db, prefix),
    /** the organization and timing of the queue Asterisk names so */
    queueOf: (name: string) => queueByAsteriskName(db, name),
    /** the call as it stands now: inserted at its first event, then updated */
    async save (call: LineCall, context: CallContext): Promise<void> {
      const { linkedid, organization_prefix: _prefix, ...rest } = call
      const row = { ...rest, ...context, attempts: call.attempts.map((a) => ({ ...a, rung_at: a.rung_at.toISOString() })) }
      await db.insert(lineCalls).values({ linkedid, ...row }).onConflictDoUpdate({ target: lineCalls.linkedid, set: row })
    },
    async list (f: LineCallFilter) {
      const where: SQL | undefined = and(f.organizationId === undefined ? undefined : eq(lineCalls.organization_id, f.organizationId), f.outcome ? eq(lineCalls.outcome, f.outcome) : undefined)
      const items = await db.select().from(lineCalls).where(where).orderBy(desc(lineCalls.started_at), desc(lineCalls.linkedid)).limit(f.limit).offset(f.offset)
      const total = (await db.select({ n: count() }).from(lineCalls).where(where))[0]!.n
      return { items, total }
    },
    queueFigures: (scope: KpiScope) => queueFigures(db, scope),
    waitingNow: (scope: KpiScope, now: Date) => waitingNow(db, scope, now),
    operatorFigures: (scope: KpiScope) => operatorFigures(db, scope),
    /** the operators' figures with who each terminal is: its employee's name, else the terminal's */
    async namedOperators (rows: OperatorRow[]) {
      const found = await terminalNames(db, rows.map((r) => /^PJSIP\/(.+)$/.exec(r.interface)?.[1]).filter((id) => id !== undefined))
      const names = new Map(found.map((t) => [t.id, [t.last_name, t.first_name].filter(Boolean).join(' ') || t.terminal_name]))
      return rows.map((r) => operatorOf(r, names))
    },
    get: async (linkedid: string) => (await db.select().from(lineCalls).where(eq(lineCalls.linkedid, linkedid)))[0],
  }
}

export type LineCallRepo = ReturnType<typeof createLineCallRepo>
