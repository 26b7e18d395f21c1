/**
 * A live stream is written at most this often: about once a display frame, more often than a
 * console can paint anyway. Each write costs the service and the console a system call and a wakeup
 * whatever its size: at thousands of events a second, fifty consoles written once a commit (hundreds
 * of times a second) spend more on that than on the events.
 */
const MIN_WRITE_INTERVAL_MS = 16
/** a burst larger than this leaves at once: the socket's backpressure then shows in its own counters */
const MAX_BURST_BYTES = 64 * 1024

export interface Burst<T> {
  /** holds `item` (`bytes` long) to leave with the others of its burst; answers the bytes held */
  push: (item: T, bytes: number) => number
}

/**
 * The messages of one live stream, let out together: once the current burst's work is done (the
 * notifications of one commit arrive together), or, when the stream was written less than
 * MIN_WRITE_INTERVAL_MS ago, once that much time has passed. A quiet stream's message leaves at once;
 * a busy one's waits at most that long. `write` sends them, in order, in one write to the socket.
 */
export function createBurst<T> (write: (items: T[], bytes: number) => void): Burst<T> {
  let items: T[] = []
  let bytes = 0
  let lastWrite = -Infinity
  let due = false

  function flush (): void {
    due = false
    if (items.length === 0) return
    const out = items
    const size = bytes
    items = []
    bytes = 0
    lastWrite = performance.now()
    write(out, size)
  }

  return {
    push (item, size) {
      items.push(item)
      bytes += size
      if (bytes > MAX_BURST_BYTES) flush()
      else if (!due) {
        due = true
        const wait = lastWrite + MIN_WRITE_INTERVAL_MS - performance.now()
        if (wait <= 0) process.nextTick(flush)
        else setTimeout(flush, wait)
      }
      return bytes
    },
  }
}
