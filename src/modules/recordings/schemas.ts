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

export const RecordingUsage = Type.Object({
  files: Type.Integer({ description: 'recordings kept (a file found missing is not counted)' }),
  bytes: Type.Integer({ description: 'the disk they take' }),
  today_bytes: Type.Integer({ description: 'taken over since the centre\'s midnight' }),
  daily_bytes: Type.Integer({ description: 'taken over a day, on average over the last 7 days' }),
  max_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'RECORDINGS_MAX_BYTES; null when not set' }),
  days_left: Type.Union([Type.Integer(), Type.Null()], { description: 'days until max_bytes at daily_bytes a day; null without max_bytes or arrivals' }),
}, { $id: 'RecordingUsage' })
export type RecordingUsage = Static<typeof RecordingUsage>

export const schemas = [Recording, RecordingUsage]
