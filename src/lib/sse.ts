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

/** the events of the current burst for each stream, written when the burst's work is done */
const bursts = new Map<ServerResponse, { frames: Buffer[], bytes: number }>()
/** a burst larger than this leaves at once: the socket's backpressure then shows in `writableLength` */
const BURST_BYTES = 64 * 1024

function flushBurst (res: ServerResponse): void {
  const burst = bursts.get(res)
  if (!burst) return
  bursts.delete(res)
  if (!res.destroyed) res.write(burst.frames.length === 1 ? burst.frames[0]! : Buffer.concat(burst.frames, burst.bytes))
}

/**
 * The same, for a stream that receives events in bursts (the notifications of one commit arrive
 * together): the events written until the current burst's work is done leave as one chunk of the
 * response, one write to the socket, rather than one chunk each. Answers the bytes of the stream not
 * yet sent, this burst's included.
 */
export function writeEventInBurst (res: ServerResponse, data: string, event?: string): number {
  let burst = bursts.get(res)
  if (!burst) {
    burst = { frames: [], bytes: 0 }
    bursts.set(res, burst)
    process.nextTick(flushBurst, res)
  }
  const bytes = frame(data, event)
  burst.frames.push(bytes)
  burst.bytes += bytes.length
  if (burst.bytes > BURST_BYTES) flushBurst(res)
  return res.writableLength + (bursts.get(res)?.bytes ?? 0)
}
