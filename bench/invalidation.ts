// How soon another instance stops serving what it kept in memory once a change commits: a revoked
// token (the users table's trigger) and a renamed region (the reference cache), each written on
// instance A and polled on instance B. The suite checks that it happens; this measures how soon.
import type { FastifyInstance } from 'fastify'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { seedReferenceData } from '../src/db/seed/index.js'
import { benchDatabase, startService } from './harness.js'

const SAMPLES = Number(process.env.BENCH_INVALIDATION_SAMPLES ?? 100)

/** polls `check` every 2 ms (at most 10 s): answers how long it took to hold */
async function msUntil (check: () => Promise<boolean>): Promise<number> {
  const started = performance.now()
  while (!await check()) {
    if (performance.now() - started > 10_000) throw new Error('not within 10 s')
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  return performance.now() - started
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

function report (what: string, samples: number[]): void {
  const sorted = [...samples].sort((x, y) => x - y)
  process.stdout.write(`${what}: ${samples.length} samples, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms\n`)
}

export async function benchInvalidation (): Promise<void> {
  const database = await benchDatabase('invalidation')
  await seedReferenceData(database.db)
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const a = await startService(database)
  const b = await startService(database)
  const inject = (app: FastifyInstance, method: 'GET' | 'PUT' | 'POST', url: string, headers: Record<string, string>, payload?: object) => app.inject({ method, url, headers, payload })
  const login = await inject(a.app, 'POST', '/api/auth/login', {}, { email: 'bench@appeals.kz', password: 'Bench-password-1' })
  const admin = { authorization: `Bearer ${(login.json() as { access_token: string }).access_token}` }

  // a region renamed on A, until B's /api/regions answers the new name
  const regionsUrl = '/api/regions?top_level=true'
  const [region] = (await inject(a.app, 'GET', regionsUrl, admin)).json() as { id: number, name: string }[]
  const renames: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const name = `${region!.name} ${i}`
    await inject(b.app, 'GET', regionsUrl, admin) // kept on B
    await inject(a.app, 'PUT', `/api/regions/${region!.id}`, admin, { name })
    renames.push(await msUntil(async () => (await inject(b.app, 'GET', regionsUrl, admin)).body.includes(name)))
  }
  report('a region renamed on one instance, seen on another', renames)

  // a token revoked through SQL (no instance wrote it), until B refuses it
  const revocations: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const email = `revoked${i}@appeals.kz`
    await createAdmin(database.db, email, 'Bench-password-1', false)
    const token = (await inject(a.app, 'POST', '/api/auth/login', {}, { email, password: 'Bench-password-1' })).json() as { access_token: string }
    const headers = { authorization: `Bearer ${token.access_token}` }
    await inject(b.app, 'GET', '/api/auth/profile', headers) // kept on B
    await database.query('update users set is_active = false where email = $1', [email])
    revocations.push(await msUntil(async () => (await inject(b.app, 'GET', '/api/auth/profile', headers)).statusCode === 401))
  }
  report('an account deactivated by SQL, refused by another instance', revocations)
  await b.app.close()
  await a.app.close()
  await database.close()
}
