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
 * The same, for a stream that receives events in bursts: the events written until the current
 * burst's work is done leave in one write to the socket, not one each.
 */
export function writeEventCorked (res: ServerResponse, data: string, event?: string): boolean {
  if (res.writableCorked === 0) {
    res.cork()
    process.nextTick(() => { res.uncork() })
  }
  return writeEvent(res, data, event)
}
