import { Type, type Static } from 'typebox'
import { callDirections } from '../../db/schema/index.js'
import { Id, Nullable, OneOf, Offset } from '../../lib/common-schemas.js'

const OperatorNum = Type.String({ pattern: '^[0-9]{1,32}$', maxLength: 32, description: 'the operator\'s number: a SIP terminal id links the call to it' })

export const CallAnsweredEvent = Type.Object({
  operator_num: OperatorNum,
  caller_phone: Type.String({ minLength: 1, maxLength: 32, 'x-trim': true, description: 'normalised to +7XXXXXXXXXX when it is a Kazakhstan number' }),
  call_datetime: Type.String({ format: 'date-time', description: 'ISO 8601 with an offset' }),
}, { $id: 'CallAnsweredEvent', additionalProperties: false })

export const CallTranscriptionEvent = Type.Object({
  call_id: Type.String({ pattern: '^[A-Za-z0-9._:@-]{1,128}$', maxLength: 128 }),
  operator_num: OperatorNum,
  channel: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', maxLength: 32, description: 'a short label such as caller or operator' }),
  chunk_text: Type.String({ maxLength: 10_000 }),
  full_text: Type.String({ maxLength: 200_000 }),
  is_final: Type.Optional(Type.Boolean({ default: false, description: 'the last chunk: closes the transcript' })),
}, { $id: 'CallTranscriptionEvent', additionalProperties: false })

const CallerPerson = Type.Object({
  id: Type.Integer(), full_name: Type.String(), iin_masked: Nullable(Type.String({ description: 'only the last 4 digits shown' })),
})

export const CallSummary = Type.Object({
  id: Type.Integer(), call_id: Nullable(Type.String()), operator_num: Type.String(), terminal_id: Nullable(Type.String()),
  organization_id: Nullable(Type.Integer()), employee_id: Nullable(Type.Integer()), caller_phone: Nullable(Type.String()),
  person_id: Nullable(Type.Integer()), answered_at: Nullable(Type.String({ format: 'date-time' })), is_final: Type.Boolean(),
  closed_at: Nullable(Type.String({ format: 'date-time' })), created_at: Type.String({ format: 'date-time' }),
  hung_up_at: Nullable(Type.String({ format: 'date-time', description: 'a call of the line: the caller\'s hang-up (Asterisk\'s Hangup); the transcript may close after' })),
  direction: OneOf(callDirections, { description: 'in: the citizen called; out: the centre called the citizen (POST /api/calls; caller_phone is then the number called)' }),
}, { $id: 'CallSummary' })

export const CallAnsweredResult = Type.Object({
  message: Type.String(), call: CallSummary, person: Nullable(CallerPerson), previous_calls: Type.Integer(),
}, { $id: 'CallAnsweredResult' })

export const CallTranscriptionResult = Type.Object({
  message: Type.String(), call_row_id: Type.Integer(), seq: Type.Integer(), duplicate: Type.Boolean(), is_final: Type.Boolean(),
}, { $id: 'CallTranscriptionResult' })

export const CallDetail = Type.Object({
  ...CallSummary.properties,
  transcript: Type.String(),
  chunks: Type.Array(Type.Object({ seq: Type.Integer(), channel: Type.String(), chunk_text: Type.String(), is_final: Type.Boolean(), received_at: Type.String({ format: 'date-time' }) })),
}, { $id: 'CallDetail' })

export const CurrentCall = Type.Object({
  call: CallDetail,
  person: Nullable(CallerPerson),
  previous_calls: Type.Integer({ description: 'earlier calls from the same number' }),
}, { $id: 'CurrentCall' })

export const CallListQuery = Type.Object({
  operator_num: Type.Optional(Type.String({ pattern: '^[0-9]{1,32}$', maxLength: 32 })),
  organization_id: Type.Optional(Id()),
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
  skip: Offset(),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
})
export const CallIdParams = Type.Object({ call_id: Type.String({ pattern: '^[A-Za-z0-9._:@-]{1,128}$', maxLength: 128 }) })

export const OnlineOperator = Type.Object({
  operator_num: Type.String(), name: Type.String(), employee_id: Nullable(Type.Integer()), organization_id: Type.Integer(),
  organization_name: Type.String(), console_connected: Type.Boolean(), registered: Type.Boolean(),
  state: Type.String({ description: 'idle, or on_call from answered until is_final (a call of the line: until the caller hangs up)' }), caller_phone: Nullable(Type.String()),
  since: Nullable(Type.String({ format: 'date-time' })),
}, { $id: 'OnlineOperator' })

export type CallAnsweredEvent = Static<typeof CallAnsweredEvent>
export type CallTranscriptionEvent = Static<typeof CallTranscriptionEvent>
export type CallSummary = Static<typeof CallSummary>
export type CallListQuery = Static<typeof CallListQuery>

export const schemas = [OnlineOperator, CallAnsweredEvent, CallTranscriptionEvent, CallSummary, CallAnsweredResult, CallTranscriptionResult, CallDetail, CurrentCall]
// the live stream's events are added beside these (live-events.ts imports CallSummary from here)
