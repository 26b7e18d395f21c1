import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, ne, or, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm'
import { inTransactionOnly, preparedStatement, type AppDb, type TxDb } from '../../db/client.js'
import { callChunks, calls, consolePresence } from '../../db/schema/index.js'
import { employeeNames } from '../employees/queries.js'
import { terminalDirectory, terminalOwner } from '../endpoints/queries.js'
import { organizationNames } from '../organizations/queries.js'
import { telephonyEnabled } from '../platform/queries.js'
import { personById, personByPhone } from '../references/queries.js'
import { MAX_CHUNK_IN_EVENT } from './live.js'

export type CallRow = typeof calls.$inferSelect
export type CallSource = CallRow['source']

// Any constant: the same for every instance of the service.
const ANSWER_LOCK = 7_351_035
/** a chunk of a batch, `ord` its place in the batch, `fingerprint` its SHA-256 in hex */
export interface BatchChunk { ord: number, call_id: string, channel: string, chunk_text: string, full_text: string, is_final: boolean, fingerprint: string }
/** what came of it: no `call_row_id` while its call is not named; `seq` when stored; else a duplicate, or refused when `closed_before` */
export interface BatchOutcome { ord: number, call_row_id: number | null, seq: number | null, duplicate: boolean, closed_before: boolean }

export interface CallFilter {
  operatorNum?: string
  organizationId?: number
  employeeId?: number
  phone?: string
  from?: Date
  to?: Date
  skip: number
  limit: number
}

/** a JSON object's text as JSON.stringify writes it (no spaces), its keys in this order: what the live events look like when the service builds them */
function compactJson (fields: Record<string, SQL>): SQL {
  const members = Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${JSON.stringify(key)}:'`)} || coalesce(to_json(${value})::text, 'null')`)
  return sql`('{' || ${sql.join(members, sql` || ',' || `)} || '}')`
}

/**
 * A batch of chunks in one statement, so in one round trip and its own transaction. In arrival
 * order (`ord`), each chunk of a named call is a duplicate (its fingerprint stored already, or
 * taken by an earlier chunk of the batch), refused (its call closed before it), or stored with the
 * call's next number; a call's first final chunk closes it. The calls are locked in id order; the
 * chunks, each call's transcript and final state, and one live event per stored chunk (sent with
 * the commit) are written at once. Another instance writing the same call at the same moment makes
 * a unique index refuse the statement: the caller then stores the chunks again one by one.
 * A chunk of a call not named yet comes back with no `call_row_id`.
 */
