import { createHash } from 'node:crypto'
import type { Transactional } from '../../db/client.js'
import type { NotifyMessage } from '../../db/notify.js'
import type { Clock } from '../../lib/clock.js'
import { databaseUnavailable } from '../../lib/error-handler.js'
import { ConflictError } from '../../lib/errors.js'
import { createGroupCommit, type Settled } from '../../lib/group-commit.js'
import { MAX_CHUNK_IN_EVENT, type LiveEvent } from './live.js'
import type { CallRow, CallTxRepo, ChunkInsert, TranscriptUpdate } from './repo.js'
import type { CallTranscriptionEvent } from './schemas.js'

/** a transcription names the operator's answered call if it comes within this time */
export const LINK_WINDOW_MS = 6 * 3600_000

/** a batch is bounded: one statement's parameters stay a few megabytes */
const MAX_BATCH_CHUNKS = 500
const MAX_BATCH_CHARS = 4_000_000

export interface ChunkResult { message: string, call_row_id: number, seq: number, duplicate: boolean, is_final: boolean }

interface Chunk { event: CallTranscriptionEvent, final: boolean, fingerprint: string }
/** a chunk of a batch, with its place in the batch's answers */
interface Pending { chunk: Chunk, index: number }

/** the state of one locked call while a batch is worked out */
interface CallState { row: CallRow, last: number, final: boolean, transcript?: string, closedAt: Date | null }

type Link = { terminal_id: string | null, organization_id: number | null, employee_id: number | null }

/**
 * The transcription intake. Chunks are written by group commit: those that arrive while a batch is
 * being written go together in the next one, as a handful of statements in one transaction (lock the
 * calls, read their last numbers and known fingerprints, then insert, update and notify at once),
 * and the live events leave with the commit. Each call's chunks keep their arrival order: the batches
 * are written one at a time, and the calls are locked, so instances do not interleave either.
 */
export function createTranscriptIntake ({ transaction, clock, liveMessage, linkTerminal }: {
  transaction: Transactional<CallTxRepo>
  clock: Clock
  liveMessage: (event: LiveEvent) => NotifyMessage
  linkTerminal: (operatorNum: string, via: CallTxRepo) => Promise<Link>
}) {
  /** a call's first chunk names the operator's answered call, or registers a call of its own; its own short transaction */
  const registerCall = (event: CallTranscriptionEvent) => transaction(async (tx) => {
    if (await tx.lockByCallId(event.call_id)) return
    const unnamed = await tx.lockUnnamedFor(event.operator_num, new Date(clock().getTime() - LINK_WINDOW_MS))
    if (unnamed) await tx.nameCall(unnamed.id, event.call_id)
    // a first chunk registered by another instance meanwhile: nothing inserted, its row is used
    else await tx.insertNamedCall({ call_id: event.call_id, operator_num: event.operator_num, ...await linkTerminal(event.operator_num, tx) })
  })

  /** the chunks whose calls exist are stored; the others are returned, to go again once their calls are registered */
  const appendBatch = (chunks: Pending[], settled: Settled<ChunkResult>[]) => transaction(async (tx) => {
    const now = clock()
    const rows = new Map((await tx.lockCalls([...new Set(chunks.map((c) => c.chunk.event.call_id))])).map((row) => [row.call_id!, row]))
    const { last, seen } = await tx.chunkStates([...rows.values()].map((r) => r.id), chunks.flatMap(({ chunk }) => {
      const row = rows.get(chunk.event.call_id)
      return row ? [{ call_row_id: row.id, fingerprint: chunk.fingerprint }] : []
    }))
    const calls = new Map<string, CallState>([...rows].map(([callId, row]) => [callId, { row, last: last.get(row.id) ?? 0, final: row.is_final, closedAt: row.closed_at }]))
    const { inserts, events, unregistered } = allot(chunks, calls, seen, now, settled)
    if (inserts.length > 0) {
      const transcripts: TranscriptUpdate[] = [...calls.values()].filter((c) => c.transcript !== undefined)
        .map((c) => ({ id: c.row.id, transcript: c.transcript!, is_final: c.final, closed_at: c.closedAt }))
      await tx.appendChunks(inserts, transcripts, events.map(liveMessage))
    }
    return unregistered
  })

  async function write (chunks: Chunk[]): Promise<Settled<ChunkResult>[]> {
    const settled: Settled<ChunkResult>[] = []
    await store(chunks.map((chunk, index) => ({ chunk, index })), settled)
    return settled
  }

  /**
   * A batch that fails as a whole is stored again chunk by chunk: one bad chunk fails alone. Not when
   * the database is unreachable: the batch and the chunks waiting behind it fail at once (503), rather
   * than each waiting out a connection timeout of its own.
   */
  async function store (chunks: Pending[], settled: Settled<ChunkResult>[]): Promise<void> {
    let pending = chunks
    // the second pass takes the chunks of calls registered after the first; a third is never needed
    for (let pass = 1; pending.length > 0; pass++) {
      if (pass > 2) {
        for (const { chunk, index } of pending) settled[index] = { error: new ConflictError(`Call ${chunk.event.call_id} could not be registered; send the chunk again`, 'call_race') }
        return
      }
      try {
        pending = await appendBatch(pending, settled)
      } catch (error) {
        if (databaseUnavailable(error)) throw error
        if (pending.length === 1) { settled[pending[0]!.index] = { error }; return }
        for (const entry of pending) await store([entry], settled)
        return
      }
      const failed = new Map<string, unknown>()
      for (const event of new Map(pending.map(({ chunk }) => [chunk.event.call_id, chunk.event])).values()) {
        await registerCall(event).catch((error: unknown) => failed.set(event.call_id, error))
      }
      for (const { chunk, index } of pending) if (failed.has(chunk.event.call_id)) settled[index] = { error: failed.get(chunk.event.call_id) }
      pending = pending.filter(({ chunk }) => !failed.has(chunk.event.call_id))
    }
  }

  const intake = createGroupCommit(write, {
    maxItems: MAX_BATCH_CHUNKS,
    maxWeight: MAX_BATCH_CHARS,
    weight: (c: Chunk) => c.event.chunk_text.length + c.event.full_text.length,
    failWaitingOn: databaseUnavailable,
  })

  return {
    /** in arrival order, once per distinct chunk; a closed call takes no more chunks (409) */
    submit (event: CallTranscriptionEvent): Promise<ChunkResult> {
      const final = event.is_final ?? false
      const fingerprint = createHash('sha256').update(JSON.stringify([event.operator_num, event.channel, event.chunk_text, event.full_text, final])).digest('hex')
      return intake.submit({ event, final, fingerprint })
    },
  }
}

