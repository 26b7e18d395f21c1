import type { AppDb } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import { localPeriod } from '../calendar/index.js'
import { usageOf } from './queries.js'
import type { RecordingUsage } from './schemas.js'

const DAY_MS = 86_400_000
const WEEK_DAYS = 7

/** the disk the recordings take and the pace they arrive at (the board, /metrics): a read of the trigger's bins */
export function createRecordingUsage ({ db, clock, timeZone, maxBytes }: { db: AppDb, clock: Clock, timeZone: string, maxBytes?: number }) {
  return async function usage (): Promise<RecordingUsage> {
    const now = clock()
    const today = localPeriod(timeZone, now, {}, { defaultDays: 1, maxDays: 1 }).start
    const u = await usageOf(db, today, new Date(now.getTime() - WEEK_DAYS * DAY_MS))
    const daily = Math.round(u.week_bytes / WEEK_DAYS)
    const daysLeft = maxBytes === undefined ? null : u.bytes >= maxBytes ? 0 : daily > 0 ? Math.floor((maxBytes - u.bytes) / daily) : null
    return { files: u.files, bytes: Math.round(u.bytes), today_bytes: Math.round(u.since_bytes), daily_bytes: daily, max_bytes: maxBytes ?? null, days_left: daysLeft }
  }
}
