import { connect, type Socket } from 'node:net'
import { StringDecoder } from 'node:string_decoder'
import { encodeAction, decodeMessage, field, MESSAGE_END, type AmiMessage } from './protocol.js'
import { backoffDelay } from '../../lib/backoff.js'
import { traced } from '../../lib/tracing.js'

export interface AmiOptions {
  host: string
  port: number
  username: string
  secret: string
  /** every action, and connecting with login, must finish within this */
  timeoutMs: number
  /** the event classes this connection receives (Login's `Events`): `off` unless it streams them */
  events?: string
  /** a streaming connection that has heard nothing this long sends a Ping; unanswered within timeoutMs, it is reopened */
  keepAliveMs?: number
}

/** what a connection that streams events hears: each event as it arrives, and the connection's state */
export interface AmiEventHandlers {
  event: (message: AmiMessage, at: Date) => void
  /** logged in: events flow from now on (what happened while disconnected was not seen) */
  connected?: () => void
  lost?: (reason: string) => void
}

export interface AmiListResult { response: AmiMessage, events: AmiMessage[] }

interface Pending {
  resolve: (value: AmiListResult) => void
  reject: (err: Error) => void
  list: boolean
  events: AmiMessage[]
  response?: AmiMessage
  timer: NodeJS.Timeout
}

const BANNER = /^Asterisk Call Manager\/[\d.]+$/
const MAX_BACKOFF_MS = 30_000

export class AmiError extends Error {}
/** Asterisk answered, and said no (`Response: Error`): the request's fault, not the connection's */
export class AmiRefusal extends AmiError {}

/**
 * A small AMI client: one connection, opened on demand and logged in with `Events: off`; actions
 * correlated by ActionID; `EventList` lists collected until `Complete`; every action timed out;
 * after a failed connection the next attempt waits (1 s, 2 s, 4 s ... 30 s) instead of hammering.
 */
