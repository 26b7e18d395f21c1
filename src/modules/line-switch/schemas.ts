import { Type, type Static } from 'typebox'
import { Id, Nullable, Timestamp } from '../../lib/common-schemas.js'

export const LineCloseRequest = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200, 'x-trim': true, description: 'why: "emergency", "closed for the event"; shown to the centre' }),
  until: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'when it opens by itself; absent or null: until opened again' }))),
  prompt_id: Type.Optional(Nullable(Id({ description: 'the organization\'s prompt callers hear while it is closed (one with a recording); null: the call ends' }))),
}, { $id: 'LineCloseRequest', additionalProperties: false })
export type LineCloseRequest = Static<typeof LineCloseRequest>

const Who = Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }))

export const LineSwitchState = Type.Object({
  line_id: Type.Integer(), tenant_id: Type.Integer(), number: Type.String(), name: Type.String(),
  closed: Type.Boolean({ description: 'closed at the switch now (a closing whose end has passed is open)' }),
  reason: Nullable(Type.String()), until: Nullable(Timestamp()), prompt_id: Nullable(Type.Integer()),
  by: Who, at: Nullable(Type.String({ format: 'date-time', description: 'when it was last switched' })),
}, { $id: 'LineSwitchState' })
export type LineSwitchState = Static<typeof LineSwitchState>

export const LineSwitchEvent = Type.Object({
  id: Type.Integer(), action: Type.Union([Type.Literal('close'), Type.Literal('open')]), reason: Nullable(Type.String()), until: Nullable(Timestamp()),
  prompt_id: Nullable(Type.Integer()), by: Who, at: Timestamp(),
}, { $id: 'LineSwitchEvent' })

export const TenantParams = Type.Object({ tenant_id: Id() })
export const LineParams = Type.Object({ tenant_id: Id(), line_id: Id() })

export const schemas = [LineCloseRequest, LineSwitchState, LineSwitchEvent]
