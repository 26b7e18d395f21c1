// A load of its own process (so that it does not share the service's event loop): `n` listeners,
// each playing a recording as a browser does, asking its next range every second or so (a jittered
// second, so that they are not in step) and measuring the time to the answer's first byte.
// Run: node --import tsx bench/listeners.ts <url> <authorization> <listeners> <seconds> <range bytes> <file bytes>
import { request } from 'node:http'

const [url, authorization, listeners, seconds, rangeBytes, fileBytes] = process.argv.slice(2) as [string, string, string, string, string, string]
const deadline = Date.now() + Number(seconds) * 1000
const firstBytes: number[] = []
let failures = 0

/** one range request: milliseconds to its first byte of body */
function ask (start: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now()
    const req = request(url, { headers: { authorization, range: `bytes=${start}-${start + Number(rangeBytes) - 1}` }, agent: false }, (res) => {
      let first: number | undefined
      res.on('data', () => { first ??= performance.now() - began })
      res.on('end', () => (res.statusCode === 206 && first !== undefined ? resolve(first) : reject(new Error(`status ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end()
  })
}

async function listener (): Promise<void> {
  let at = Math.floor(Math.random() * (Number(fileBytes) - Number(rangeBytes)))
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000))
  while (Date.now() < deadline) {
    try { firstBytes.push(await ask(at)) } catch { failures++ }
    at = (at + Number(rangeBytes)) % (Number(fileBytes) - Number(rangeBytes))
    await new Promise((resolve) => setTimeout(resolve, 800 + Math.random() * 400))
  }
}

await Promise.all(Array.from({ length: Number(listeners) }, listener))
firstBytes.sort((a, b) => a - b)
const at = (p: number) => firstBytes[Math.min(firstBytes.length - 1, Math.floor(firstBytes.length * p))] ?? NaN
process.stdout.write(JSON.stringify({ requests: firstBytes.length, failures, p50: at(0.5), p99: at(0.99), max: firstBytes.at(-1) ?? NaN }))