export const appendChunksStatement = ({ chunks, receivedAt, channel }: { chunks: SQL | Placeholder, receivedAt: SQL | Placeholder, channel: SQL | Placeholder }) => sql`
  with input as (
    -- the fingerprint comes as hex and is kept as its 32 bytes: compared byte for byte, half the index of its text
    select x.ord, x.call_id, x.channel, x.chunk_text, x.full_text, x.is_final, decode(x.fingerprint, 'hex') as fingerprint
      from jsonb_to_recordset(${chunks}::jsonb)
      as x(ord int, call_id text, channel text, chunk_text text, full_text text, is_final boolean, fingerprint text)
  ), locked as (
    select c.id, c.call_id, c.is_final, c.organization_id, c.employee_id, c.operator_num,
      coalesce((select max(k.seq) from ${callChunks} k where k.call_row_id = c.id), 0) as last_seq
      -- = any(array(...)), not in (select ...): PostgreSQL takes the batch for a hundred rows (any set-returning
      -- function's guess) and would read all the calls once a batch rather than look up that many
      from ${calls} c where c.call_id = any (array(select call_id from input)) order by c.id for update
  ), marked as (
    -- every column but full_text, which can be tens of kilobytes: the CTEs below copy their rows, the transcript is taken from input once
    select i.ord, i.call_id, i.channel, i.chunk_text, i.is_final, i.fingerprint, l.id as call_row_id, l.is_final as call_final, l.last_seq, l.organization_id, l.employee_id, l.operator_num,
      -- a scalar subquery, not exists(): PostgreSQL may run an exists() here once, as a hash of the whole
      -- table, when its statistics call it small, and on a young table they lag far behind it
      (select true from ${callChunks} k where k.call_row_id = l.id and k.fingerprint = i.fingerprint) is not null as stored,
      min(i.ord) over (partition by l.id, i.fingerprint) as first_of_kind
      from input i join locked l on l.call_id = i.call_id
  ), closing as (
    -- a chunk is new when its fingerprint is neither stored nor taken earlier in the batch; the call's first new final closes it
    select m.*, not m.stored and m.ord = m.first_of_kind as new,
      min(m.ord) filter (where not m.stored and m.ord = m.first_of_kind and m.is_final) over (partition by m.call_row_id) as closed_by
      from marked m
  ), judged as (
    select c.*,
      not c.call_final and c.new and c.ord <= coalesce(c.closed_by, c.ord) as accepted,
      -- an earlier copy in the batch counts only if it was stored itself (not refused as too late)
      c.stored or (c.ord > c.first_of_kind and not c.call_final and c.first_of_kind <= coalesce(c.closed_by, c.first_of_kind)) as duplicate,
      c.call_final or coalesce(c.closed_by < c.ord, false) as closed_before
      from closing c
  ), accepted as (
    select j.*, j.last_seq + row_number() over (partition by j.call_row_id order by j.ord) as seq from judged j where j.accepted
  ), added as (
    insert into ${callChunks} (call_row_id, seq, channel, chunk_text, is_final, fingerprint, received_at)
      select a.call_row_id, a.seq, a.channel, a.chunk_text, a.is_final, a.fingerprint, ${receivedAt}::timestamptz from accepted a
  ), changed as (
    update ${calls} set transcript = a.full_text, is_final = a.is_final,
      closed_at = case when a.is_final then coalesce(${calls.closed_at}, ${receivedAt}::timestamptz) else ${calls.closed_at} end
      from (select distinct on (a.call_row_id) a.call_row_id, a.is_final, i.full_text from accepted a join input i on i.ord = a.ord
        order by a.call_row_id, a.ord desc) a where ${calls.id} = a.call_row_id
  ), announced as (
    select pg_notify(${channel}, e.payload) from (
      select ${compactJson({
        type: sql`case when a.is_final then 'call.final' else 'call.transcription' end`, organization_id: sql`a.organization_id`,
        employee_id: sql`a.employee_id`, call_id: sql`a.call_id`, call_row_id: sql`a.call_row_id`, operator_num: sql`a.operator_num`, seq: sql`a.seq`,
        channel: sql`a.channel`, chunk_text: sql`left(a.chunk_text, ${MAX_CHUNK_IN_EVENT}::int)`, truncated: sql`length(a.chunk_text) > ${MAX_CHUNK_IN_EVENT}::int`,
      })} as payload from accepted a order by a.ord) e
  )
  -- "announced" is read here only so that it runs: a WITH query no one reads is skipped, its notifications with it
  select i.ord, j.call_row_id, a.seq, coalesce(j.duplicate, false) as duplicate, coalesce(j.closed_before, false) as closed_before,
      (select count(*) from announced)::int as announced
    from input i left join judged j on j.ord = i.ord left join accepted a on a.ord = i.ord
    order by i.ord`

const appendStatement = (db: AppDb) => preparedStatement<BatchOutcome>(db, 'append_call_chunks',
  appendChunksStatement({ chunks: sql.placeholder('chunks'), receivedAt: sql.placeholder('received_at'), channel: sql.placeholder('channel') }))

