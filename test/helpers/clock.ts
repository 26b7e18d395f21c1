/** A clock the test moves by hand. */
export function manualClock (start = Date.now()) {
  let now = start
  const clock = () => new Date(now)
  return Object.assign(clock, { advance: (ms: number) => { now += ms } })
}
