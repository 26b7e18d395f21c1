import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import { selectRows, type AppDb } from '../../db/client.js'
import { livePlacedCallStatuses, placedCalls } from '../../db/schema/index.js'
import { employeeTerminals, terminalAllowsLongDistance, terminalOwner } from '../endpoints/queries.js'
import { organizationDialFacts } from '../organizations/queries.js'
import { personByPhone } from '../references/queries.js'
import { dialAreaOf } from '../regions/queries.js'
import { outboundRoutesOf } from '../trunks/queries.js'

export type PlacedCallRow = typeof placedCalls.$inferSelect
export type PlacedCallChange = Partial<Pick<PlacedCallRow, 'status' | 'failed_side' | 'reason' | 'answered_at' | 'connected_at' | 'ended_at' | 'talk_seconds'>>

const live = inArray(placedCalls.status, [...livePlacedCallStatuses])

export function createPlacedCallRepo (db: AppDb) {
  return {
    terminalsOf: (employeeId: number) => employeeTerminals(db, { employeeId }),
    terminal: (id: string) => terminalOwner(db, id),
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
