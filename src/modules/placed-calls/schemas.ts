import { Type, type Static } from 'typebox'
import { placedCallKinds, placedCallSides, placedCallStatuses } from '../../db/schema/index.js'
import { Id, Nullable, OneOf, Timestamp } from '../../lib/common-schemas.js'

export const PlaceCallRequest = Type.Object({
  number: Type.String({ minLength: 1, maxLength: 32, 'x-trim': true, description: 'the citizen\'s number: +7..., 8..., or a local number of the organization\'s area' }),
  appeal_id: Type.Optional(Id({ description: 'the appeal the call is for: it joins the appeal\'s history' })),
}, { $id: 'PlaceCallRequest', additionalProperties: false })
export type PlaceCallRequest = Static<typeof PlaceCallRequest>

export const PlacedCall = Type.Object({
  id: Type.Integer(),
  kind: OneOf(placedCallKinds, { description: 'call: placed by the user; callback: placed by the service for a caller who asked to be called back' }),
  callback_id: Nullable(Type.Integer({ description: 'the callback request it is an attempt of' })),
  call_id: Type.String({ description: 'Asterisk\'s Linkedid: the call\'s id in the call events and its recordings (/api/line-calls/{call_id}/recordings)' }),
  number: Type.String({ description: '+7XXXXXXXXXX' }),
  appeal_id: Nullable(Type.Integer()),
  person_id: Nullable(Type.Integer()),
  employee_id: Nullable(Type.Integer()),
  organization_id: Nullable(Type.Integer()),
  terminal_id: Type.String({ description: 'the user\'s terminal, rung first' }),
  status: OneOf(placedCallStatuses, { description: 'ringing_you: the user\'s phone rings; ringing_citizen; connected; ended (after talking); no_answer, busy, failed: not connected (failed_side says whose phone)' }),
  failed_side: Nullable(OneOf(placedCallSides, { description: 'you: the user\'s phone; citizen: the citizen\'s' })),
  reason: Nullable(Type.String({ description: 'Asterisk\'s word for the outcome (NOANSWER, BUSY, CONGESTION, CHANUNAVAIL, CANCEL, a hang-up cause)' })),
  placed_at: Timestamp(),
  answered_at: Nullable(Timestamp()),
  connected_at: Nullable(Timestamp()),
  ended_at: Nullable(Timestamp()),
  talk_seconds: Nullable(Type.Integer({ description: 'from connecting to the end' })),
}, { $id: 'PlacedCall' })
export type PlacedCall = Static<typeof PlacedCall>

export const PlacedCallQuery = Type.Object({
  appeal_id: Type.Optional(Id()),
  before: Type.Optional(Id({ description: 'the next page: calls with a smaller id' })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
}, { additionalProperties: false })

export const PlacedCallParams = Type.Object({ call_id: Id() })

export const spyModes = ['listen', 'whisper', 'barge'] as const
export const SpyRequest = Type.Object({
  terminal_id: Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9]+$', description: 'the operator\'s terminal whose call is joined' }),
  mode: OneOf(spyModes, { description: 'listen: hear the call; whisper: the operator hears you, the citizen does not; barge: both hear you' }),
}, { $id: 'SpyRequest', additionalProperties: false })
export type SpyRequest = Static<typeof SpyRequest>

export const SpyResponse = Type.Object({
  call_id: Type.String({ description: 'the Linkedid of the call joined' }),
  terminal_id: Type.String({ description: 'the supervisor\'s terminal, rung now' }),
  mode: OneOf(spyModes),
}, { $id: 'SpyResponse' })

export const TransferRequest = Type.Object({
  mode: OneOf(['blind', 'attended'] as const, { description: 'blind: the caller goes at once and the operator is free; attended: the operator consults first, the caller on hold, then completes or cancels' }),
  to: OneOf(['terminal', 'queue', 'line', 'outside'] as const, { description: 'a colleague\'s terminal (`extension`), one of the organization\'s queues (`queue_id`; without it its own queue, dialled as 0: the first of its operators ready answers), an inbound line (`number`: the executor\'s dispatcher; the call enters its menu or queue), or a number outside (`number`, through the organization\'s outbound routes, as the user may call it: POST /api/calls)' }),
  extension: Type.Optional(Type.String({ pattern: '^[0-9]{3}$', maxLength: 3, description: 'with `to: terminal`: a colleague\'s extension, of the operator\'s organization' })),
  queue_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'with `to: queue`: one of the operator\'s organization\'s queues (GET /api/calls/transfer/queues); without it, the organization\'s own queue' })),
  number: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'with `to: line`: the line\'s number; with `to: outside`: a phone number as POST /api/calls takes it' })),
}, { $id: 'TransferRequest', additionalProperties: false })
export type TransferRequest = Static<typeof TransferRequest>

export const TransferQueue = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_default: Type.Boolean({ description: 'the organization\'s own queue (dialled as 0)' }),
}, { $id: 'TransferQueue' })

export const TransferResponse = Type.Object({
  call_id: Type.String({ description: 'the call passed on (its Linkedid)' }),
  mode: Type.String(),
  to: Type.String({ description: 'where it went, in Asterisk\'s words: `<exten>@<context>`' }),
}, { $id: 'TransferResponse' })

export const schemas = [PlaceCallRequest, PlacedCall, SpyRequest, SpyResponse, TransferRequest, TransferQueue, TransferResponse]
