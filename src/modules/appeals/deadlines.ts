// DESIGN 7.3: an appeal's deadlines from its subcategory's terms, on the working calendar.
import { addCalendarHours, addWorkingDays, addWorkingHours, workingDayMs, type WorkingCalendar } from '../calendar/index.js'

export interface DeadlineRules {
  /** working days to answer when the subcategory sets no `time_to_close` */
  closeDays: number
  /** working days an extension may bring the answer deadline to */
  maxDays: number
}

export interface Terms { priority: number, time_to_work: number | null, time_to_close: number | null }

const EMERGENCY = 1

export function deadlinesOf (calendar: WorkingCalendar, rules: DeadlineRules, receivedAt: Date, terms: Terms) {
  // priority 1 counts calendar hours: an emergency does not wait for Monday
  const after = (hours: number) => terms.priority === EMERGENCY ? addCalendarHours(receivedAt, hours) : addWorkingHours(calendar, receivedAt, hours)
  const oneWorkingDay = workingDayMs(calendar) / 3_600_000
  return {
    work_due_at: after(terms.time_to_work ?? oneWorkingDay),
    close_due_at: terms.time_to_close !== null ? after(terms.time_to_close) : addWorkingDays(calendar, receivedAt, rules.closeDays),
  }
}

/** the latest answer deadline an extension may set */
export const latestExtension = (calendar: WorkingCalendar, rules: DeadlineRules, receivedAt: Date) => addWorkingDays(calendar, receivedAt, rules.maxDays)
