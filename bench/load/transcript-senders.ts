// The speech service's side of `npm run bench call-events`, in a process of its own: SENDERS
// keep-alive connections carry the chunks of CALLS calls, each call's chunks one after another (the
// next sent once the last is answered), for SECONDS. Each chunk_text is its send time in ms since
// the epoch, so that the consoles can tell the delay and the order can be checked afterwards.
import { Agent, request } from 'node:http'

const [url, senders, calls, seconds] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])]
const agent = new Agent({ keepAlive: true, maxSockets: senders })
const target = new URL('/api/call-events/transcription', url)
const now = () => performance.timeOrigin + performance.now()

function post (body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const accepted: number[] = Array.from({ length: calls }, () => 0)
let failed = 0
const deadline = now() + seconds * 1000
const run = process.argv[6] ?? 'bench'
await Promise.all(Array.from({ length: calls }, async (_, call) => {
  let text = ''
  while (now() < deadline) {
    const sent = now().toFixed(3)
    text = `${text.slice(-2000)} ${sent}`
    const status = await post(JSON.stringify({ call_id: `${run}-${call}`, operator_num: `9${String(call).padStart(4, '0')}`, channel: call % 2 === 0 ? 'caller' : 'operator', chunk_text: sent, full_text: text }))
    if (status === 200) accepted[call]!++
    else failed++
  }
}))
agent.destroy()
process.stdout.write(JSON.stringify({ accepted, failed }))
