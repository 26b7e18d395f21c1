import { Type, type Static } from 'typebox'
import { calendarDayKinds } from '../../db/schema/index.js'
import { Name, Nullable, OneOf } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'

const Kind = () => OneOf(calendarDayKinds, { description: 'holiday: a day off on a weekday; working: a Saturday or Sunday worked' })
const Day = () => Type.String({ format: 'date', description: 'a calendar day, YYYY-MM-DD' })

export const CalendarDay = Type.Object({
  day: Type.String({ format: 'date' }),
  kind: Kind(),
  name: Type.String(),
  name_kk: Nullable(Type.String({ description: 'the name in Kazakh' })),
  is_working: Type.Boolean({ description: 'whether the day counts for deadlines' }),
}, { $id: 'CalendarDay' })

export const CalendarYear = Type.Object({
  year: Type.Integer(),
  time_zone: Type.String(),
  work_hours: Type.String({ description: 'HH:MM-HH:MM' }),
  working_days: Type.Integer({ description: 'working days in the year' }),
  exceptions: Type.Array(ref(CalendarDay)),
}, { $id: 'CalendarYear' })

export const CalendarDayUpdate = Type.Object({
  kind: Kind(),
  name: Name(),
  // the name in Kazakh; left out or null: none
  name_kk: Type.Optional(Nullable(Name())),
}, { $id: 'CalendarDayUpdate', additionalProperties: false })

export const CalendarYearQuery = Type.Object({ year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100, description: 'default: the current year' })) })
export const CalendarDayParams = Type.Object({ day: Day() })

export type CalendarDay = Static<typeof CalendarDay>
export type CalendarYear = Static<typeof CalendarYear>
export type CalendarDayUpdate = Static<typeof CalendarDayUpdate>

export const schemas = [CalendarDay, CalendarYear, CalendarDayUpdate]
