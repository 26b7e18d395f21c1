import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { ServerResponse } from 'node:http'
import { sseFrame, startEventStream } from '../../lib/sse.js'
import { registerWebSockets, textFrame } from '../../lib/websockets.js'
import { Type } from 'typebox'
import { UnauthorizedError } from '../../lib/errors.js'
import { bearer, ref } from '../../lib/openapi.js'
import {
  CallAnsweredEvent, CallAnsweredResult, OnlineOperator, CallDetail, CallIdParams, CallListQuery, CallSummary, CallTranscriptionEvent, CallTranscriptionResult, CurrentCall,
} from './schemas.js'
import type { LiveBatch, LiveEncoding, LiveEvents } from './live.js'
import type { CallEventService } from './service.js'
import type { ShownRecorder } from '../audit/index.js'

const tags = ['call events']
const machine = { machine: true }

/** a console this far behind is cut off rather than buffered without end */
const MAX_UNSENT_BYTES = 1024 * 1024
const HEARTBEAT_MS = 15_000

/** a live event as each transport writes it; a batch of them is encoded once for all the consoles it goes to */
const asSse: LiveEncoding = ({ event, json }) => sseFrame(json, event.type)
const asWebSocket: LiveEncoding = ({ json }) => textFrame(json)

/** how a console is reached: SSE or WebSocket */
interface ConsoleTransport {
  /** called once the console counts as online, before any event */
  open: () => void
  /** false when the console is too far behind and was cut off */
  send: (batch: LiveBatch) => boolean
  /** false when the console is gone */
  beat: () => boolean
  close: () => void
  onClose: (end: () => void) => void
}

/** the calls whose caller or transcript a batch shows */
const callsIn = (batch: LiveBatch): number[] => batch.deliveries.flatMap(({ event }) =>
  event.type === 'call.answered' ? [event.call.id] : event.type === 'call.transcription' || event.type === 'call.final' ? [event.call_row_id] : [])

/**
 * A console's deliveries with the audit of personal data: the first batch that shows it a call waits
 * until that is recorded (and the batches after it wait their turn); the rest go out at once. A
 * record that cannot be written cuts the console off: nothing is shown unrecorded.
 */
function recordedDelivery (req: FastifyRequest, recordShown: ShownRecorder, send: (batch: LiveBatch) => void, cutOff: () => void) {
  const shown = new Set<number>()
  let queue: Promise<void> | undefined
  return (batch: LiveBatch) => {
    const fresh = [...new Set(callsIn(batch))].filter((id) => !shown.has(id))
    for (const id of fresh) shown.add(id)
    if (fresh.length === 0 && !queue) { send(batch); return }
    const step: Promise<void> = (queue ?? Promise.resolve())
      .then(() => fresh.length > 0 ? recordShown(req, 'call', fresh, { live: true }) : undefined)
      .then(() => { send(batch) }, (err: unknown) => { req.log.error({ err }, 'calls shown live not recorded: console cut off'); cutOff() })
      .finally(() => { if (queue === step) queue = undefined })
    queue = step
  }
}

