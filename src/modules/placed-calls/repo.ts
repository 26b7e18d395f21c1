import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import { selectRows, type AppDb } from '../../db/client.js'
import { callbackRequests, livePlacedCallStatuses, placedCalls } from '../../db/schema/index.js'
import { lineByNumber, lineSchedule, organizationQueue, organizationQueues, queueByAsteriskName } from '../call-routing/queries.js'
import { employeeTerminals, terminalAllowsLongDistance, terminalOwner } from '../endpoints/queries.js'
import { organizationDialFacts } from '../organizations/queries.js'
import { personByPhone } from '../references/queries.js'
import { dialAreaOf } from '../regions/queries.js'
import { outboundRoutesOf } from '../trunks/queries.js'

export type PlacedCallRow = typeof placedCalls.$inferSelect
export type CallbackRow = typeof callbackRequests.$inferSelect
export type CallbackChange = Partial<Pick<CallbackRow, 'status' | 'attempts' | 'next_attempt_at' | 'placed_call_id' | 'placed_at' | 'reached_at' | 'failed_at' | 'reason'>>
export type PlacedCallChange = Partial<Pick<PlacedCallRow, 'status' | 'failed_side' | 'reason' | 'answered_at' | 'connected_at' | 'ended_at' | 'talk_seconds'>>

const live = inArray(placedCalls.status, [...livePlacedCallStatuses])

export function createPlacedCallRepo (db: AppDb) {
  return {
    terminalsOf: (employeeId: number) => employeeTerminals(db, { employeeId }),
    terminal: (id: string) => terminalOwner(db, id),
    lineByNumber: (number: string) => lineByNumber(db, number),
    /** the organization's queues a call may be passed to, and one of them */
    queuesOf: (organizationId: number, limit: number) => organizationQueues(db, organizationId, limit),
    queue: (organizationId: number, queueId: number) => organizationQueue(db, organizationId, queueId),
    allowsLongDistance: (terminalId: string) => terminalAllowsLongDistance(db, terminalId),
    organization: (id: number) => organizationDialFacts(db, id),
    dialArea: (regionId: number | null) => dialAreaOf(db, regionId),
    routesOf: async (organizationId: number) => (await outboundRoutesOf(db, [organizationId])).get(organizationId),
    personByPhone: (phone: string) => personByPhone(db, phone),
    /** the user's call being placed, if any */
    liveOf: async (employeeId: number) => (await db.select().from(placedCalls).where(and(eq(placedCalls.employee_id, employeeId), live)))[0],
    /** a new call; undefined when the user has one being placed already (the unique index) */
    async insert (values: typeof placedCalls.$inferInsert): Promise<PlacedCallRow | undefined> {
      return (await db.insert(placedCalls).values(values).onConflictDoNothing().returning())[0]
    },
    /** the next call's id: its Linkedid is made of it before the row is written */
    nextId: async () => Number((await selectRows<{ id: string }>(db, sql`select nextval(pg_get_serial_sequence('placed_calls', 'id')) as id`))[0]!.id),
    get: async (id: number) => (await db.select().from(placedCalls).where(eq(placedCalls.id, id)))[0],
    /** a change to a call still live (a late event of an ended call changes nothing); the row as it is then, or undefined */
    async change (id: number, change: PlacedCallChange, onlyFrom?: readonly PlacedCallRow['status'][]): Promise<PlacedCallRow | undefined> {
      // the user's answer is the first heard of it (Originate's answer and the dialling race)
      const answered = change.answered_at ? { answered_at: sql`coalesce(${placedCalls.answered_at}, ${change.answered_at.toISOString()}::timestamptz)` } : {}
      return (await db.update(placedCalls).set({ ...change, ...answered })
        .where(and(eq(placedCalls.id, id), onlyFrom ? inArray(placedCalls.status, [...onlyFrom]) : live)).returning())[0]
    },
    /** calls of an organization, of a user, of an appeal: the latest first */
    list: (of: { organizationId?: number, employeeId?: number, appealId?: number, before?: number, limit: number }) =>
      db.select().from(placedCalls)
        .where(and(
          of.organizationId === undefined ? undefined : eq(placedCalls.organization_id, of.organizationId),
          of.employeeId === undefined ? undefined : eq(placedCalls.employee_id, of.employeeId),
          of.appealId === undefined ? undefined : eq(placedCalls.appeal_id, of.appealId),
          of.before === undefined ? undefined : lt(placedCalls.id, of.before)
        ))
        .orderBy(desc(placedCalls.id)).limit(of.limit),
    /** the live calls whose every channel is gone (a hang-up not heard): given up */
    async closeLost (ids: number[], at: Date): Promise<void> {
      if (ids.length === 0) return
      await db.update(placedCalls).set({ status: sql`case when ${placedCalls.status} = 'connected' then 'ended' else 'failed' end`, reason: 'lost', ended_at: at })
        .where(and(inArray(placedCalls.id, ids), live))
    },
  }
}

export type PlacedCallRepo = ReturnType<typeof createPlacedCallRepo>

/** the callback requests: their list in each queue, their claims by the one instance that places them */
export function createCallbackRepo (db: AppDb) {
  return {
    queue: (name: string) => queueByAsteriskName(db, name),
    lineSchedule: (number: string) => lineSchedule(db, number),
    /** a request; undefined when the call asked already (one a call) */
    insert: async (values: typeof callbackRequests.$inferInsert) => (await db.insert(callbackRequests).values(values).onConflictDoNothing().returning())[0],
    /** the requests due now, in their places */
    due: (now: Date, limit: number) => db.select().from(callbackRequests)
      .where(and(eq(callbackRequests.status, 'waiting'), lte(callbackRequests.next_attempt_at, now))).orderBy(asc(callbackRequests.joined_at), asc(callbackRequests.id)).limit(limit),
    /** a change from one status (the claim, the settling): undefined when it was not in it any more */
    change: async (id: number, from: CallbackRow['status'], change: CallbackChange) =>
      (await db.update(callbackRequests).set(change).where(and(eq(callbackRequests.id, id), eq(callbackRequests.status, from))).returning())[0],
    /**
     * The requests being placed that wait for the placer: their attempt connected or ended (its end
     * missed), or no attempt made since a claim older than `claimedBefore` (a crash or a failed write
     * between the claim and the call). The attempt is found by its request, not by `placed_call_id`,
     * which a failure may have left unwritten; requests still ringing are not read at all.
     */
    unsettled: (claimedBefore: Date, limit: number) => {
      const latestAttempt = sql`(select a.id from placed_calls a where a.callback_id = ${callbackRequests.id} and a.placed_at >= ${callbackRequests.placed_at} order by a.id desc limit 1)`
      return db.select({ request: callbackRequests, call: placedCalls }).from(callbackRequests)
        .leftJoin(placedCalls, eq(placedCalls.id, latestAttempt))
        .where(and(eq(callbackRequests.status, 'placing'), or(
          isNotNull(placedCalls.ended_at), isNotNull(placedCalls.connected_at),
          and(isNull(placedCalls.id), lt(callbackRequests.placed_at, claimedBefore)))))
        .orderBy(asc(callbackRequests.id)).limit(limit)
    },
    get: async (id: number) => (await db.select().from(callbackRequests).where(eq(callbackRequests.id, id)))[0],
  }
}

export type CallbackRepo = ReturnType<typeof createCallbackRepo>
