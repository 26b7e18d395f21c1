import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, lt, lte, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import type { NotifyMessage } from '../../db/notify.js'
import { appealCounters, appealEvents, appeals } from '../../db/schema/index.js'
import { callForAppeal, callTranscript } from '../call-events/queries.js'
import { connectedCallOfAppeal } from '../placed-calls/queries.js'
import { lineCallRecord } from '../line-calls/queries.js'
import { classificationName, subcategoryForAppealFact, type ClassificationLevel } from '../classifiers/queries.js'
import { employeeNames, employeeOrganization, employeeOrganizationFact, managerEmails, managerEmailsFact } from '../employees/queries.js'
import { organizationActiveFact, organizationName, organizationRoleFacts, organizationRunsFact } from '../organizations/queries.js'
import { enqueueNotifications, notificationsInsert, type NotificationInsert, type StatementNotification } from '../notifications/queries.js'
import { activeItemFact, insertPersonIfNew, itemName, personById, personByIin, personIdsWithIin, responseChannel } from '../references/queries.js'
import { regionFact, regionName, regionSubtree, topRegionId } from '../regions/queries.js'

/** DESIGN 7.2: the centre's staff are employees of an organization whose `modules` contain it */
export const CENTRE_MODULE = 'call_center'

export type AppealRow = Omit<typeof appeals.$inferSelect, 'search'>
export type AppealInsert = Omit<typeof appeals.$inferInsert, 'search'>
export type AppealEventInsert = typeof appealEvents.$inferInsert

export interface AppealFilter {
  /** only this executor's appeals (the caller is executor staff, not the centre's) */
  visibleTo?: number
  status?: AppealRow['status']
  executorOrganizationId?: number
  regionId?: number
  classifierId?: number
  appealTypeId?: number
  categoryId?: number
  subcategoryId?: number
  sourceId?: number
  operatorId?: number
  personId?: number
  overdue?: boolean
  receivedFrom?: Date
  receivedTo?: Date
  iin?: string
  phone?: string
  number?: string
  /** the end of a number (`000001`): found, or else the words */
  numberTail?: string
  /** the text as an IIN or a phone of the applicant: found, or else the words */
  textIin?: string
  textPhone?: string
  words?: string
  after?: { at: Date, id: number }
  limit: number
}

/** an inbox: one executor's (or, undefined, every executor's) appeals in hand */
export interface InboxFilter {
  executorOrganizationId?: number
  statuses: readonly AppealRow['status'][]
  overdue?: true
  employeeId?: number
  /** keyset: after this (close_due_at, id) */
  after?: { at: Date, id: number }
  limit: number
}
/** the appeals an executor holds: assigned, in work, answered awaiting the centre */
export const IN_HAND = ['assigned', 'in_work', 'answered'] as const
const OPEN_IN_HAND = ['assigned', 'in_work'] as const

export type Deadline = 'work' | 'close'
/** which deadline binds in which states, and the column that records its breach */
const DEADLINES = {
  work: { due: appeals.work_due_at, flag: appeals.work_overdue_at, open: ['registered', 'assigned'] },
  close: { due: appeals.close_due_at, flag: appeals.close_overdue_at, open: ['registered', 'assigned', 'in_work'] },
} as const

const { search: _search, ...appealColumns } = getTableColumns(appeals)

/** what an export row shows: the appeal with the names of what it refers to */
const exportColumns = {
  id: appeals.id,
  number: appeals.number,
  received_at: appeals.received_at,
  status: appeals.status,
  citizen_name: appeals.citizen_name,
  citizen_phone: appeals.citizen_phone,
  language: appeals.language,
  source: itemName('source', appeals.source_id),
  appeal_type: classificationName('appeal_type', appeals.appeal_type_id),
  category: classificationName('category', appeals.category_id),
  subcategory: classificationName('subcategory', appeals.subcategory_id),
  priority: appeals.priority,
  region: regionName(appeals.region_id),
  address: appeals.address,
  response_method: itemName('responseMethod', appeals.response_method_id),
  executor: organizationName<null>(appeals.executor_organization_id),
  work_due_at: appeals.work_due_at,
  close_due_at: appeals.close_due_at,
  work_overdue_at: appeals.work_overdue_at,
  close_overdue_at: appeals.close_overdue_at,
  answered_at: appeals.answered_at,
  closed_at: appeals.closed_at,
  is_repeat: appeals.is_repeat,
  text: appeals.text,
}

