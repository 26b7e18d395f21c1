import type { Schemas } from '../../api/client'
import type { LiveEvent } from '../../live/live'

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

export function answeredCall (event: LiveEvent): DeskCall {
  const call = event.call as Schemas['CallSummary']
  return {
    id: call.id, callId: call.call_id, phone: call.caller_phone, person: (event.person as CallerPerson | null) ?? null,
    previousCalls: Number(event.previous_calls ?? 0), answeredAt: call.answered_at, chunks: [], final: call.is_final,
  }
}

export function recordedCall (detail: Schemas['CallDetail']): DeskCall {
  return {
    id: detail.id, callId: detail.call_id, phone: detail.caller_phone, person: null, previousCalls: 0, answeredAt: detail.answered_at,
    chunks: detail.chunks.map((c) => ({ seq: c.seq, channel: c.channel, text: c.chunk_text })), final: detail.is_final,
  }
}

/** a transcript chunk added in its place: chunks are numbered by the service; a repeat is ignored */
export function withChunk (call: DeskCall, event: LiveEvent): DeskCall {
  const seq = Number(event.seq)
  const final = call.final || event.type === 'call.final'
  if (call.chunks.some((c) => c.seq === seq)) return { ...call, final }
  const chunks = [...call.chunks, { seq, channel: String(event.channel), text: String(event.chunk_text) }].sort((a, b) => a.seq - b.seq)
  return { ...call, callId: call.callId ?? String(event.call_id), chunks, final }
}

/** the transcript as the LLM reads it: one line per chunk, who spoke first */
export const transcriptText = (call: DeskCall): string => call.chunks.map((c) => `${c.channel}: ${c.text}`).join('\n')
