import { createHash } from 'node:crypto'
import type { Transactional } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import { databaseUnavailable } from '../../lib/error-handler.js'
import { ConflictError } from '../../lib/errors.js'
import { createGroupCommit, type Settled } from '../../lib/group-commit.js'
import type { BatchOutcome, CallRepo, CallTxRepo } from './repo.js'
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

type Link = { terminal_id: string | null, organization_id: number | null, employee_id: number | null }

/**
 * The transcription intake. Chunks are written by group commit: those that arrive while a batch is
 * being written go together in the next one, as one statement (see the repository's appendBatch:
 * one round trip, its own transaction), and the live events leave with its commit. Each call's
 * chunks keep their arrival order: the batches are written one at a time, and the calls are locked,
 * so instances do not interleave either.
 */
export function createTranscriptIntake ({ repo, transaction, clock, liveChannel, linkTerminal }: {
  repo: Pick<CallRepo, 'appendBatch'>
  transaction: Transactional<CallTxRepo>
  clock: Clock
  liveChannel: string
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

  /**
   * The chunks whose calls exist are stored; the others are returned, to go again once their calls are
   * registered. `alone`: one chunk, its call locked by a statement of its own first, so that the
   * statement that numbers it sees everything committed before (see the repository's appendBatch).
   */
  async function appendBatch (chunks: Pending[], settled: Settled<ChunkResult>[], alone: boolean): Promise<Pending[]> {
    const batch = chunks.map(({ chunk: { event, final, fingerprint } }, ord) => ({
      ord, call_id: event.call_id, channel: event.channel, chunk_text: event.chunk_text, full_text: event.full_text, is_final: final, fingerprint,
    }))
    const outcomes = alone
      ? await transaction(async (tx) => { await tx.lockByCallId(batch[0]!.call_id); return tx.appendBatch(batch, clock(), liveChannel) })
      : await repo.appendBatch(batch, clock(), liveChannel)
    const unregistered: Pending[] = []
    for (const outcome of outcomes) {
      const entry = chunks[outcome.ord]!
      const result = settle(entry.chunk, outcome)
      if (result) settled[entry.index] = result
      else unregistered.push(entry)
    }
    return unregistered
  }

  async function write (chunks: Chunk[]): Promise<Settled<ChunkResult>[]> {
    const settled: Settled<ChunkResult>[] = []
    await store(chunks.map((chunk, index) => ({ chunk, index })), settled)
    return settled
  }

  /**
   * A batch that fails as a whole (another instance wrote one of its calls at the same moment, or a
   * chunk is bad) is stored again chunk by chunk, each alone: one bad chunk fails alone. Not when the
   * database is unreachable: the batch and the chunks waiting behind it fail at once (503), rather
   * than each waiting out a connection timeout of its own.
   */
  async function store (chunks: Pending[], settled: Settled<ChunkResult>[], alone = false): Promise<void> {
    let pending = chunks
    // the second pass takes the chunks of calls registered after the first; a third is never needed
    for (let pass = 1; pending.length > 0; pass++) {
      if (pass > 2) {
        for (const { chunk, index } of pending) settled[index] = { error: new ConflictError(`Call ${chunk.event.call_id} could not be registered; send the chunk again`, 'call_race') }
        return
      }
      try {
        pending = await appendBatch(pending, settled, alone)
      } catch (error) {
        if (databaseUnavailable(error)) throw error
        if (alone) { settled[pending[0]!.index] = { error }; return }
        for (const entry of pending) await store([entry], settled, true)
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

/** a chunk's answer from what its batch's statement made of it; undefined while its call is not named */
function settle (chunk: Chunk, outcome: BatchOutcome): Settled<ChunkResult> | undefined {
  const { call_row_id: callRowId, seq } = outcome
  if (callRowId === null) return undefined
  if (seq !== null) return { value: { message: chunk.final ? 'Transcript closed' : 'Chunk stored', call_row_id: callRowId, seq, duplicate: false, is_final: chunk.final } }
  if (outcome.duplicate) return { value: { message: 'Chunk already received', call_row_id: callRowId, seq: 0, duplicate: true, is_final: outcome.closed_before } }
  return { error: new ConflictError(`Call ${chunk.event.call_id} is closed: its final chunk has arrived`, 'call_closed') }
}