/** the list's order, written as its indexes are (drizzle's desc() indexes are NULLS LAST; ORDER BY ... DESC alone means NULLS FIRST and would not use them) */
const newestFirst = [sql`${appeals.received_at} desc nulls last`, sql`${appeals.id} desc nulls last`]
const overdue = or(isNotNull(appeals.work_overdue_at), isNotNull(appeals.close_overdue_at))!

/**
 * The search box's text: words of the applicant's name or the text; digits also the tail of a number
 * (through the reversed number's index), twelve digits the applicant's IIN, a phone number theirs.
 */
function freeText (f: AppealFilter): SQL | undefined {
  if (!f.words) return undefined
  return or(
    sql`${appeals.search} @@ (websearch_to_tsquery('russian', ${f.words}) || websearch_to_tsquery('simple', ${f.words}))`,
    // digits and dashes only: nothing to escape in the pattern
    f.numberTail ? sql`reverse(${appeals.number}) like ${[...f.numberTail].reverse().join('') + '%'}` : undefined,
    f.textIin ? inArray(appeals.person_id, personIdsWithIin(f.textIin)) : undefined,
    f.textPhone ? eq(appeals.citizen_phone, f.textPhone) : undefined
  )
}

function conditions (f: AppealFilter): (SQL | undefined)[] {
  const eqIf = <T>(column: Parameters<typeof eq>[0], value: T | undefined) => value === undefined ? undefined : eq(column, value)
  return [
    eqIf(appeals.executor_organization_id, f.visibleTo),
    eqIf(appeals.status, f.status),
    eqIf(appeals.executor_organization_id, f.executorOrganizationId),
    f.regionId === undefined ? undefined : inArray(appeals.region_id, regionSubtree(f.regionId)),
    eqIf(appeals.classifier_id, f.classifierId),
    eqIf(appeals.appeal_type_id, f.appealTypeId),
    eqIf(appeals.category_id, f.categoryId),
    eqIf(appeals.subcategory_id, f.subcategoryId),
    eqIf(appeals.source_id, f.sourceId),
    eqIf(appeals.operator_id, f.operatorId),
    eqIf(appeals.person_id, f.personId),
    f.overdue === undefined ? undefined : f.overdue ? overdue : sql`not (${overdue})`,
    f.receivedFrom ? gte(appeals.received_at, f.receivedFrom) : undefined,
    f.receivedTo ? lt(appeals.received_at, f.receivedTo) : undefined,
    f.iin ? inArray(appeals.person_id, personIdsWithIin(f.iin)) : undefined,
    eqIf(appeals.citizen_phone, f.phone),
    eqIf(appeals.number, f.number),
    freeText(f),
    // keyset: strictly after the last row of the previous page in (received_at desc, id desc)
    f.after ? or(lt(appeals.received_at, f.after.at), and(eq(appeals.received_at, f.after.at), lt(appeals.id, f.after.id))) : undefined,
  ]
}

/** what the statistics group by */
export type StatsDimension = 'total' | 'region' | 'executor' | ClassificationLevel
const dimensionKey: Record<Exclude<StatsDimension, 'total'>, SQL> = {
  region: topRegionId(appeals.region_id).getSQL(),
  executor: sql`${appeals.executor_organization_id}`,
  appeal_type: sql`${appeals.appeal_type_id}`,
  category: sql`${appeals.category_id}`,
  subcategory: sql`${appeals.subcategory_id}`,
}
const dimensionName: Record<Exclude<StatsDimension, 'total'>, (key: SQLWrapper) => SQL<string | null>> = {
  region: (key) => regionName(key),
  executor: (key) => organizationName<null>(key),
  appeal_type: (key) => classificationName('appeal_type', key),
  category: (key) => classificationName('category', key),
  subcategory: (key) => classificationName('subcategory', key),
}

