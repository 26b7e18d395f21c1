// The consoles' side of `npm run bench call-events`, in a process of its own: CONSOLES Server-Sent
// Events streams or WebSockets (TRANSPORT: sse or ws; the web console uses a WebSocket), each
// checking that every call's chunks come in order without a gap, and measuring each chunk's delay
// from its send time (its chunk_text) to its arrival here.
import { connect } from 'node:net'
import WebSocket from 'ws'

const [url, token, consoles, transport] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4]), process.argv[5] ?? 'sse']
const now = () => performance.timeOrigin + performance.now()
const delays: number[] = []
let received = 0
let outOfOrder = 0

const keys = { call: '"call_row_id":', seq: '"seq":', chunk: '"chunk_text":"' }
const marker = 'event: call.transcription\n'

/** the whole number after `key`, read in place (no slice per event): hundreds of thousands of events a second are parsed here */
function numberAfter (text: string, key: string, from: number): number {
  let at = text.indexOf(key, from) + key.length
  let n = 0
  for (let c = text.charCodeAt(at); c >= 48 && c <= 57; c = text.charCodeAt(++at)) n = n * 10 + c - 48
  return n
}

/** one call.transcription event found at `at` in `text`, on a console that has seen `lastSeq` of each call */
function record (lastSeq: Map<number, number>, text: string, at: number, arrived: number): void {
  received++
  const call = numberAfter(text, keys.call, at)
  const seq = numberAfter(text, keys.seq, at)
  if (seq !== (lastSeq.get(call) ?? 0) + 1) outOfOrder++
  lastSeq.set(call, seq)
  const sentAt = text.indexOf(keys.chunk, at) + keys.chunk.length
  delays.push(arrived - Number(text.slice(sentAt, text.indexOf('"', sentAt))))
}

/**
 * One console on a plain socket, as in transcript-senders.ts (node:http's client and its chunked
 * decoding would double this process's CPU). The events are found in the raw bytes: a burst is one
 * chunk of the response, so the chunk-size lines fall between events, never inside one.
 */
function openStream (): Promise<() => void> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const lastSeq = new Map<number, number>()
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.write(`GET /api/call-events/stream HTTP/1.1\r\nhost: ${target.host}\r\nauthorization: Bearer ${token}\r\naccept: text/event-stream\r\n\r\n`)
    })
    let buffer = ''
    let started = false
    socket.setEncoding('latin1')
    socket.on('data', (text: string) => {
      buffer = buffer.length === 0 ? text : buffer + text
      if (!started) {
        if (!buffer.startsWith('HTTP/1.1 200')) { reject(new Error(`stream answered ${buffer.slice(0, 12)}`)); socket.destroy(); return }
        started = true
        resolve(() => { socket.destroy() })
      }
      let start = 0
      for (let at = buffer.indexOf(marker); at >= 0; at = buffer.indexOf(marker, start)) {
        const end = buffer.indexOf('\n\n', at)
        if (end < 0) break
        record(lastSeq, buffer, at, now())
        start = end + 2
      }
      // what follows the last whole event: the start of the next one, or a piece of a marker
      const next = buffer.indexOf(marker, start)
      buffer = buffer.slice(next >= 0 ? next : Math.max(start, buffer.length - marker.length))
    })
    socket.on('error', reject)
  })
}

/** one console on a WebSocket (the ws package's client), the token as the subprotocol pair, as the web console sends it */
function openSocket (): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const lastSeq = new Map<number, number>()
    const socket = new WebSocket(new URL('/api/call-events/ws', url.replace(/^http/, 'ws')), ['bearer', token])
    socket.on('open', () => { resolve(() => { socket.terminate() }) })
    socket.on('message', (data: Buffer) => {
      const text = data.toString('latin1')
      if (text.includes('"type":"call.transcription"')) record(lastSeq, text, 0, now())
    })
    socket.on('error', reject)
  })
}

const streams = await Promise.all(Array.from({ length: consoles }, transport === 'ws' ? openSocket : openStream))
process.send!('ready')
const cpu = process.cpuUsage()
process.on('message', () => {
  for (const close of streams) close()
  delays.sort((a, b) => a - b)
  const q = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN
  const { user, system } = process.cpuUsage(cpu)
  process.send!({ cpuMs: (user + system) / 1000, received, outOfOrder, p50: q(0.5), p99: q(0.99), max: delays.at(-1) ?? NaN }, () => process.exit(0))
})
