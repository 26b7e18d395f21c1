import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ServerResponse } from 'node:http'
import { createBurst, type Burst } from './bursts.js'

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

const bursts = new WeakMap<ServerResponse, Burst>()

/**
 * The same, for a stream that receives events in bursts (see createBurst): the events of a burst leave
 * together, as one chunk of the response. Answers the bytes of the stream not yet sent, those held
 * for the burst included.
 */
export function writeEventInBurst (res: ServerResponse, data: string, event?: string): number {
  let burst = bursts.get(res)
  if (!burst) {
    burst = createBurst((bytes) => { if (!res.destroyed && !res.writableEnded) res.write(bytes) })
    bursts.set(res, burst)
  }
  const held = burst.push(frame(data, event))
  return res.writableLength + held
}