export interface StatsRow {
  key: number | null
  name: string | null
  received: number
  answered: number
  answered_on_time: number
  closed: number
  overdue: number
  median_seconds_to_close: number | null
}

/** the measures of a period [from, to): what arrived, was answered (on time), closed, and missed a deadline */
function measures (from: string, to: string) {
  const within = (column: SQLWrapper) => sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`
  return {
    touched: or(within(appeals.received_at), within(appeals.answered_at), within(appeals.closed_at))!,
    columns: {
      received: sql<number>`(count(*) filter (where ${within(appeals.received_at)}))::int`.as('received'),
      answered: sql<number>`(count(*) filter (where ${within(appeals.answered_at)}))::int`.as('answered'),
      answered_on_time: sql<number>`(count(*) filter (where ${within(appeals.answered_at)} and ${appeals.answered_at} <= ${appeals.close_due_at}))::int`.as('answered_on_time'),
      closed: sql<number>`(count(*) filter (where ${appeals.status} = 'closed' and ${within(appeals.closed_at)}))::int`.as('closed'),
      overdue: sql<number>`(count(*) filter (where ${within(appeals.received_at)} and ${overdue}))::int`.as('overdue'),
      median_seconds_to_close: sql<number | null>`(percentile_cont(0.5) within group (order by extract(epoch from ${appeals.closed_at} - ${appeals.received_at})) filter (where ${appeals.status} = 'closed' and ${within(appeals.closed_at)}))::float8`.as('median_seconds_to_close'),
    },
  }
}

export function createAppealRepo<D extends AppDb> (db: D) {
  return {
    // what registration and the transitions check, through the owners' queries
    organization: (id: number) => organizationRoleFacts(db, id),
    employeeOrganization: (id: number) => employeeOrganization(db, id),
    person: (id: number) => personById(db, id),
    personByIin: (iin: string) => personByIin(db, iin),
    insertPersonIfNew: (values: Parameters<typeof insertPersonIfNew>[1]) => insertPersonIfNew(db, values),
    call: (id: number) => callForAppeal(db, id),
    callTranscript: (id: number) => callTranscript(db, id),
    /** the line's record of a call (its telephony id is the Linkedid) */
    lineCall: (callId: string) => lineCallRecord(db, callId),
    /** a call placed for the appeal (an answer by phone names it) */
    placedCall: (callId: number, appealId: number) => connectedCallOfAppeal(db, callId, appealId),
    /**
     * What registration needs to know before it writes, in one round trip: whether the registering
     * employee's organization is the centre, the subcategory, whether the references it names exist
     * and are active, the executor's managers.
     */
    registrationFacts: async (r: { actorOrganizationId: number | null, subcategoryId: number, sourceId: number, methodId: number, regionId?: number | null, executorId?: number, employeeId?: number | null }) => {
      const none = sql<null>`null`
      return (await db.select({
        centre: r.actorOrganizationId === null ? none : organizationRunsFact(r.actorOrganizationId, CENTRE_MODULE),
        subcategory: subcategoryForAppealFact(r.subcategoryId),
        source: activeItemFact('source', r.sourceId),
        method: activeItemFact('responseMethod', r.methodId),
        region: r.regionId == null ? none : regionFact(r.regionId),
        executorActive: r.executorId === undefined ? none : organizationActiveFact(r.executorId),
        employeeOrganization: r.employeeId == null ? none : employeeOrganizationFact(r.employeeId),
        managers: r.executorId === undefined ? none : managerEmailsFact(r.executorId),
      }).from(sql`(values (1)) as one (x)`))[0]!
    },
    managerEmails: (organizationId: number) => managerEmails(db, organizationId),
    responseChannel: (responseMethodId: number) => responseChannel(db, responseMethodId),
    /** notices into the outbox, in this repo's transaction */
    enqueue: (rows: NotificationInsert[], at: Date) => enqueueNotifications(db, rows, at),

    /**
     * Marks the open appeals whose deadline passed, each breach once: rows another instance is marking
     * are skipped (skip locked) and the flag is re-checked under the row lock.
     */
    markOverdue: inTransactionOnly(db, async (tx, deadline: Deadline, now: Date, batch: number) => {
      const { due, flag, open } = DEADLINES[deadline]
      const claimed = tx.select({ id: appeals.id }).from(appeals)
        .where(and(inArray(appeals.status, [...open]), sql`${flag} is null`, lte(due, now)))
        .orderBy(asc(due)).limit(batch).for('update', { skipLocked: true })
      return tx.update(appeals).set({ [flag.name]: now }).where(and(inArray(appeals.id, claimed), sql`${flag} is null`))
        .returning({ id: appeals.id, number: appeals.number, status: appeals.status, executor_organization_id: appeals.executor_organization_id, work_due_at: appeals.work_due_at, close_due_at: appeals.close_due_at, due_at: due })
    }),
    addEvents: async (values: AppealEventInsert[]): Promise<number[]> => values.length === 0 ? [] : (await db.insert(appealEvents).values(values).returning({ id: appealEvents.id })).map((r) => r.id),
    /** the earliest deadline not yet marked, if any */
    nextDeadline: async (): Promise<Date | undefined> => {
      const next = await Promise.all((Object.keys(DEADLINES) as Deadline[]).map(async (d) => {
        const { due, flag, open } = DEADLINES[d]
        return (await db.select({ at: due }).from(appeals).where(and(inArray(appeals.status, [...open]), sql`${flag} is null`)).orderBy(asc(due)).limit(1))[0]?.at
      }))
      return next.filter((d): d is Date => d !== undefined).sort((a, b) => a.getTime() - b.getTime())[0]
    },

    /**
     * Registration's writes as one statement, atomic by itself: the appeal numbered from the year's
     * counter (`109-YYYY-NNNNNN`, more digits past the millionth), its history rows, and the notices
     * written over the appeal's id and number as the statement gives them (their texts concatenate
     * literal pieces and those values in SQL: nothing is patched). The counter row is locked until the statement's
     * transaction ends, so numbers have no gaps; outside a transaction that is at once.
     */
    async registerAppeal (values: RegistrationValues, year: number, events: Omit<AppealEventInsert, 'appeal_id'>[], notices: RegistrationNotices, at: Date, announcement: NotifyMessage): Promise<AppealRow> {
      const next = db.$with('next').as(db.insert(appealCounters).values({ year, last_number: 1 })
        .onConflictDoUpdate({ target: appealCounters.year, set: { last_number: sql`${appealCounters.last_number} + 1` } })
        .returning({ last_number: appealCounters.last_number }))
      const number = sql<string>`${`109-${year}-`} || (select lpad(last_number::text, greatest(6, length(last_number::text)), '0') from ${next})`
      const inserted = db.$with('inserted').as(db.insert(appeals).values({ ...values, number }).returning(appealColumns))
      const id = sql<number>`(select id from ${inserted})`
      const history = db.$with('history').as(db.insert(appealEvents).values(events.map((e) => ({ ...e, appeal_id: id }))).returning({ id: appealEvents.id }))
      // a CTE that only selects runs when the statement reads it: the where below does
      const announced = db.$with('announced').as(db.select({
        sent: sql`pg_notify(${announcement.channel}, (${announcement.payload}::jsonb || jsonb_build_object('appeal_id', ${inserted.id}, 'number', ${inserted.number}))::text)`.as('sent'),
      }).from(inserted))
      const told = notices({ id, number: sql`(select number from ${inserted})` })
      const statement = told.length === 0
        ? db.with(next, inserted, history, announced)
        : db.with(next, inserted, history, announced, db.$with('told').as(notificationsInsert(db, told, at, id)))
      return (await statement.select().from(inserted).where(sql`exists (select from ${announced})`))[0]! as AppealRow
    },
    lock: inTransactionOnly(db, async (tx, id: number): Promise<AppealRow | undefined> =>
      (await tx.select(appealColumns).from(appeals).where(eq(appeals.id, id)).for('update'))[0]),
    find: async (id: number): Promise<AppealRow | undefined> => (await db.select(appealColumns).from(appeals).where(eq(appeals.id, id)))[0],
    update: async (id: number, values: Partial<AppealInsert>): Promise<AppealRow> =>
      (await db.update(appeals).set({ ...values, updated_at: sql`now()` }).where(eq(appeals.id, id)).returning(appealColumns))[0]!,
    /** keeps a review with the answer it reviewed: not when the answer was returned or replaced meanwhile */
    setAnswerCheck: async (id: number, answeredAt: Date, check: Record<string, unknown>) => (await db.update(appeals).set({ answer_check: check })
      .where(and(eq(appeals.id, id), eq(appeals.answered_at, answeredAt))).returning({ id: appeals.id })).length > 0,
    addEvent: async (values: AppealEventInsert): Promise<number> => (await db.insert(appealEvents).values(values).returning({ id: appealEvents.id }))[0]!.id,
    /** the appeal's history, each step with who took it (null: the service itself, or an employee since deleted) */
    history: (id: number) => {
      const actor = employeeNames(db)
      return db.select({ ...getTableColumns(appealEvents), actor_name: sql<string | null>`nullif(trim(concat_ws(' ', ${actor.last_name}, ${actor.first_name})), '')` })
        .from(appealEvents).leftJoin(actor, eq(actor.id, appealEvents.actor_id))
        .where(eq(appealEvents.appeal_id, id)).orderBy(asc(appealEvents.id))
    },
    /** the period's measures, in all or per group of a dimension (the largest groups first, at most `limit`) */
    async stats (f: Omit<AppealFilter, 'limit'>, from: Date, to: Date, dimension: StatsDimension, limit: number): Promise<StatsRow[]> {
      const m = measures(from.toISOString(), to.toISOString())
      const where = and(m.touched, ...conditions({ ...f, limit }))
      if (dimension === 'total') {
        return (await db.select(m.columns).from(appeals).where(where)).map((r) => ({ key: null, name: null, ...r }))
      }
      const key = dimensionKey[dimension]
      const g = db.select({ key: sql<number | null>`${key}`.as('key'), ...m.columns }).from(appeals).where(where).groupBy(key).as('grouped')
      return db.select({
        key: g.key, name: dimensionName[dimension](g.key), received: g.received, answered: g.answered, answered_on_time: g.answered_on_time,
        closed: g.closed, overdue: g.overdue, median_seconds_to_close: g.median_seconds_to_close,
      }).from(g).orderBy(desc(g.received), asc(g.key)).limit(limit)
    },
    /** appeals received and closed per local day of the centre */
    async daily (f: Omit<AppealFilter, 'limit'>, from: Date, to: Date, timeZone: string) {
      const m = measures(from.toISOString(), to.toISOString())
      const where = and(m.touched, ...conditions({ ...f, limit: 0 }))
      const day = (column: SQLWrapper) => sql<string>`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD')`
      const [received, closed] = await Promise.all([
        db.select({ day: day(appeals.received_at), n: sql<number>`count(*)::int` }).from(appeals)
          .where(and(where, sql`${appeals.received_at} >= ${from.toISOString()}::timestamptz and ${appeals.received_at} < ${to.toISOString()}::timestamptz`)).groupBy(sql`1`),
        db.select({ day: day(appeals.closed_at), n: sql<number>`count(*)::int` }).from(appeals)
          .where(and(where, eq(appeals.status, 'closed'), sql`${appeals.closed_at} >= ${from.toISOString()}::timestamptz and ${appeals.closed_at} < ${to.toISOString()}::timestamptz`)).groupBy(sql`1`),
      ])
      return { received, closed }
    },
    exportRows: (f: AppealFilter) => db.select(exportColumns).from(appeals).where(and(...conditions(f)))
      .orderBy(...newestFirst).limit(f.limit),
    /** how many appeals the filter matches, counted no further than `cap` */
    countUpTo: async (f: Omit<AppealFilter, 'limit'>, cap: number) => (await db.select({ n: sql<number>`count(*)::int` })
      .from(db.select({ id: appeals.id }).from(appeals).where(and(...conditions({ ...f, limit: cap }))).limit(cap).as('matched')))[0]!.n,
    /** an inbox's page, the nearest answer deadline first (through appeals_inbox_idx) */
    inbox: (f: InboxFilter): Promise<AppealRow[]> => db.select(appealColumns).from(appeals).where(and(
      f.executorOrganizationId === undefined ? undefined : eq(appeals.executor_organization_id, f.executorOrganizationId),
      inArray(appeals.status, [...f.statuses]),
      f.overdue ? overdue : undefined,
      f.employeeId === undefined ? undefined : eq(appeals.executor_employee_id, f.employeeId),
      f.after ? or(gt(appeals.close_due_at, f.after.at), and(eq(appeals.close_due_at, f.after.at), gt(appeals.id, f.after.id))) : undefined
    )).orderBy(asc(appeals.close_due_at), asc(appeals.id)).limit(f.limit),
    /** how many appeals an inbox holds in each of its views, in one pass over the executor's appeals in hand */
    inboxCounts: async (executorOrganizationId: number | undefined, employeeId: number) => {
      const open = inArray(appeals.status, [...OPEN_IN_HAND])
      const count = (where: SQL) => sql<number>`(count(*) filter (where ${where}))::int`
      return (await db.select({
        assigned: count(eq(appeals.status, 'assigned')),
        in_work: count(eq(appeals.status, 'in_work')),
        answered: count(eq(appeals.status, 'answered')),
        overdue: count(and(open, overdue)!),
        mine: count(and(open, eq(appeals.executor_employee_id, employeeId))!),
      }).from(appeals).where(and(
        executorOrganizationId === undefined ? undefined : eq(appeals.executor_organization_id, executorOrganizationId),
        inArray(appeals.status, [...IN_HAND])
      )))[0]!
    },
    list: (f: AppealFilter): Promise<AppealRow[]> => db.select(appealColumns).from(appeals).where(and(...conditions(f)))
      .orderBy(...newestFirst).limit(f.limit),
    /** an earlier appeal of the same citizen (person, or phone when anonymous) on the same subcategory since `since` */
    /** the repeat flag as the registration's own subquery: the citizen's appeals on the subcategory in the window */
    repeatFlag: (c: { personId: number | null, phone: string | null, subcategoryId: number, since: Date, before: Date }): SQL<boolean> | false => {
      const citizen = c.personId !== null ? eq(appeals.person_id, c.personId) : c.phone !== null ? eq(appeals.citizen_phone, c.phone) : undefined
      if (!citizen) return false
      return sql<boolean>`exists(${db.select({ id: appeals.id }).from(appeals)
        .where(and(citizen, eq(appeals.subcategory_id, c.subcategoryId), gte(appeals.received_at, c.since), lte(appeals.received_at, c.before), ne(appeals.status, 'rejected')))
        .limit(1)})`
    },
  }
}

/** an appeal to register: the statement numbers it, and may work out the repeat flag itself */
export type RegistrationValues = Omit<AppealInsert, 'number' | 'is_repeat'> & { is_repeat: boolean | SQL<boolean> }
/** the notices a registration sends, over the appeal's id and number as its statement gives them */
export type RegistrationNotices = (appeal: { id: SQL, number: SQL }) => StatementNotification[]

export type AppealRepo = ReturnType<typeof createAppealRepo<AppDb>>
export type ExportRow = Awaited<ReturnType<AppealRepo['exportRows']>>[number]
export type AppealTxRepo = ReturnType<typeof createAppealRepo<TxDb>>
