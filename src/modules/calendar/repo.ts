import { asc, eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { calendarDays, type CalendarDayKind } from '../../db/schema/index.js'

export type CalendarDayRow = typeof calendarDays.$inferSelect

export function createCalendarRepo (db: AppDb) {
  return {
    all: () => db.select().from(calendarDays).orderBy(asc(calendarDays.day)),
    upsert: async (day: string, values: { kind: CalendarDayKind, name: string, name_kk: string | null }) => (await db.insert(calendarDays).values({ day, ...values })
      .onConflictDoUpdate({ target: calendarDays.day, set: values }).returning())[0]!,
    remove: async (day: string) => (await db.delete(calendarDays).where(eq(calendarDays.day, day)).returning()).length > 0,
  }
}

export type CalendarRepo = ReturnType<typeof createCalendarRepo>
