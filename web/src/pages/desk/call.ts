import type { Schemas } from '../../api/client'

export interface Chunk { seq: number, channel: string, text: string }
export interface CallerPerson { id: number, full_name: string, iin_masked: string | null }

/** the call at the operator's desk, as the live events and the call's record tell it */
export interface DeskCall {
  id: number
  callId: string | null
  phone: string | null
  person: CallerPerson | null
  previousCalls: number
  answeredAt: string | null
  chunks: Chunk[]
  final: boolean
}

export function answeredCall (event: Schemas['CallAnsweredLiveEvent']): DeskCall {
  const { call } = event
  return {
    id: call.id, callId: call.call_id, phone: call.caller_phone, person: event.person,
    previousCalls: event.previous_calls, answeredAt: call.answered_at, chunks: [], final: call.is_final,
  }
}

/** the call going on as the service tells it (a reloaded desk, or the caller registered meanwhile) */
export function currentDeskCall ({ call, person, previous_calls: previousCalls }: Schemas['CurrentCall']): DeskCall {
  return {
    id: call.id, callId: call.call_id, phone: call.caller_phone, person, previousCalls, answeredAt: call.answered_at,
    chunks: call.chunks.map((c) => ({ seq: c.seq, channel: c.channel, text: c.chunk_text })), final: call.is_final,
  }
}

/** the same call told again by the service: its caller as matched now, the chunks either side knows */
export function refreshedCall (call: DeskCall, told: DeskCall): DeskCall {
  if (call.id !== told.id) return call
  const known = new Set(told.chunks.map((c) => c.seq))
  const chunks = [...told.chunks, ...call.chunks.filter((c) => !known.has(c.seq))].sort((a, b) => a.seq - b.seq)
  return { ...call, person: told.person ?? call.person, callId: call.callId ?? told.callId, chunks, final: call.final || told.final }
}

/** a transcript chunk added in its place: chunks are numbered by the service; a repeat is ignored */
export function withChunk (call: DeskCall, event: Schemas['CallChunkLiveEvent']): DeskCall {
  const { seq } = event
  const final = call.final || event.type === 'call.final'
  if (call.chunks.some((c) => c.seq === seq)) return { ...call, final }
  const chunks = [...call.chunks, { seq, channel: event.channel, text: event.chunk_text }].sort((a, b) => a.seq - b.seq)
  return { ...call, callId: call.callId ?? event.call_id, chunks, final }
}

/** the transcript as the LLM reads it: one line per chunk, who spoke first */
export const transcriptText = (call: DeskCall): string => call.chunks.map((c) => `${c.channel}: ${c.text}`).join('\n')
