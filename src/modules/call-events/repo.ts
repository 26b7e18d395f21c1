import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { NotifyMessage } from '../../db/notify.js'
import { inTransactionOnly, selectRows, type AppDb, type TxDb } from '../../db/client.js'
import { callChunks, calls, consolePresence } from '../../db/schema/index.js'
import { employeeNames } from '../employees/queries.js'
import { terminalDirectory, terminalOwner } from '../endpoints/queries.js'
import { organizationNames } from '../organizations/queries.js'
import { telephonyEnabled } from '../platform/queries.js'
import { personByPhone } from '../references/queries.js'

export type CallRow = typeof calls.$inferSelect
export type ChunkInsert = Required<Omit<typeof callChunks.$inferInsert, 'id'>>
export interface TranscriptUpdate { id: number, transcript: string, is_final: boolean, closed_at: Date | null }

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

export function createCallRepo<D extends AppDb> (db: D) {
  return {
    terminal: (id: string) => terminalOwner(db, id),
    personByPhone: (phone: string) => personByPhone(db, phone),
    callsFrom: async (phone: string) => (await db.select({ n: count() }).from(calls).where(eq(calls.caller_phone, phone)))[0]!.n,
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
    nameCall: async (id: number, callId: string) => { await db.update(calls).set({ call_id: callId }).where(eq(calls.id, id)) },
    /** the named calls among `callIds`, locked in id order (two batches never wait on each other in a circle) */
    lockCalls: inTransactionOnly(db, async (tx, callIds: string[]) => callIds.length === 0
      ? []
      : tx.select().from(calls).where(inArray(calls.call_id, callIds)).orderBy(asc(calls.id)).for('update')),
    /**
     * Read after the calls are locked, so that it sees every chunk committed before: the last number of
     * each call, and which of the offered fingerprints each call holds already. One round trip.
     */
    chunkStates: async (callRowIds: number[], offered: { call_row_id: number, fingerprint: string }[]) => {
      const rows = await selectRows<{ call_row_id: number, fingerprint: string | null, last: number | null }>(db, sql`
        select c.id as call_row_id, null as fingerprint, (select max(k.seq) from ${callChunks} k where k.call_row_id = c.id) as last
          from ${calls} c where c.id in (select jsonb_array_elements_text(${JSON.stringify(callRowIds)}::jsonb)::int)
        union all
        select x.call_row_id, x.fingerprint, null from jsonb_to_recordset(${JSON.stringify(offered)}::jsonb) as x(call_row_id int, fingerprint text)
          where exists (select 1 from ${callChunks} k where k.call_row_id = x.call_row_id and k.fingerprint = x.fingerprint)`)
      const last = new Map<number, number>()
      const seen = new Set<string>()
      for (const r of rows) {
        if (r.fingerprint === null) last.set(r.call_row_id, r.last ?? 0)
        else seen.add(`${r.call_row_id}:${r.fingerprint}`)
      }
      return { last, seen }
    },
    /** a batch of chunks, each call's transcript and final state, and the live events sent with the commit: one statement */
    appendChunks: async (chunks: ChunkInsert[], transcripts: TranscriptUpdate[], events: NotifyMessage[]) => {
      const channel = events[0]?.channel ?? ''
      await selectRows(db, sql`
        with added as (
          insert into ${callChunks} (call_row_id, seq, channel, chunk_text, is_final, fingerprint, received_at)
          select x.call_row_id, x.seq, x.channel, x.chunk_text, x.is_final, x.fingerprint, x.received_at
            from jsonb_to_recordset(${JSON.stringify(chunks)}::jsonb)
              as x(call_row_id int, seq int, channel text, chunk_text text, is_final boolean, fingerprint text, received_at timestamptz)
        ), changed as (
          update ${calls} set transcript = x.transcript, is_final = x.is_final, closed_at = coalesce(${calls.closed_at}, x.closed_at)
            from jsonb_to_recordset(${JSON.stringify(transcripts)}::jsonb) as x(id int, transcript text, is_final boolean, closed_at timestamptz)
            where ${calls.id} = x.id
        )
        select pg_notify(${channel}, e.payload) from jsonb_array_elements_text(${JSON.stringify(events.map((e) => e.payload))}::jsonb) as e(payload)`)
    },

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
        is_final: calls.is_final, closed_at: calls.closed_at, created_at: calls.created_at,
      }).from(calls).where(and(...where)).orderBy(desc(calls.created_at), desc(calls.id)).offset(f.skip).limit(f.limit)
    },
    findByCallId: async (callId: string) => (await db.select().from(calls).where(eq(calls.call_id, callId)))[0],
    chunksOf: (callRowId: number) => db.select({ seq: callChunks.seq, channel: callChunks.channel, chunk_text: callChunks.chunk_text, is_final: callChunks.is_final, received_at: callChunks.received_at })
      .from(callChunks).where(eq(callChunks.call_row_id, callRowId)).orderBy(asc(callChunks.seq)),
    presenceOpen: async (userId: number, at: Date) =>
      (await db.insert(consolePresence).values({ user_id: userId, connected_at: at, last_seen_at: at }).returning({ id: consolePresence.id }))[0]!.id,
    presenceBeat: async (id: number, at: Date) => { await db.update(consolePresence).set({ last_seen_at: at }).where(eq(consolePresence.id, id)) },
    presenceClose: async (id: number) => { await db.delete(consolePresence).where(eq(consolePresence.id, id)) },

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
    /** the open call of each operator number, if any (answered, not final, recent) */
    openCalls: (operatorNums: string[], since: Date) => operatorNums.length === 0
      ? Promise.resolve([])
      : db.selectDistinctOn([calls.operator_num], {
        operator_num: calls.operator_num, caller_phone: calls.caller_phone, answered_at: calls.answered_at, created_at: calls.created_at,
      }).from(calls).where(and(inArray(calls.operator_num, operatorNums), eq(calls.is_final, false), gt(calls.created_at, since)))
        .orderBy(calls.operator_num, desc(calls.created_at)),

    /** retention: calls older than the cutoff go, their chunks with them */
    purgeBefore: async (cutoff: Date) => (await db.delete(calls).where(sql`${calls.created_at} < ${cutoff.toISOString()}::timestamptz`).returning({ id: calls.id })).length,
  }
}

export type CallRepo = ReturnType<typeof createCallRepo<AppDb>>
export type CallTxRepo = ReturnType<typeof createCallRepo<TxDb>>
