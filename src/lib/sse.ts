import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ServerResponse } from 'node:http'

/**
 * Takes the response over from Fastify and starts a Server-Sent Events stream on it. From here the
 * caller owns the response: it must end it.
 */
export function startEventStream (req: FastifyRequest, reply: FastifyReply): ServerResponse {
  reply.hijack()
  const res = reply.raw
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    // nginx would otherwise buffer the stream
    'x-accel-buffering': 'no',
    'x-request-id': req.id,
  })
  return res
}

/** the last frame built: one event fanned out to many streams is built once, not once per stream */
let lastFrame: { data: string, event: string | undefined, bytes: Buffer } | undefined

/** one event's bytes (a Buffer, so that writableLength counts bytes) */
function frame (data: string, event?: string): Buffer {
  if (lastFrame?.data !== data || lastFrame.event !== event) {
    lastFrame = { data, event, bytes: Buffer.from(`${event ? `event: ${event}\n` : ''}data: ${data}\n\n`) }
  }
  return lastFrame.bytes
}

/** one `data:` event; false when the socket is full */
export function writeEvent (res: ServerResponse, data: string, event?: string): boolean {
  return res.write(frame(data, event))
}

/**
 * A stream is written at most this often: about once a display frame, more often than a console can
 * paint anyway. Each write costs the service and the console a system call and a wakeup whatever
 * its size: at thousands of events a second, fifty consoles written once a commit (hundreds of times
 * a second) spend more on that than on the events.
 */
const MIN_WRITE_INTERVAL_MS = 16
/** a burst larger than this leaves at once: the socket's backpressure then shows in `writableLength` */
const BURST_BYTES = 64 * 1024

/** the events of a stream not yet written, and when it was last written */
interface Burst { frames: Buffer[], bytes: number, lastWrite: number, due: boolean }
const bursts = new WeakMap<ServerResponse, Burst>()

function flushBurst (res: ServerResponse, burst: Burst): void {
  burst.due = false
  if (burst.frames.length === 0) return
  const bytes = burst.frames.length === 1 ? burst.frames[0]! : Buffer.concat(burst.frames, burst.bytes)
  burst.frames = []
  burst.bytes = 0
  burst.lastWrite = performance.now()
  if (!res.destroyed && !res.writableEnded) res.write(bytes)
}

/**
 * The same, for a stream that receives events in bursts (the notifications of one commit arrive
 * together): the events leave together, in one chunk of the response and one write to the socket,
 * once the current burst's work is done, or, when the stream was written less than
 * MIN_WRITE_INTERVAL_MS ago, once that much time has passed (a quiet stream's event leaves at once,
 * a busy one's wait at most that long). Answers the bytes of the stream not yet sent, those held
 * here included.
 */
export function writeEventInBurst (res: ServerResponse, data: string, event?: string): number {
  let burst = bursts.get(res)
  if (!burst) {
    burst = { frames: [], bytes: 0, lastWrite: -Infinity, due: false }
    bursts.set(res, burst)
  }
  const bytes = frame(data, event)
  burst.frames.push(bytes)
  burst.bytes += bytes.length
  if (burst.bytes > BURST_BYTES) flushBurst(res, burst)
  else if (!burst.due) {
    burst.due = true
    const wait = burst.lastWrite + MIN_WRITE_INTERVAL_MS - performance.now()
    if (wait <= 0) process.nextTick(flushBurst, res, burst)
    else setTimeout(flushBurst, wait, res, burst)
  }
  return res.writableLength + burst.bytes
}
