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
 * 2. connections still arriving (the listen backlog) are accepted until a pass of the event loop finds
 *    none waiting, and none came for `quietMs` (or the accept window is over);
 * 3. the listener closes (without touching connections), accepted connections get `idleGraceMs` to
 *    show their request (a second: the embedded database can keep the process too busy to read a
 *    request sooner, and a connection closed then resets it), and only the ones that stay idle are
 *    closed;
 * 4. the stop waits for the rest to finish, up to the deadline.
 * Requires `return503OnClosing: false`.
 */
export function drainOnClose (app: FastifyInstance, options: DrainOptions): { stopping: () => boolean } {
  const sockets = new Set<Socket>()
  let stopping = false
  let lastConnection = 0
  let accepted = 0
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    accepted += 1
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
    for (;;) {
      const seen = accepted
      // a timer runs before the loop's poll phase, where waiting connections are accepted: decide only
      // after one, or a loop kept busy past the window would close a listener with a full backlog
      await sleep(10)
      await new Promise((resolve) => setImmediate(resolve))
      if (Date.now() - started >= options.deadlineMs / 2) break // a stream that never ends
      if (accepted !== seen) continue
      const quiet = Date.now() - lastConnection >= options.quietMs
      if (quiet || Date.now() - started >= options.acceptWindowMs) break
    }
    NetServer.prototype.close.call(app.server) // stops listening; http.Server's close would also drop connections
    await sleep(options.idleGraceMs)
    // a timer runs before the loop's poll phase: let it read what arrived meanwhile, so a connection
    // whose request bytes are waiting counts as busy, not idle
    await new Promise((resolve) => setImmediate(resolve))
    app.server.closeIdleConnections()
    // one close listener a connection (the set only shrinks now): not one more each time round
    const closed = Promise.all([...sockets].map((socket) => new Promise((resolve) => { socket.once('close', resolve) })))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([closed, new Promise((resolve) => { timer = setTimeout(resolve, Math.max(0, started + options.deadlineMs - Date.now())) })])
    clearTimeout(timer)
  })
  return { stopping: () => stopping }
}
