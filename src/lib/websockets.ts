import { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import websocket, { type WebsocketPluginOptions } from '@fastify/websocket'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import FindMyWay from 'find-my-way'
import { requestId } from './http.js'

const NOT_FOUND = '{"detail":"Not Found"}'

/** what an upgrade to a path without a WebSocket gets: the 404 an HTTP client would, and the end of its connection */
function refuse (req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy())
  socket.end(`HTTP/1.1 404 Not Found\r\nx-request-id: ${requestId(req)}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${NOT_FOUND.length}\r\nconnection: close\r\n\r\n${NOT_FOUND}`)
}

/**
 * WebSocket routes for one scope only. @fastify/websocket puts two hooks on every request of the
 * scope it is registered in; registered here, only the WebSocket routes of `scope` run them, and every
 * other request of the service runs none. An upgrade request reaches the plugin (and Fastify's
 * routing) only when its path is one of those routes: any other is answered 404 and its connection
 * closed, before any routing. One such scope per service: it answers every upgrade of the server.
 */
export async function registerWebSockets (scope: FastifyInstance, options: WebsocketPluginOptions['options']): Promise<void> {
  const paths = FindMyWay()
  scope.addHook('onRoute', (route) => {
    // the plugin's own fields of a route, which its types give only to its own route shorthand
    const flags = route as unknown as { websocket?: boolean, wsHandler?: unknown, handler: unknown, schema?: object }
    // the HEAD that Fastify makes of a GET carries the flag too
    if (!flags.websocket || route.method !== 'GET') return
    paths.on('GET', route.url, () => {})
    // a plain GET (no upgrade) is answered as a path without a route is, not with the plugin's empty 404
    flags.wsHandler = route.handler
    flags.handler = async (_req: FastifyRequest, reply: FastifyReply) => reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND)
    flags.websocket = false
    flags.schema = { ...route.schema, hide: true }
  })
  // the plugin listens here, not on the server: it hears only the upgrades meant for these routes
  const upgrades = new EventEmitter()
  scope.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?', 1)[0]!
    if (req.method !== 'GET' || paths.find('GET', path) === null) refuse(req, socket)
    // none listens once the plugin has closed at a stop
    else if (!upgrades.emit('upgrade', req, socket, head)) socket.destroy()
  })
  await scope.register(websocket, { options: { ...options, server: upgrades as unknown as NonNullable<WebsocketPluginOptions['options']>['server'] } })
}

/**
 * A text message as a server writes it on a WebSocket (RFC 6455 section 5.2: final, unmasked, no
 * extension bits), for a message that goes to many consoles: framed once for them all, where ws
 * would frame it again for each, a header and a write apiece. Valid whatever extension was agreed: a
 * frame without RSV1 is not compressed (RFC 7692 section 6).
 */
export function textFrame (text: string): Buffer {
  const payload = Buffer.from(text)
  const n = payload.length
  const head = n < 126 ? Buffer.from([0x81, n]) : Buffer.alloc(n < 65536 ? 4 : 10)
  if (n >= 126) {
    head[0] = 0x81
    if (n < 65536) { head[1] = 126; head.writeUInt16BE(n, 2) } else { head[1] = 127; head.writeBigUInt64BE(BigInt(n), 2) }
  }
  return Buffer.concat([head, payload])
}
