import { and, arrayContains, asc, count, desc, eq, gt, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { memberStatePeriods, memberStates, lineCalls, lineEventLeader } from '../../db/schema/index.js'
import { isoOrNull } from '../../lib/clock.js'
import { employeeNames } from '../employees/queries.js'
import { terminalDirectory, terminalOwner } from '../endpoints/queries.js'
import { configuredQueues, queueByAsteriskName } from '../call-routing/queries.js'
import { breakLimits } from '../agents/queries.js'
import { boardCallbacks, callbackFigures } from '../placed-calls/queries.js'
import { organizationIdByPrefix } from '../organizations/queries.js'
import { lineCallRecord } from './queries.js'
import { lineFigures, operatorFigures, queueFigures, stateTimes, terminalNames, waitingNow, type KpiScope } from './kpis.js'
import type { MemberState } from './member-tracker.js'
import type { LineCall } from './tracker.js'
import { MEMBER_INTERFACE_PREFIX, terminalOfMember } from '../../integrations/asterisk/names.js'

/** the board lists this many waiting callers at most (the count is whole) */
const MAX_WAITING_SHOWN = 200
/** a PBX's calls in progress at once, at the most (a gap's reconciliation reads no more) */
const MAX_IN_PROGRESS = 5000

/** what the service knows of a call's organization and queue */
export interface CallContext { organization_id: number | null, service_level_seconds: number | null, wrapup_seconds: number | null }

export interface LineCallFilter { organizationId?: number, outcome?: LineCall['outcome'], limit: number, offset: number }
/** the calls that began in a period (an export's) */
export interface PeriodFilter { organizationId?: number, queue?: string, outcome?: LineCall['outcome'], start: Date, end: Date }
/** the last call of an export's batch: the next reads on from it (newest first) */
export interface CallKey { startedAt: Date, linkedid: string }

/**
 * The calls an organization's managers list: those that reached it, in its own queue or passed on from
 * it (a row written without organization_ids, by an instance older than migration 0063, by its own)
 */
const reached = (organizationId: number | undefined) => organizationId === undefined
  ? undefined
  : or(eq(lineCalls.organization_id, organizationId), arrayContains(lineCalls.organization_ids, [organizationId]))

/** every organization the call reached: its own and those of the queues it was passed on from (a leg's unknown one is the call's, as in the figures) */
const organizationsReached = (call: LineCall, context: CallContext) =>
  [...new Set([context.organization_id, ...call.earlier_queues.map((q) => q.organization_id ?? context.organization_id)].filter((id): id is number => id !== null))].sort((a, b) => a - b)

const inPeriod = (f: PeriodFilter) => and(
  gte(lineCalls.started_at, f.start), lt(lineCalls.started_at, f.end),
  reached(f.organizationId),
  f.queue === undefined ? undefined : eq(lineCalls.queue, f.queue),
  f.outcome === undefined ? undefined : eq(lineCalls.outcome, f.outcome)
)

/** a write of an instance that no longer leads the events' reading: refused (DESIGN 9, fencing) */
export class StaleLeaderError extends Error {
  constructor () { super('another instance has taken the lead of Asterisk\'s events') }
}

type Writer = Pick<AppDb, 'insert' | 'execute'>

export function createLineCallRepo (db: AppDb) {
  /**
   * A page of calls and the count it is a page of, in one statement: the events write calls all the
   * time, and a count read apart could already include a call the page had not.
   */
  async function pageOfCalls (where: SQL | undefined, order: SQL[], limit: number, offset: number) {
    const rows = await db.select({ call: lineCalls, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(lineCalls).where(where).orderBy(...order).limit(limit).offset(offset)
    const total = rows[0]?.total ?? (offset === 0 ? 0 : (await db.select({ n: count() }).from(lineCalls).where(where))[0]!.n)
    return { items: rows.map((r) => r.call), total }
  }
  /** `write` in a transaction that holds the leader's row shared and finds `epoch` still there: a successor's raise waits for it, and refuses it after */
  const fenced = (epoch: number | undefined, write: (tx: Writer) => Promise<unknown>) => db.transaction(async (tx) => {
    const [leader] = await tx.select({ epoch: lineEventLeader.epoch }).from(lineEventLeader).for('share')
    if (epoch === undefined || leader?.epoch !== epoch) throw new StaleLeaderError()
    await write(tx)
  })
  return {
    /** the queues configured, listed on the board even before their first call */
    configuredQueues: (organizationId: number | undefined, limit: number) => configuredQueues(db, organizationId, limit),
    /** the longest each break reason may last (minutes) */
    breakLimits: () => breakLimits(db),
    callbackFigures: (organizationId: number | undefined, from: Date, to: Date) => callbackFigures(db, organizationId, from, to),
    boardCallbacks: (organizationId: number | undefined, since: Date, limit: number) => boardCallbacks(db, organizationId, since, limit),
    /** this instance leads the events' reading from now: the epoch it writes under, raised past its predecessor's (whose writes in flight finish first) */
    takeLead: async (): Promise<number> => (await db.insert(lineEventLeader).values({ epoch: 1 })
      .onConflictDoUpdate({ target: lineEventLeader.id, set: { epoch: sql`${lineEventLeader.epoch} + 1`, since: sql`now()` } })
      .returning({ epoch: lineEventLeader.epoch }))[0]!.epoch,
    /** the organization of a prefix now (a prefix may be changed, or freed and taken by another) */
    organizationOf: (prefix: string) => organizationIdByPrefix(db, prefix),
    /** the organization and timing of the queue Asterisk names so */
    queueOf: (name: string) => queueByAsteriskName(db, name),
    /**
     * Retention: the calls that began before the cutoff (their callers' numbers are personal data)
     * and the agents' state periods that ended before it. The queue figures' sums stay: the
     * triggers are told not to take the purged calls out of them.
     */
    purgeBefore: (cutoff: Date) => db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('appeals.keep_line_figures', 'on', true)`)
      const purgedCalls = await tx.delete(lineCalls).where(lt(lineCalls.started_at, cutoff)).returning({ linkedid: lineCalls.linkedid })
      const purgedPeriods = await tx.delete(memberStatePeriods).where(and(lt(memberStatePeriods.started_at, cutoff), lt(memberStatePeriods.ended_at, cutoff))).returning({ id: memberStatePeriods.id })
      return purgedCalls.length + purgedPeriods.length
    }),
    /** the call as it stands now: inserted at its first event, then updated; by the leader of `epoch` only */
    async save (call: LineCall, context: CallContext, epoch: number | undefined): Promise<void> {
      const { linkedid, organization_prefix: _prefix, ...rest } = call
      const row = {
        ...rest, ...context, organization_ids: organizationsReached(call, context), attempts: call.attempts.map((a) => ({ ...a, rung_at: a.rung_at.toISOString() })),
        earlier_queues: call.earlier_queues.map((l) => ({
          ...l, joined_at: l.joined_at.toISOString(), answered_at: l.answered_at?.toISOString() ?? null,
          organization_id: l.organization_id ?? null, service_level_seconds: l.service_level_seconds ?? null, wrapup_seconds: l.wrapup_seconds ?? null,
        })),
        legs: call.legs.map((l) => ({ ...l, started_at: l.started_at.toISOString(), ended_at: l.ended_at?.toISOString() ?? null })),
      }
      await fenced(epoch, (tx) => tx.insert(lineCalls).values({ linkedid, ...row }).onConflictDoUpdate({ target: lineCalls.linkedid, set: row }))
    },
    async list (f: LineCallFilter) {
      const where: SQL | undefined = and(reached(f.organizationId), f.outcome ? eq(lineCalls.outcome, f.outcome) : undefined)
      return pageOfCalls(where, [desc(lineCalls.started_at), desc(lineCalls.linkedid)], f.limit, f.offset)
    },
    /** how many calls of the period, counted up to `upTo` at most */
    countUpTo: async (f: PeriodFilter, upTo: number) =>
      (await db.select({ n: count() }).from(db.select({ one: sql`1` }).from(lineCalls).where(inPeriod(f)).limit(upTo).as('c')))[0]!.n,
    /** the calls of the period newest first, after `after` */
    exportRows: (f: PeriodFilter, after: CallKey | undefined, limit: number) => db.select().from(lineCalls)
      .where(and(inPeriod(f), after === undefined ? undefined : sql`(${lineCalls.started_at}, ${lineCalls.linkedid}) < (${after.startedAt.toISOString()}::timestamptz, ${after.linkedid})`))
      .orderBy(desc(lineCalls.started_at), desc(lineCalls.linkedid)).limit(limit),
    queueFigures: (scope: KpiScope) => queueFigures(db, scope),
    lineFigures: (scope: KpiScope) => lineFigures(db, scope),
    waitingNow: (scope: KpiScope, now: Date) => waitingNow(db, scope, now),
    operatorFigures: (scope: KpiScope) => operatorFigures(db, scope),
    stateTimes: (scope: KpiScope, now: Date) => stateTimes(db, scope, now),
    /** who works at each member's terminal: its employee's name, else the terminal's (by terminal id) */
    async memberNames (interfaces: string[]): Promise<Map<string, string | null>> {
      if (interfaces.length === 0) return new Map()
      const found = await terminalNames(db, interfaces.map(terminalOfMember).filter((id) => id !== undefined))
      return new Map(found.map((t) => [t.id, [t.last_name, t.first_name].filter(Boolean).join(' ') || t.terminal_name]))
    },
    /** a member's new state: kept as its state now, the period before it closed and its own opened, in one statement; by the leader of `epoch` only */
    async saveAgentState (a: MemberState, epoch: number | undefined): Promise<void> {
      const since = a.since.toISOString()
      await fenced(epoch, (tx) => tx.execute(sql`
        with kept as (
          insert into ${memberStates} (interface, member_name, state, reason, since, wrapup_until)
          values (${a.interface}, ${a.member_name}, ${a.state}, ${a.reason}, ${since}::timestamptz, ${isoOrNull(a.wrapup_until)}::timestamptz)
          on conflict (interface) do update set member_name = excluded.member_name, state = excluded.state, reason = excluded.reason,
            since = excluded.since, wrapup_until = excluded.wrapup_until
        ), closed as (
          update ${memberStatePeriods} set ended_at = ${since}::timestamptz where interface = ${a.interface} and ended_at is null
        )
        insert into ${memberStatePeriods} (interface, state, reason, started_at) values (${a.interface}, ${a.state}, ${a.reason}, ${since}::timestamptz)`))
    },
    /** the organization of a terminal (a member `PJSIP/<terminal>`) */
    terminalOrganization: async (terminalId: string) => (await terminalOwner(db, terminalId))?.organization_id ?? null,
    /** the members' states now, with their terminal's organization and who works at it; of one organization's terminals, or all */
    agentStatesNow (organizationId?: number) {
      const terminal = terminalDirectory(db)
      const employee = employeeNames(db)
      return db.select({
        interface: memberStates.interface, member_name: memberStates.member_name, state: memberStates.state, reason: memberStates.reason, since: memberStates.since,
        wrapup_until: memberStates.wrapup_until, terminal_id: terminal.id, organization_id: terminal.organization_id, terminal_name: terminal.name, phone: terminal.phone,
        last_name: employee.last_name, first_name: employee.first_name,
      }).from(memberStates)
        .leftJoin(terminal, sql`${memberStates.interface} = ${MEMBER_INTERFACE_PREFIX} || ${terminal.id}`)
        .leftJoin(employee, eq(employee.id, terminal.employee_id))
        .where(organizationId === undefined ? undefined : eq(terminal.organization_id, organizationId))
        .orderBy(asc(memberStates.interface))
    },
    /** the callers in a queue now, longest waiting first (a "waiting" call older than `since` is a missed hang-up) */
    waitingCallers: (organizationId: number | undefined, since: Date) => db.select({
      linkedid: lineCalls.linkedid, queue: lineCalls.queue, caller_number: lineCalls.caller_number, joined_at: lineCalls.joined_at, position: lineCalls.position,
      language: lineCalls.language, organization_id: lineCalls.organization_id,
    }).from(lineCalls).where(and(eq(lineCalls.outcome, 'waiting'), gt(lineCalls.joined_at, since), organizationId === undefined ? undefined : eq(lineCalls.organization_id, organizationId)))
      .orderBy(asc(lineCalls.joined_at)).limit(MAX_WAITING_SHOWN),
    /** the calls waiting or talking as kept, that joined between `since` and `before` (a status read at `before` knows them) */
    async inProgress (since: Date, before: Date): Promise<LineCall[]> {
      const rows = await db.select().from(lineCalls).where(and(
        isNull(lineCalls.ended_at), or(
          and(inArray(lineCalls.outcome, ['waiting', 'answered']), gt(lineCalls.joined_at, since), lt(lineCalls.joined_at, before)),
          and(eq(lineCalls.outcome, 'entered'), gt(lineCalls.started_at, since), lt(lineCalls.started_at, before))
        )
      )).limit(MAX_IN_PROGRESS)
      return rows.map(({ organization_id: _org, organization_ids: _reached, service_level_seconds: _sl, wrapup_seconds: _wrapup, reviewed_at: _at, reviewed_by: _by, review_comment: _comment, attempts, ...call }) => ({
        ...call, organization_prefix: null, language: call.language as LineCall['language'], menu_exit: call.menu_exit as LineCall['menu_exit'], attempts: attempts.map((a) => ({ ...a, rung_at: new Date(a.rung_at) })),
        earlier_queues: call.earlier_queues.map((l) => ({
          ...l, joined_at: new Date(l.joined_at), answered_by: l.answered_by ?? null, answered_at: l.answered_at ? new Date(l.answered_at) : null, talk_seconds: l.talk_seconds ?? null,
        })),
        legs: call.legs.map((l) => ({ ...l, number: l.number ?? null, started_at: new Date(l.started_at), ended_at: l.ended_at === null ? null : new Date(l.ended_at) })),
      }))
    },
    get: (linkedid: string) => lineCallRecord(db, linkedid),
    /** the supervisors' review list: calls scored 1 or 2 not yet reviewed, latest first */
    async awaitingReview (organizationId: number | undefined, limit: number, offset: number) {
      const where = and(sql`${lineCalls.rating} <= 2 and ${lineCalls.reviewed_at} is null`, organizationId === undefined ? undefined : eq(lineCalls.organization_id, organizationId))
      return pageOfCalls(where, [desc(lineCalls.ended_at), desc(lineCalls.linkedid)], limit, offset)
    },
    /** a low score reviewed: once, by one supervisor; undefined when the call is not (or no longer) awaiting review */
    markReviewed: async (linkedid: string, by: number, comment: string, at: Date) => (await db.update(lineCalls)
      .set({ reviewed_at: at, reviewed_by: by, review_comment: comment })
      .where(and(eq(lineCalls.linkedid, linkedid), sql`${lineCalls.rating} <= 2 and ${lineCalls.reviewed_at} is null`)).returning())[0],
  }
}

export type LineCallRepo = ReturnType<typeof createLineCallRepo>
