/** the centre's (Asia/Almaty's) calendar day of an instant, '2026-03-21' */
export const centreDayOf = (at: Date | string | number = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Almaty' }).format(new Date(at))

/**
 * The start of a test's clock when it names none: now, or with TEST_CLOCK_AT=HH:MM (CI's first run
 * sets 02:00) that hour of the centre's (Asia/Almaty's) today, when most other zones are on another date.
 */
function defaultStart (): number {
  const at = process.env.TEST_CLOCK_AT
  if (!at) return Date.now()
  if (!/^\d{2}:\d{2}$/.test(at)) throw new Error(`TEST_CLOCK_AT must be HH:MM, not ${at}`)
  return new Date(`${centreDayOf()}T${at}:00+05:00`).getTime()
}

/** A clock the test moves by hand. */
export function manualClock (start = defaultStart()) {
  let now = start
  const clock = () => new Date(now)
  return Object.assign(clock, { advance: (ms: number) => { now += ms } })
}
