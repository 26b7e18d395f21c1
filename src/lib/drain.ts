import { Server as NetServer, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

export interface DrainOptions {
  /** how long a stop keeps accepting while connections still arrive (the kernel's backlog) */
  acceptWindowMs: number
  /** accepting ends once no connection arrived for this long */
  quietMs: number
  /** how long an accepted connection has, after the listener closed, to show its request */
  idleGraceMs: number
  /** the longest the whole drain may take (inside the process's stop grace period) */
  deadlineMs: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A stop that finishes everything that had reached the service. Node's own `server.close()` stops
 * listening and at once closes the connections it thinks idle, which includes connections the
 * kernel had accepted and whose request bytes were not read yet: under load those clients saw
 * resets, and requests on kept-alive connections got Fastify's 503. Instead, at a stop:
 * 1. every response says `Connection: close` (Fastify's own, once its close began), so connections
 *    end after the request they carry;
 * 2. connections still arriving (the listen backlog) are accepted until they stop coming;
 * 3. the listener closes (without touching connections), and each connection is closed once it has
 *    been idle for `idleGraceMs` (a kept-alive client whose last answer came before the stop may be
 *    sending its next request right then: closed at once, it would see a reset, the more so when
 *    the embedded database keeps the event loop busy and its bytes wait unread);
 * 4. the stop waits for the rest to finish, up to the deadline.
 * Requires `return503OnClosing: false`.
 */
export function drainOnClose (app: FastifyInstance, options: DrainOptions): { stopping: () => boolean } {
  const sockets = new Set<Socket>()
  let stopping = false
  let lastConnection = 0
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    lastConnection = Date.now()
    socket.once('close', () => sockets.delete(socket))
  })
  // a WebSocket is not a request in flight: its plugin closes it at the stop
  app.server.on('upgrade', (_request, socket: Socket) => { sockets.delete(socket) })
  // Fastify itself says `Connection: close` on every answer from the moment its close begins (before
  // the preClose hooks), so no hook of ours runs on every request
  app.addHook('preClose', async () => {
    stopping = true
    if (!app.server.listening) return
    const started = Date.now()
    lastConnection = Math.max(lastConnection, started)
    while (Date.now() - lastConnection < options.quietMs && Date.now() - started < options.acceptWindowMs) await sleep(10)
    // closed in the check phase, just after a poll phase in which libuv accepted every connection the
    // kernel held: a listener closed with connections in its backlog resets them (seen from a timer,
    // when clients reconnect all the time: dozens of resets at a stop under load)
    await new Promise((resolve) => setImmediate(resolve))
    NetServer.prototype.close.call(app.server) // stops listening; http.Server's close would also drop connections
    await closeWhenIdle(sockets, options.idleGraceMs, started + options.deadlineMs)
    // one close listener a connection (the set only shrinks now): not one more each time round
    const closed = Promise.all([...sockets].map((socket) => new Promise((resolve) => { socket.once('close', resolve) })))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([closed, new Promise((resolve) => { timer = setTimeout(resolve, Math.max(0, started + options.deadlineMs - Date.now())) })])
    clearTimeout(timer)
  })
  return { stopping: () => stopping }
}

/** the response a connection is writing now, if any (Node's own mark on the socket, set from the request's parsing to the response's end) */
const busy = (socket: Socket) => (socket as Socket & { _httpMessage?: unknown })._httpMessage != null

/**
 * Closes each connection once it has been seen idle for `quietMs` on end, looking every 20 ms (each
 * look after a poll phase, so that bytes that arrived count as a request), until all are closed
 * or the deadline passes (a busy one ends itself: its answer says `Connection: close`).
 */
async function closeWhenIdle (sockets: Set<Socket>, quietMs: number, deadline: number): Promise<void> {
  const busySince = new Map<Socket, number>()
  const start = Date.now()
  while (sockets.size > 0 && Date.now() < deadline) {
    await sleep(20)
    await new Promise((resolve) => setImmediate(resolve))
    const now = Date.now()
    for (const socket of sockets) {
      if (busy(socket)) busySince.set(socket, now)
      else if (now - (busySince.get(socket) ?? start) >= quietMs) socket.destroy()
    }
  }
}