function liveEvent (call: CallRow, event: CallTranscriptionEvent, seq: number, final: boolean): LiveEvent {
  const truncated = event.chunk_text.length > MAX_CHUNK_IN_EVENT
  return {
    type: final ? 'call.final' : 'call.transcription', organization_id: call.organization_id, employee_id: call.employee_id,
    call_id: event.call_id, call_row_id: call.id, operator_num: call.operator_num, seq, channel: event.channel,
    chunk_text: truncated ? event.chunk_text.slice(0, MAX_CHUNK_IN_EVENT) : event.chunk_text, truncated,
  }
}

/**
 * In arrival order: each chunk of a locked call is a duplicate, refused (its call closed), or given
 * the call's next number; `calls` and `seen` follow along. Chunks of calls not registered yet are
 * returned as they are.
 */
function allot (chunks: Pending[], calls: Map<string, CallState>, seen: Set<string>, now: Date, settled: Settled<ChunkResult>[]) {
  const inserts: ChunkInsert[] = []
  const events: LiveEvent[] = []
  const unregistered: Pending[] = []
  for (const entry of chunks) {
    const { event, final, fingerprint } = entry.chunk
    const call = calls.get(event.call_id)
    if (!call) { unregistered.push(entry); continue }
    const key = `${call.row.id}:${fingerprint}`
    if (seen.has(key)) {
      settled[entry.index] = { value: { message: 'Chunk already received', call_row_id: call.row.id, seq: 0, duplicate: true, is_final: call.final } }
      continue
    }
    if (call.final) {
      settled[entry.index] = { error: new ConflictError(`Call ${event.call_id} is closed: its final chunk has arrived`, 'call_closed') }
      continue
    }
    seen.add(key)
    const seq = ++call.last
    call.final = final
    call.transcript = event.full_text
    if (final) call.closedAt = now
    inserts.push({ call_row_id: call.row.id, seq, channel: event.channel, chunk_text: event.chunk_text, is_final: final, fingerprint, received_at: now })
    events.push(liveEvent(call.row, event, seq, final))
    settled[entry.index] = { value: { message: final ? 'Transcript closed' : 'Chunk stored', call_row_id: call.row.id, seq, duplicate: false, is_final: final } }
  }
  return { inserts, events, unregistered }
}
