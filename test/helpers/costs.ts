// What a test process spends starting things, told to the run (scripts/run-tests.ts names a file in
// TEST_COSTS; each process adds its lines) so that it can say where its time goes besides the tests.
import { appendFileSync } from 'node:fs'

/** `load`: CPU a test process spent before its first database (its code loaded); `database`: CPU of a database made for a test; `service`: wall time of a service process started to its first answer */
export type StartCost = 'load' | 'database' | 'service'

const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000 }

function record (kind: StartCost, ms: number): void {
  if (process.env.TEST_COSTS) appendFileSync(process.env.TEST_COSTS, `${JSON.stringify({ kind, ms: Math.round(ms) })}\n`)
}

let loaded = false
/** the CPU `make` takes in this process, as the cost of a database; the first one also tells what loading took */
export async function costOfDatabase<T> (make: () => Promise<T>): Promise<T> {
  const before = cpuMs()
  if (!loaded) {
    loaded = true
    record('load', before)
  }
  try { return await make() } finally { record('database', cpuMs() - before) }
}

/** the wall time `start` takes, as the cost of a service process */
export async function costOfService<T> (start: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try { return await start() } finally { record('service', performance.now() - started) }
}
