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

/** one event's bytes (a Buffer, so that writableLength counts bytes) */
export function sseFrame (data: string, event?: string): Buffer {
  return Buffer.from(`${event ? `event: ${event}\n` : ''}data: ${data}\n\n`)
}

/** one `data:` event; false when the socket is full */
export function writeEvent (res: ServerResponse, data: string, event?: string): boolean {
  return res.write(sseFrame(data, event))
}
