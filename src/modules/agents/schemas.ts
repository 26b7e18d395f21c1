import { Type, type Static } from 'typebox'
import { Name, Nullable, OneOf, Timestamp } from '../../lib/common-schemas.js'
import { memberStateNames } from '../../db/schema/index.js'

// An operator's availability (DESIGN 9): ready, on a break with a reason, or offline, as Asterisk's
// queue member pause says; the desk's switch sets it.

const Reason = Type.String({ pattern: '^[a-z0-9_-]{1,40}$', minLength: 1, maxLength: 40, description: 'a break\'s reason: lunch, training, meeting... (offline is the service\'s own)' })

export const AgentChoice = Type.Object({
  state: OneOf(['ready', 'break'] as const),
  reason: Type.Optional(Nullable(Reason)),
}, { $id: 'AgentChoice', additionalProperties: false })
export type AgentChoice = Static<typeof AgentChoice>

/** the line board's states of a queue member (one model: call-routing/member-state.ts), and what only a user has */
export const agentStateValues = [...memberStateNames, 'no_terminal', 'not_in_queue', 'unknown'] as const
export type AgentStateValue = typeof agentStateValues[number]

export const AgentView = Type.Object({
  user_id: Type.Integer(),
  state: OneOf(agentStateValues, {
    description: 'as Asterisk has it, in the line board\'s words: ready (a terminal unpaused), ringing, on_call, break (paused with a reason), offline (paused as no console is open, or the phone unreachable); wrap_up only the board shows (the events tell it); no_terminal: the user works at no terminal; not_in_queue: its terminals are in no queue; unknown: Asterisk is not configured or not answering (see pbx). With several terminals, the busiest one\'s',
  }),
  reason: Nullable(Type.String({ description: 'the pause\'s reason as Asterisk has it' })),
  chosen: Nullable(Type.Object({ state: Type.String(), reason: Nullable(Type.String()), changed_at: Timestamp() }, { description: 'what the operator last chose at the desk' })),
  terminals: Type.Array(Type.Object({ id: Type.String(), queues: Type.Array(Type.String()), paused: Nullable(Type.Boolean()), reason: Nullable(Type.String()) })),
  pbx: OneOf(['connected', 'not_configured', 'unreachable'] as const),
}, { $id: 'AgentView' })
export type AgentView = Static<typeof AgentView>

const ReasonCode = Type.String({ pattern: '^[a-z0-9_-]{1,40}$', minLength: 1, maxLength: 40, description: 'what Asterisk\'s queue member pause carries: latin letters, digits, _ and -' })
const ReasonFields = {
  name_ru: Name(60), name_kk: Name(60),
  max_minutes: Nullable(Type.Integer({ minimum: 1, maximum: 480, description: 'the longest the break may last; null: no limit (the board shows who is over)' })),
  sort_order: Type.Integer({ minimum: 0, maximum: 1000 }),
}
export const BreakReasonCreate = Type.Object({ code: ReasonCode, ...ReasonFields, max_minutes: Type.Optional(ReasonFields.max_minutes), sort_order: Type.Optional(ReasonFields.sort_order) }, { $id: 'BreakReasonCreate', additionalProperties: false })
export type BreakReasonCreate = Static<typeof BreakReasonCreate>
export const BreakReasonUpdate = Type.Partial(Type.Object(ReasonFields), { $id: 'BreakReasonUpdate', additionalProperties: false })
export type BreakReasonUpdate = Static<typeof BreakReasonUpdate>
export const BreakReason = Type.Object({ code: Type.String(), ...ReasonFields }, { $id: 'BreakReason' })
export const ReasonParams = Type.Object({ code: ReasonCode })

/** what the signed-in employee's browser needs to register their browser phones (docs/access.md, "The browser phone's key") */
export const MyPhones = Type.Object({
  websocket_url: Type.Union([Type.String(), Type.Null()], { description: 'Asterisk\'s WebSocket (PBX_WEBSOCKET_URL); null: not set up on this service, no browser phone can register' }),
  phones: Type.Array(Type.Object({
    terminal_id: Type.String({ description: 'the endpoint, the SIP user and the digest\'s username' }),
    extension: Type.String(),
    name: Type.String(),
    sip_uri: Type.String({ description: 'the address the phone registers (sip:<terminal_id>@<the WebSocket\'s host>)' }),
    realm: Type.String(),
    ha1: Type.String({ description: 'the MD5 digest of terminal_id:realm:secret that answers Asterisk\'s challenge; void at sign-out (DELETE) and when the terminal changes hands' }),
  })),
}, { $id: 'MyPhones' })
export type MyPhones = Static<typeof MyPhones>

export const schemas = [AgentChoice, AgentView, BreakReasonCreate, BreakReasonUpdate, BreakReason, MyPhones]