export function createCallRepo<D extends AppDb> (db: D) {
  let append: ReturnType<typeof appendStatement> | undefined
  return {
    terminal: (id: string) => terminalOwner(db, id),
    personByPhone: (phone: string) => personByPhone(db, phone),
    callsFrom: async (phone: string) => (await db.select({ n: count() }).from(calls).where(eq(calls.caller_phone, phone)))[0]!.n,
    /** the calls from the number before this one (the screen pop's count, as it was at the answer) */
    callsFromBefore: async (phone: string, call: { id: number, created_at: Date }) =>
      (await db.select({ n: count() }).from(calls).where(and(eq(calls.caller_phone, phone), ne(calls.id, call.id), lte(calls.created_at, call.created_at))))[0]!.n,
    /** the employee's latest call still open (its transcript not closed) that began after `since` */
    openCallOf: async (employeeId: number, since: Date) =>
      (await db.select().from(calls).where(and(eq(calls.employee_id, employeeId), eq(calls.is_final, false), gt(calls.created_at, since)))
        .orderBy(desc(calls.created_at), desc(calls.id)).limit(1))[0],
    personById: (id: number) => personById(db, id),
    insertCall: async (values: typeof calls.$inferInsert) => (await db.insert(calls).values(values).returning())[0]!,
    /** a call named by its first chunk; undefined when a concurrent first chunk named it already */
    insertNamedCall: async (values: typeof calls.$inferInsert & { call_id: string }) =>
      (await db.insert(calls).values(values).onConflictDoNothing({ target: calls.call_id }).returning())[0],

    /** the call row, locked until the transaction ends: chunks of one call are numbered one at a time */
    lockByCallId: inTransactionOnly(db, async (tx, callId: string) => (await tx.select().from(calls).where(eq(calls.call_id, callId)).for('update'))[0]),
    /** the operator's latest answered call that no transcription has named yet */
    lockUnnamedFor: inTransactionOnly(db, async (tx, operatorNum: string, since: Date) => (await tx.select().from(calls)
      .where(and(eq(calls.operator_num, operatorNum), isNull(calls.call_id), eq(calls.is_final, false), gte(calls.created_at, since)))
      .orderBy(desc(calls.created_at), desc(calls.id)).limit(1).for('update'))[0]),
    /** the operator's answers are decided one at a time across instances: the posted one and the line's are one call */
    lockOperatorAnswers: inTransactionOnly(db, async (tx, operatorNum: string) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ANSWER_LOCK}, hashtext(${operatorNum}))`)
    }),
    /**
     * The same answer told the other way: a call of the operator from the same number, answered
     * within `windowMs` of `at`, told by the other source (the line's not yet matched by a post keeps
     * matching, a post's only until the line has named it).
     */
    twinAnswer: inTransactionOnly(db, async (tx, t: { operatorNum: string, phone: string | null, at: Date, windowMs: number, toldBy: CallSource }) => {
      const other: CallSource = t.toldBy === 'line' ? 'posted' : 'line'
      const at = sql`${t.at.toISOString()}::timestamptz`
      const window = sql`${t.windowMs} * interval '1 millisecond'`
      return (await tx.select().from(calls).where(and(
        eq(calls.operator_num, t.operatorNum), eq(calls.source, other), eq(calls.is_final, false),
        t.phone === null ? isNull(calls.caller_phone) : eq(calls.caller_phone, t.phone),
        other === 'posted' ? isNull(calls.call_id) : undefined,
        // the window in SQL: an answer told at the edge of JavaScript's dates (9999-12-31) has one past it
        sql`${calls.answered_at} between ${at} - ${window} and ${at} + ${window}`
      )).orderBy(sql`abs(extract(epoch from ${calls.answered_at} - ${at}))`, desc(calls.id)).limit(1).for('update'))[0]
    }),
    /** the call's record given to the terminal that has the caller now (a transfer); undefined when it had it already */
    passCall: async (id: number, to: { operator_num: string, terminal_id: string | null, employee_id: number | null }) =>
      (await db.update(calls).set(to).where(and(eq(calls.id, id), ne(calls.operator_num, to.operator_num))).returning())[0],
    nameCall: async (id: number, callId: string) => { await db.update(calls).set({ call_id: callId }).where(eq(calls.id, id)) },
    /** the caller hung up on the line (the first hang-up told counts) */
    hangUp: async (callId: string, at: Date) => { await db.update(calls).set({ hung_up_at: at }).where(and(eq(calls.call_id, callId), isNull(calls.hung_up_at))) },
    /** a batch of chunks in one statement (see appendStatement), its text built once per handle */
    appendBatch: (chunks: BatchChunk[], receivedAt: Date, liveChannel: string) =>
      (append ??= appendStatement(db))({ chunks: JSON.stringify(chunks), received_at: receivedAt.toISOString(), channel: liveChannel }),

    list (f: CallFilter) {
      const where: (SQL | undefined)[] = [
        f.operatorNum === undefined ? undefined : eq(calls.operator_num, f.operatorNum),
        f.organizationId === undefined ? undefined : eq(calls.organization_id, f.organizationId),
        f.employeeId === undefined ? undefined : eq(calls.employee_id, f.employeeId),
        f.phone === undefined ? undefined : eq(calls.caller_phone, f.phone),
        f.from === undefined ? undefined : gte(calls.created_at, f.from),
        f.to === undefined ? undefined : lte(calls.created_at, f.to),
      ]
      return db.select({
        id: calls.id, call_id: calls.call_id, operator_num: calls.operator_num, terminal_id: calls.terminal_id, organization_id: calls.organization_id,
        employee_id: calls.employee_id, caller_phone: calls.caller_phone, person_id: calls.person_id, answered_at: calls.answered_at,
        is_final: calls.is_final, closed_at: calls.closed_at, created_at: calls.created_at, hung_up_at: calls.hung_up_at, direction: calls.direction,
      }).from(calls).where(and(...where)).orderBy(desc(calls.created_at), desc(calls.id)).offset(f.skip).limit(f.limit)
    },
    findByCallId: async (callId: string) => (await db.select().from(calls).where(eq(calls.call_id, callId)))[0],
    chunksOf: (callRowId: number) => db.select({ seq: callChunks.seq, channel: callChunks.channel, chunk_text: callChunks.chunk_text, is_final: callChunks.is_final, received_at: callChunks.received_at })
      .from(callChunks).where(eq(callChunks.call_row_id, callRowId)).orderBy(asc(callChunks.seq)),
    presenceOpen: async (userId: number, at: Date) =>
      (await db.insert(consolePresence).values({ user_id: userId, connected_at: at, last_seen_at: at }).returning({ id: consolePresence.id }))[0]!.id,
    presenceBeat: async (id: number, at: Date) => { await db.update(consolePresence).set({ last_seen_at: at }).where(eq(consolePresence.id, id)) },
    presenceClose: async (id: number) => { await db.delete(consolePresence).where(eq(consolePresence.id, id)) },
    consoleOpen: async (userId: number, since: Date) =>
      (await db.select({ id: consolePresence.id }).from(consolePresence).where(and(eq(consolePresence.user_id, userId), gt(consolePresence.last_seen_at, since))).limit(1)).length > 0,
    openConsoleUsers: async (since: Date) =>
      (await db.selectDistinct({ user_id: consolePresence.user_id }).from(consolePresence).where(gt(consolePresence.last_seen_at, since))).map((r) => r.user_id),

    /** the terminals and employees to show as online: consoles seen since `since`, and the given registered terminal ids */
    onlineTerminals: (since: Date, registeredIds: string[]) => {
      const terminal = terminalDirectory(db)
      const employee = employeeNames(db)
      const organization = organizationNames(db)
      const consoleSeen = (userId: SQLWrapper) =>
        sql<boolean>`exists (select 1 from ${consolePresence} p where p.user_id = ${userId} and p.last_seen_at > ${since.toISOString()}::timestamptz)`
      return db.selectDistinct({
        terminal_id: terminal.id, terminal_name: terminal.name, organization_id: terminal.organization_id, organization_name: organization.name,
        employee_id: employee.id, last_name: employee.last_name, first_name: employee.first_name, console: consoleSeen(employee.id),
      }).from(terminal)
        .innerJoin(organization, eq(organization.id, terminal.organization_id))
        .leftJoin(employee, eq(employee.id, terminal.employee_id))
        .where(and(telephonyEnabled(terminal.organization_id), or(
          consoleSeen(terminal.employee_id),
          registeredIds.length > 0 ? inArray(terminal.id, registeredIds) : sql`false`
        )))
        .orderBy(asc(terminal.id))
    },
    /** the open call of each operator number, if any (answered, not final, not hung up on the line, recent) */
    openCalls: (operatorNums: string[], since: Date) => operatorNums.length === 0
      ? Promise.resolve([])
      : db.selectDistinctOn([calls.operator_num], {
        operator_num: calls.operator_num, caller_phone: calls.caller_phone, answered_at: calls.answered_at, created_at: calls.created_at,
      }).from(calls).where(and(inArray(calls.operator_num, operatorNums), eq(calls.is_final, false), isNull(calls.hung_up_at), gt(calls.created_at, since)))
        .orderBy(calls.operator_num, desc(calls.created_at)),

    /** retention: calls older than the cutoff go, their chunks with them */
    purgeBefore: async (cutoff: Date) => (await db.delete(calls).where(sql`${calls.created_at} < ${cutoff.toISOString()}::timestamptz`).returning({ id: calls.id })).length,
  }
}

export type CallRepo = ReturnType<typeof createCallRepo<AppDb>>
export type CallTxRepo = ReturnType<typeof createCallRepo<TxDb>>