export function createAmiClient (options: AmiOptions) {
  let socket: Socket | undefined
  let ready: Promise<void> | undefined
  let buffer = ''
  // a character split across two TCP chunks (a Cyrillic caller name) is decoded once whole
  let decoder = new StringDecoder('utf8')
  let bannerSeen = false
  /** when the connection last said anything (a keep-alive pings only a quiet one) */
  let heardAt = 0
  let sequence = 0
  let failures = 0
  let retryAt = 0
  let lastError = ''
  const pending = new Map<string, Pending>()
  let streaming: Pick<AmiEventHandlers, 'event' | 'lost'> | undefined
  let stopStreaming: (() => void) | undefined

  function failAll (err: Error): void {
    for (const [id, p] of pending) { clearTimeout(p.timer); p.reject(err); pending.delete(id) }
  }

  function drop (reason: string): void {
    socket?.destroy()
    socket = undefined
    ready = undefined
    buffer = ''
    decoder = new StringDecoder('utf8')
    bannerSeen = false
    failAll(new AmiError(reason))
    streaming?.lost?.(reason)
  }

  function onMessage (m: AmiMessage): void {
    const id = field(m, 'ActionID')
    const p = id === undefined ? undefined : pending.get(id)
    if (!p) {
      // an event is the stream's whether or not it names an action: Originate's OriginateResponse comes
      // long after its answer, under its ActionID
      if (field(m, 'Event') !== undefined) streaming?.event(m, new Date())
      return // otherwise an answer nobody waits for any more
    }
    if (p.response === undefined && field(m, 'Response') !== undefined) {
      p.response = m
      const listing = field(m, 'EventList') === 'start'
      if (!p.list || !listing) { settle(id!, p); return }
      return
    }
    if (field(m, 'EventList') === 'Complete') { settle(id!, p); return }
    p.events.push(m)
  }

  function settle (id: string, p: Pending): void {
    clearTimeout(p.timer)
    pending.delete(id)
    p.resolve({ response: p.response!, events: p.events })
  }

  function onData (chunk: Buffer): void {
    heardAt = Date.now()
    buffer += decoder.write(chunk)
    if (!bannerSeen) {
      const eol = buffer.indexOf('\r\n')
      if (eol < 0) return
      const banner = buffer.slice(0, eol)
      buffer = buffer.slice(eol + 2)
      if (!BANNER.test(banner)) { drop(`not an Asterisk Manager Interface: ${JSON.stringify(banner.slice(0, 60))}`); return }
      bannerSeen = true
    }
    for (let end = buffer.indexOf(MESSAGE_END); end >= 0; end = buffer.indexOf(MESSAGE_END)) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + MESSAGE_END.length)
      if (block.trim() !== '') onMessage(decodeMessage(block))
    }
  }

  function send (fields: Record<string, string>, list: boolean, timeoutMs = options.timeoutMs): Promise<AmiListResult> {
    const id = `appeals-${++sequence}`
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(new AmiError(`AMI ${fields.Action} got no answer within ${timeoutMs} ms`))
        drop('connection reset after a timeout') // a peer that stopped answering is not trusted with more
      }, timeoutMs)
      pending.set(id, { resolve, reject, list, events: [], timer })
      socket!.write(encodeAction({ ...fields, ActionID: id }))
    })
  }

  function open (): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const s = connect({ host: options.host, port: options.port })
      socket = s
      const timer = setTimeout(() => { s.destroy(new AmiError(`AMI did not answer within ${options.timeoutMs} ms`)) }, options.timeoutMs)
      s.setNoDelay(true)
      s.on('data', onData)
      s.on('error', (err) => { clearTimeout(timer); reject(new AmiError(err.message)); if (socket === s) drop(`AMI connection error: ${err.message}`) })
      s.on('close', () => { clearTimeout(timer); reject(new AmiError('AMI closed the connection')); if (socket === s) drop('AMI closed the connection') })
      s.on('connect', () => {
        send({ Action: 'Login', Username: options.username, Secret: options.secret, Events: options.events ?? 'off' }, false).then(({ response }) => {
          clearTimeout(timer)
          if (field(response, 'Response') !== 'Success') throw new AmiError(`AMI login refused: ${field(response, 'Message') ?? 'no reason given'}`)
          resolve()
        }).catch((err: Error) => { clearTimeout(timer); reject(err); if (socket === s) drop(err.message) })
      })
    })
  }

  async function ensureConnected (): Promise<void> {
    if (ready) return ready
    const wait = retryAt - Date.now()
    if (wait > 0) throw new AmiError(`AMI unavailable (${lastError}); next attempt in ${Math.ceil(wait / 1000)} s`)
    ready = open().then(() => { failures = 0 }, (err: Error) => {
      failures++
      lastError = err.message
      retryAt = Date.now() + backoffDelay(failures - 1, { baseMs: 1000, maxMs: MAX_BACKOFF_MS })
      ready = undefined
      throw err
    })
    return ready
  }

  return {
    /** one action; an AMI `Response: Error` is answered, not thrown; `timeoutMs`: this action's own (a reload's), else the client's */
    action: (fields: Record<string, string>, { timeoutMs }: { timeoutMs?: number } = {}): Promise<AmiMessage> => traced(`ami ${fields.Action ?? 'action'}`, { 'network.protocol.name': 'ami' }, async () => {
      await ensureConnected()
      return (await send(fields, false, timeoutMs)).response
    }),
    /** an action answered by an EventList */
    list: (fields: Record<string, string>): Promise<AmiListResult> => traced(`ami ${fields.Action ?? 'list'}`, { 'network.protocol.name': 'ami' }, async () => {
      await ensureConnected()
      return send(fields, true)
    }),
    /**
     * Keeps the connection open and hands every event to `handlers` until the answered stop: after a
     * loss it reconnects with the same backoff as actions (1 s, 2 s ... 30 s).
     */
    stream (handlers: AmiEventHandlers): () => void {
      let stopped = false
      let connected = false
      let timer: NodeJS.Timeout | undefined
      // a half-open connection (Asterisk gone without a FIN) is only found by asking: a Ping unanswered within the timeout drops it, and the loss reconnects
      const keepAlive = options.keepAliveMs === undefined
        ? undefined
        : setInterval(() => {
          if (!connected || !socket || Date.now() - heardAt < options.keepAliveMs!) return
          send({ Action: 'Ping' }, false).catch(() => {})
        }, Math.max(250, Math.floor(options.keepAliveMs / 4)))
      keepAlive?.unref()
      const attempt = () => {
        if (stopped) return
        ensureConnected().then(() => {
          if (stopped) return
          connected = true
          handlers.connected?.()
        }, retry)
      }
      /** the next attempt when the backoff allows (a loss and a failed attempt may both ask: one timer) */
      const retry = () => {
        if (stopped) return
        clearTimeout(timer)
        timer = setTimeout(attempt, Math.max(retryAt - Date.now(), 100))
      }
      streaming = {
        event: handlers.event,
        lost: (reason) => {
          if (connected) handlers.lost?.(reason)
          connected = false
          retry()
        },
      }
      attempt()
      stopStreaming = () => {
        stopped = true
        clearTimeout(timer)
        clearInterval(keepAlive)
        streaming = undefined
      }
      return stopStreaming
    },
    close (): void {
      stopStreaming?.()
      if (socket && ready) socket.write(encodeAction({ Action: 'Logoff', ActionID: 'appeals-logoff' }))
      retryAt = 0
      drop('AMI client closed')
    },
  }
}

export type AmiClient = ReturnType<typeof createAmiClient>
