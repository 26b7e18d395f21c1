// Issue 7's figures: sustained transcription chunks per second with 50 consoles connected over SSE,
// and the delay from POST to delivery on the consoles (p50/p99).
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { openSse } from '../test/helpers/sse.js'
import { BENCH_SECONDS, benchDatabase, startService } from './harness.js'

const CONSOLES = 50
const POSTERS = 10

export async function benchCallEvents (): Promise<void> {
  const database = await benchDatabase()
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const service = await startService(database)
  const token = (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })).json() as { access_token: string }).access_token

  const delays: number[] = []
  let delivered = 0
  const consoles = await Promise.all(Array.from({ length: CONSOLES }, () => openSse(`${service.url}/api/call-events/stream`, { authorization: `Bearer ${token}` }, ({ event, data }) => {
    if (event !== 'call.transcription' || typeof data.chunk_text !== 'string') return
    delivered++
    delays.push(performance.now() - Number(data.chunk_text))
  })))

  let posted = 0
  let failed = 0
  const deadline = performance.now() + BENCH_SECONDS * 1000
  await Promise.all(Array.from({ length: POSTERS }, async (_, poster) => {
    for (let seq = 0; performance.now() < deadline; seq++) {
      const res = await fetch(`${service.url}/api/call-events/transcription`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ call_id: `bench-${poster}`, operator_num: `9${poster}`, channel: 'caller', chunk_text: String(performance.now()), full_text: `chunk ${seq}` }),
      })
      await res.text()
      if (res.status === 200) posted++
      else failed++
    }
  }))
  const elapsed = BENCH_SECONDS
  await new Promise((resolve) => setTimeout(resolve, 1000)) // let the last events arrive
  delays.sort((a, b) => a - b)
  const q = (p: number) => (delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN).toFixed(1)
  process.stdout.write(`\nCall events on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}: ${POSTERS} posters, ${CONSOLES} SSE consoles, ${elapsed} s\n`)
  process.stdout.write(`chunks stored: ${(posted / elapsed).toFixed(0)}/s (${failed} failed); deliveries: ${delivered} of ${posted * CONSOLES} expected; POST-to-console delay p50 ${q(0.5)} ms, p99 ${q(0.99)} ms\n`)
  await Promise.all(consoles.map((c) => c.close()))
  await service.app.close()
  await database.close()
}
