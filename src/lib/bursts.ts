/**
 * A live stream is written at most this often: about once a display frame, more often than a
 * console can paint anyway. Each write costs the service and the console a system call and a wakeup
 * whatever its size: at thousands of events a second, fifty consoles written once a commit (hundreds
 * of times a second) spend more on that than on the events.
 */
const MIN_WRITE_INTERVAL_MS = 16
/** a burst larger than this leaves at once: the socket's backpressure then shows in its own counters */
const MAX_BURST_BYTES = 64 * 1024

export interface Burst {
  /** holds the bytes to leave with the others of its burst; answers the bytes held */
  push: (bytes: Buffer) => number
}

/**
 * The messages of one live stream, let out together: once the current burst's work is done (the
 * notifications of one commit arrive together), or, when the stream was written less than
 * MIN_WRITE_INTERVAL_MS ago, once that much time has passed. A quiet stream's message leaves at once;
 * a busy one's waits at most that long. `write` gets them in order, as one buffer: one write to the socket.
 */
export function createBurst (write: (bytes: Buffer) => void): Burst {
  let items: Buffer[] = []
  let bytes = 0
  let lastWrite = -Infinity
  let due = false

  function flush (): void {
    due = false
    if (items.length === 0) return
    const out = items.length === 1 ? items[0]! : Buffer.concat(items, bytes)
    items = []
    bytes = 0
    lastWrite = performance.now()
    write(out)
  }

  return {
    push (item) {
      items.push(item)
      bytes += item.length
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
