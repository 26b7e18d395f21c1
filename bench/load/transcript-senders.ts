// The speech service's side of `npm run bench call-events`, in a process of its own: SENDERS
// keep-alive connections carry the chunks of CALLS calls, each call's chunks one after another (the
// next sent once the last is answered), for SECONDS. Each chunk_text is its send time in ms since
// the epoch (taken when the chunk leaves, not while it waits for a free connection), so that the
// consoles can tell the delay and the order can be checked afterwards.
//
// HTTP/1.1 is spoken on plain sockets, as autocannon does: node:http's client costs about 70 µs of
// CPU a request, and on a 2-core machine the load generator's CPU is taken from the service's.
import { connect, type Socket } from 'node:net'

const [url, senders, calls, seconds] = [new URL(process.argv[2]!), Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])]
const run = process.argv[6] ?? 'bench'
/** a call's full_text grows to this many characters, then keeps its last ones (a 10-minute call is about 9,000) */
const transcriptChars = Number(process.argv[7] ?? 2000)
const words = 'Здравствуйте у нас во дворе третий день нет воды '
const now = () => performance.timeOrigin + performance.now()
const head = `POST /api/call-events/transcription HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: `

/** one keep-alive connection: one request at a time, answered with its status */
interface Connection { socket: Socket, answer?: (status: number) => void, fail?: (error: Error) => void }
const idle: Connection[] = []
const waiting: ((c: Connection) => void)[] = []

function open (): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => { resolve(connection) })
    socket.setNoDelay(true)
    const connection: Connection = { socket }
    let buffer: Buffer = Buffer.alloc(0)
    socket.on('data', (data: Buffer) => {
      buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data])
      // an answer is whole once its headers and content-length bytes are here
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const headers = buffer.toString('latin1', 0, end)
        const length = Number(/content-length: *(\d+)/i.exec(headers)?.[1] ?? NaN)
        // the service always answers with a length: anything else would be misread here
        if (Number.isNaN(length)) throw new Error(`an answer without content-length: ${headers}`)
        if (buffer.length < end + 4 + length) return
        buffer = buffer.subarray(end + 4 + length)
        const answer = connection.answer!
        connection.answer = undefined
        answer(Number(headers.slice(9, 12)))
      }
    })
    socket.on('error', (error) => { (connection.fail ?? reject)(error) })
  })
}

function take (): Promise<Connection> {
  const c = idle.pop()
  return c ? Promise.resolve(c) : new Promise((resolve) => { waiting.push(resolve) })
}

function give (c: Connection): void {
  const next = waiting.shift()
  if (next) next(c)
  else idle.push(c)
}

/** `body` is built once a connection is free: its send time is when it leaves, not when it began to wait for one */
async function post (body: () => string): Promise<number> {
  const c = await take()
  try {
    return await new Promise<number>((resolve, reject) => {
      c.answer = resolve
      c.fail = reject
      const text = body()
      c.socket.write(`${head}${Buffer.byteLength(text)}\r\n\r\n${text}`)
    })
  } finally {
    give(c)
  }
}

idle.push(...await Promise.all(Array.from({ length: senders }, open)))
const accepted: number[] = Array.from({ length: calls }, () => 0)
let failed = 0
const deadline = now() + seconds * 1000
const cpu = process.cpuUsage()
await Promise.all(Array.from({ length: calls }, async (_, call) => {
  let text = ''
  while (now() < deadline) {
    const status = await post(() => {
      const sent = now().toFixed(3)
      // Cyrillic words as a call's transcript has, with the send time last
      text = `${(text + words).slice(-transcriptChars)} ${sent}`
      return JSON.stringify({ call_id: `${run}-${call}`, operator_num: `9${String(call).padStart(4, '0')}`, channel: call % 2 === 0 ? 'caller' : 'operator', chunk_text: sent, full_text: text })
    })
    if (status === 200) accepted[call]!++
    else failed++
  }
}))
const { user, system } = process.cpuUsage(cpu)
for (const c of idle) c.socket.destroy()
process.stdout.write(JSON.stringify({ accepted, failed, cpuMs: (user + system) / 1000 }))