const routes: FastifyPluginAsyncTypebox<{ service: CallEventService, live: LiveEvents, recordShown?: ShownRecorder }> = async (app, { service, live, recordShown }) => {
  const streams = new Set<() => void>()
  app.addHook('preClose', async () => { for (const end of streams) end() })

  /**
   * One console, whatever carries it: presence while it is open, the events it may see, a heartbeat,
   * and the end (closed by the console, cut off when too slow or dead, or at shutdown). The events
   * are heard from the start: a WebSocket is open to its client before presence is recorded, and
   * what comes meanwhile is held and sent once the console is attached.
   */
  async function attachConsole (req: FastifyRequest, transport: ConsoleTransport): Promise<void> {
    const held: LiveBatch[] = []
    let deliver = (batch: LiveBatch) => { held.push(batch) }
    const unsubscribe = live.subscribe(req.principal!, (batch) => { deliver(batch) })
    let presence: Awaited<ReturnType<CallEventService['connectConsole']>>
    try {
      presence = await service.connectConsole(req.principal!)
    } catch (err) {
      unsubscribe()
      throw err
    }
    transport.open()
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      streams.delete(end)
      unsubscribe()
      clearInterval(heartbeat)
      transport.close()
      presence.close().catch((err: unknown) => req.log.warn({ err }, 'presence not cleared'))
    }
    const send = (batch: LiveBatch) => {
      if (!ended && !transport.send(batch)) { req.log.warn('slow console cut off'); end() }
    }
    deliver = recordShown ? recordedDelivery(req, recordShown, send, end) : send
    const heartbeat = setInterval(() => {
      if (!transport.beat()) { end(); return }
      presence.beat().catch((err: unknown) => req.log.warn({ err }, 'presence beat failed'))
    }, HEARTBEAT_MS)
    streams.add(end)
    transport.onClose(end)
    for (const batch of held.splice(0)) deliver(batch)
  }

  app.get('/stream', {
    config: { user: true },
    schema: { tags, security: bearer, operationId: 'callEventStream', summary: 'Server-Sent Events for operator consoles: call.answered, call.transcription, call.final (an admin sees all, a manager its organization, an operator its own)' },
  }, async (req, reply) => {
    let res: ServerResponse | undefined
    // the response is ours once it starts: a failure here must end it, not leave it open
    await attachConsole(req, {
      // the stream starts only once presence is recorded: a console that sees 200 is already online
      open: () => {
        res = startEventStream(req, reply)
        res.write(': connected\n\n')
      },
      send: (batch) => {
        if (res!.destroyed || res!.writableEnded) return true
        res!.write(batch.bytes(asSse))
        if (res!.writableLength <= MAX_UNSENT_BYTES) return true
        res!.destroy()
        return false
      },
      beat: () => res!.write(': ping\n\n') || true,
      close: () => { res!.end() },
      onClose: (end) => { req.raw.on('close', end) },
    }).catch((err: unknown) => {
      if (!res) throw err
      req.log.error({ err }, 'console not attached')
      res.end()
    })
  })

  app.post('/answered', {
    config: machine,
    schema: { tags, operationId: 'callAnswered', summary: 'A call was connected to an operator (stored before the answer; the caller is looked up among persons)', body: ref(CallAnsweredEvent), response: { 200: ref(CallAnsweredResult) } },
  }, async (req) => service.answered(req.body))

  app.post('/transcription', {
    config: machine,
    schema: { tags, operationId: 'callTranscription', summary: 'A transcript chunk (idempotent; is_final closes the call, later chunks are 409)', body: ref(CallTranscriptionEvent), response: { 200: ref(CallTranscriptionResult) } },
  }, async (req) => service.transcription(req.body))

  // Browsers cannot set headers on a WebSocket: the token comes as ?token= or as the second
  // subprotocol (new WebSocket(url, ['bearer', token])). A scope of its own: no other route pays
  // for the WebSocket plugin's hooks.
  await app.register(async (sockets) => {
    await registerWebSockets(sockets, { maxPayload: 64 * 1024, handleProtocols: (offered: Set<string>) => (offered.has('bearer') ? 'bearer' : false) })
    sockets.get('/ws', {
      websocket: true,
      config: { ownToken: 'user token (query or subprotocol)' },
      onRequest: async (req) => {
        if (req.principal) return
        const query = req.query as { token?: string }
        const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
        const token = query.token ?? (offered[0]?.toLowerCase() === 'bearer' ? offered[1] : undefined)
        const principal = token ? await app.resolvePrincipal(token) : undefined
        if (!principal) throw new UnauthorizedError()
        req.principal = principal
      },
      schema: { tags, operationId: 'callEventSocket', summary: 'WebSocket for operator consoles: the same events as /stream, as JSON messages (token as ?token= or the subprotocol pair bearer, <token>)' },
    }, async (socket, req) => {
      let alive = true
      socket.on('pong', () => { alive = true })
      // a batch's messages, one frame each (framed once for all consoles), leave in one write to the connection
      const connection = req.raw.socket
      await attachConsole(req, {
        open: () => {},
        send: (batch) => {
          if (socket.readyState !== socket.OPEN) return true
          connection.write(batch.bytes(asWebSocket))
          if (socket.bufferedAmount <= MAX_UNSENT_BYTES) return true
          socket.close(1013, 'too slow')
          return false
        },
        // a ping each beat; a console that did not answer the last one is gone
        beat: () => {
          if (!alive) { socket.terminate(); return false }
          alive = false
          socket.ping()
          return true
        },
        close: () => { if (socket.readyState === socket.OPEN) socket.close(1001, 'server closing') },
        onClose: (end) => { socket.on('close', end) },
      })
    })
  })

  app.get('/online-operators', {
    // open as the interface has it, but callers' numbers are masked without a token that may see them
    config: { strict: true },
    schema: { tags, operationId: 'onlineOperators', summary: 'Operators online: console connected (any instance) or terminal registered in Asterisk, with state idle/on_call, caller and since when (the caller\'s number masked unless the token\'s user may see that terminal\'s calls)', response: { 200: Type.Array(ref(OnlineOperator)) } },
  }, async (req) => service.onlineOperators(req.principal))

  app.get('/calls', {
    config: { user: true, personalData: { subject: 'call', ids: (calls: Array<{ id: number }>) => calls.map((c) => c.id) } },
    schema: { tags, security: bearer, operationId: 'listCalls', summary: 'Call history: an admin sees all, a manager its organization\'s, an operator its own', querystring: CallListQuery, response: { 200: Type.Array(ref(CallSummary)) } },
  }, async (req) => service.list(req.principal!, req.query))

  app.get('/current', {
    config: { user: true, personalData: { subject: 'call', ids: (current: { call: { id: number } } | null) => current ? [current.call.id] : [] } },
    schema: {
      tags, security: bearer, operationId: 'currentCall',
      summary: 'The user\'s call going on (answered, transcript open, begun within 2 hours) with the caller as matched now and the earlier calls from the number; 204 when there is none (a reloaded desk finds its caller again)',
      response: { 200: ref(CurrentCall), 204: Type.Null({ description: 'no call going on' }) },
    },
  }, async (req, reply) => {
    const current = await service.current(req.principal!)
    return current ?? reply.code(204).send(null)
  })

  app.get('/calls/:call_id', {
    config: { user: true, personalData: { subject: 'call', ids: (call: { id: number }) => [call.id] } },
    schema: { tags, security: bearer, operationId: 'getCall', summary: 'One call with its transcript and chunks', params: CallIdParams, response: { 200: ref(CallDetail) } },
  }, async (req) => service.get(req.principal!, req.params.call_id))
}

export default routes
