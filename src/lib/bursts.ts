/**
 * A live stream is written at most this often: about once a display frame, more often than a
 * console can paint anyway. Each write costs the service and the console a system call and a wakeup
 * whatever its size: at thousands of events a second, fifty consoles written once a commit (hundreds
 * of times a second) spend more on that than on the events.
 */
const MIN_WRITE_INTERVAL_MS = 16
/** a burst heavier than this leaves at once: the sockets' backpressure then shows in their own counters */
const MAX_BURST_WEIGHT = 64 * 1024

export interface Burst<T> {
  /** holds the item to leave with the others of its burst */
  push: (item: T) => void
}

/**
 * Items let out together: once the current burst's work is done (the notifications of one commit
 * arrive together), or, when the last burst left less than MIN_WRITE_INTERVAL_MS ago, once that
 * much time has passed. A quiet source's item leaves at once; a busy one's waits at most that long.
 * `write` gets them in order.
 */
export function createBurst<T> (write: (items: T[]) => void, weight: (item: T) => number, now: () => number = () => performance.now()): Burst<T> {
  let items: T[] = []
  let held = 0
  let lastWrite = -Infinity
  let due = false

  function flush (): void {
    due = false
    if (items.length === 0) return
    const out = items
    items = []
    held = 0
    lastWrite = now()
    write(out)
  }

  return {
    push (item) {
      items.push(item)
      held += weight(item)
      if (held > MAX_BURST_WEIGHT) flush()
      else if (!due) {
        due = true
        const wait = lastWrite + MIN_WRITE_INTERVAL_MS - now()
        if (wait <= 0) process.nextTick(flush)
        else setTimeout(flush, wait)
      }
    },
  }
}
