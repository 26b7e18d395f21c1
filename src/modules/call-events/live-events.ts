// What a console receives on its live stream (SSE /api/call-events/stream or the WebSocket), one
// schema per event. The server types its events by them, a test checks every event the service and
// its SQL (the transcription intake builds its events in the statement) send against them, and they
// reach the console's types through openapi.json (`npm run console:api`).
import { Type, type Static } from 'typebox'
import { appealActions, appealLanguages, appealStatuses } from '../../db/schema/index.js'
import { Nullable, OneOf } from '../../lib/common-schemas.js'
import { CallSummary } from './schemas.js'
import { PlacedCall } from '../placed-calls/schemas.js'

/** whose event it is: the access scope (lib/access.ts) decides which consoles get it */
const owner = { organization_id: Nullable(Type.Integer()), employee_id: Nullable(Type.Integer()) }

export const CallAnsweredLiveEvent = Type.Object({
  type: Type.Literal('call.answered'),
  ...owner,
  call: CallSummary,
  person: Nullable(Type.Object({ id: Type.Integer(), full_name: Type.String(), iin_masked: Nullable(Type.String()) })),
  previous_calls: Type.Integer({ description: 'earlier calls from the same number' }),
  language: Nullable(OneOf(appealLanguages, { description: 'the language the caller chose in the line\'s menu (answers from Asterisk\'s events); null for a posted answer' })),
}, { $id: 'CallAnsweredLiveEvent', additionalProperties: false })

export const CallChunkLiveEvent = Type.Object({
  type: Type.Union([Type.Literal('call.transcription'), Type.Literal('call.final')], { description: 'call.final: the call\'s last chunk' }),
  ...owner,
  call_id: Type.String({ description: 'the telephony\'s id of the call' }),
  call_row_id: Type.Integer({ description: 'the call\'s id in /api/call-events/calls' }),
  operator_num: Type.String(),
  seq: Type.Integer({ minimum: 1, description: 'the chunk\'s number in the call, from 1, gapless' }),
  channel: Type.String(),
  chunk_text: Type.String({ description: 'at most 1,500 characters; the call holds the whole text' }),
  truncated: Type.Boolean(),
}, { $id: 'CallChunkLiveEvent', additionalProperties: false })

export const OperatorPresenceLiveEvent = Type.Object({
  type: Type.Union([Type.Literal('operator.online'), Type.Literal('operator.offline')]),
  ...owner,
  user_id: Type.Integer(),
}, { $id: 'OperatorPresenceLiveEvent', additionalProperties: false })

export const LineLiveEvent = Type.Object({
  type: Type.Literal('line.changed', { description: 'a call of the organization\'s line or one of its agents changed: the boards read the line again; at most one per organization every half second' }),
  ...owner,
}, { $id: 'LineLiveEvent', additionalProperties: false })

export const PlacedCallLiveEvent = Type.Object({
  type: Type.Literal('call.placed', { description: 'a call the user placed (POST /api/calls) went on: its phone rang, the citizen\'s, they talk, it ended' }),
  ...owner,
  call: PlacedCall,
}, { $id: 'PlacedCallLiveEvent', additionalProperties: false })

const appealLiveTypes = [...appealActions, 'answer_checked' as const].map((a) => `appeal.${a}` as const)

export const AppealLiveEvent = Type.Object({
  type: OneOf(appealLiveTypes),
  ...owner,
  /** seen by the centre's staff and the executor organization's (lib/access.ts canSeeAppeal), not by the access scope */
  audience: Type.Literal('appeal'),
  appeal_id: Type.Integer(),
  number: Type.String(),
  status: OneOf(appealStatuses),
}, { $id: 'AppealLiveEvent', additionalProperties: false })

export const LiveEventMessage = Type.Union([CallAnsweredLiveEvent, CallChunkLiveEvent, OperatorPresenceLiveEvent, AppealLiveEvent, LineLiveEvent, PlacedCallLiveEvent], { $id: 'LiveEventMessage' })
export type LiveEventMessage = Static<typeof LiveEventMessage>

export const liveEventSchemas = [CallAnsweredLiveEvent, CallChunkLiveEvent, OperatorPresenceLiveEvent, AppealLiveEvent, LineLiveEvent, PlacedCallLiveEvent, LiveEventMessage]
