import { Type, type Static } from 'typebox'
import { lineCallOutcomes } from '../../db/schema/index.js'
import { Nullable, OneOf, Pagination, Timestamp } from '../../lib/common-schemas.js'

// The calls of the public line as Asterisk's events told them (DESIGN 9; beyond the interface).

export const LineCallQuery = Type.Object({
  ...Pagination(50),
  outcome: Type.Optional(OneOf(lineCallOutcomes)),
}, { additionalProperties: false })
export type LineCallQuery = Static<typeof LineCallQuery>

export const LineCallParams = Type.Object({ linkedid: Type.String({ pattern: '^[0-9]+\\.[0-9]+$', maxLength: 64, description: 'Asterisk\'s Linkedid: the caller channel\'s Uniqueid' }) })

const Attempt = Type.Object({
  interface: Type.String({ description: 'the queue member rung: PJSIP/<terminal>' }),
  member_name: Type.String(),
  rung_at: Timestamp(),
  result: OneOf(['ringing', 'no_answer', 'answered', 'not_answered'] as const, { description: 'no_answer: it rang out (the queue\'s timeout); not_answered: the caller left while it rang' }),
  ring_seconds: Nullable(Type.Number()),
})

export const LineCallView = Type.Object({
  linkedid: Type.String({ description: 'the call\'s id everywhere: the call events\' call_id' }),
  organization_id: Nullable(Type.Integer()),
  caller_number: Nullable(Type.String()),
  line: Nullable(Type.String({ description: 'the inbound line dialled' })),
  menu_choice: Nullable(Type.String()),
  language: Nullable(Type.String({ description: 'chosen in the language menu (kk, ru)' })),
  queue: Nullable(Type.String()),
  joined_at: Nullable(Timestamp()),
  position: Nullable(Type.Integer({ description: 'its place in the queue when it joined' })),
  attempts: Type.Array(Attempt),
  answered_by: Nullable(Type.String()),
  answered_at: Nullable(Timestamp()),
  hold_seconds: Nullable(Type.Number({ description: 'Asterisk\'s HoldTime: from joining the queue to the answer, or to leaving it' })),
  talk_seconds: Nullable(Type.Number()),
  ended_by: Nullable(Type.String({ description: 'who ended an answered call: caller, agent or transfer' })),
  outcome: OneOf(lineCallOutcomes, { description: 'waiting (in a queue now), answered, abandoned (the caller hung up waiting), timed_out (Queue()\'s time limit: the dialplan went on), ended (never queued)' }),
  started_at: Timestamp(),
  ended_at: Nullable(Timestamp()),
}, { $id: 'LineCallView' })

export const LineCallPage = Type.Object({ items: Type.Array(Type.Ref('LineCallView')), total: Type.Integer() }, { $id: 'LineCallPage' })

export const schemas = [LineCallView, LineCallPage]
