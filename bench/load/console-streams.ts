// The consoles' side of `npm run bench call-events`, in a process of its own: CONSOLES Server-Sent
// Events streams, each checking that every call's chunks come in order without a gap, and measuring
// each chunk's delay from its send time (its chunk_text) to its arrival here.
import { request } from 'node:http'

const [url, token, consoles] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])]
const now = () => performance.timeOrigin + performance.now()
const delays: number[] = []
let received = 0
let outOfOrder = 0

/** cheap field reads: a quarter of a million events a second are parsed here */
function field (block: string, name: string): string | undefined {
  const at = block.indexOf(`"${name}":`)
  if (at < 0) return undefined
  const start = at + name.length + 3
  const quoted = block[start] === '"'
  const end = quoted ? block.indexOf('"', start + 1) : block.slice(start).search(/[,}]/) + start
  return block.slice(quoted ? start + 1 : start, end)
}

function openStream (): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const lastSeq = new Map<string, number>()
    const req = request(new URL('/api/call-events/stream', url), { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) { reject(new Error(`stream answered ${res.statusCode}`)); return }
      res.setEncoding('utf8')
      let buffer = ''
      res.on('data', (text: string) => {
        buffer += text
        let start = 0
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', start)) {
          const block = buffer.slice(start, end)
          start = end + 2
          if (!block.startsWith('event: call.transcription')) continue
          const at = now()
          received++
          const call = field(block, 'call_row_id')!
          const seq = Number(field(block, 'seq'))
          if (seq !== (lastSeq.get(call) ?? 0) + 1) outOfOrder++
          lastSeq.set(call, seq)
          delays.push(at - Number(field(block, 'chunk_text')))
        }
        buffer = buffer.slice(start)
      })
      resolve(() => { req.destroy() })
    })
    req.on('error', reject)
    req.end()
  })
}

const streams = await Promise.all(Array.from({ length: consoles }, openStream))
process.send!('ready')
process.on('message', () => {
  for (const close of streams) close()
  delays.sort((a, b) => a - b)
  const q = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN
  process.send!({ received, outOfOrder, p50: q(0.5), p99: q(0.99), max: delays.at(-1) ?? NaN }, () => process.exit(0))
})
