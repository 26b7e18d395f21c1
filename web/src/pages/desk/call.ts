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

export function recordedCall (detail: Schemas['CallDetail']): DeskCall {
  return {
    id: detail.id, callId: detail.call_id, phone: detail.caller_phone, person: null, previousCalls: 0, answeredAt: detail.answered_at,
    chunks: detail.chunks.map((c) => ({ seq: c.seq, channel: c.channel, text: c.chunk_text })), final: detail.is_final,
  }
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
