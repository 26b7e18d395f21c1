import { Type, type Static } from 'typebox'

export const RecordingIdParams = Type.Object({ recording_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) })
export const LinkedidParams = Type.Object({ linkedid: Type.String({ minLength: 1, maxLength: 64, pattern: '^[0-9]+\\.[0-9]+$' }) })

export const Recording = Type.Object({
  id: Type.Integer(),
  linkedid: Type.String({ description: 'the call (Asterisk\'s Linkedid)' }),
  leg: Type.String({ description: 'the Uniqueid of the channel that recorded: a transfer or a second operator is another leg' }),
  terminal: Type.Union([Type.String(), Type.Null()], { description: 'the operator\'s terminal on that leg' }),
  started_at: Type.String({ format: 'date-time' }),
  seconds: Type.Number(),
  bytes: Type.Integer(),
  format: Type.Union([Type.Literal('opus'), Type.Literal('wav')], { description: '`opus`: Ogg/Opus; `wav`: kept raw until an encoder runs' }),
  missing: Type.Boolean({ description: 'the file was removed outside the service: fetching it answers 410' }),
  url: Type.String({ description: 'where it is heard: GET with Range' }),
}, { $id: 'Recording' })
export type RecordingOut = Static<typeof Recording>

export const schemas = [Recording]
