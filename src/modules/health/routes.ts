import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyBaseLogger } from 'fastify'
import { Type } from 'typebox'
import { ServiceUnavailableError } from '../../lib/errors.js'
import { serviceName, serviceVersion } from '../../lib/version.js'

const tags = ['health']
const PING_TIMEOUT_MS = 2000

export const HealthResponse = Type.Object({
  status: Type.String(),
  database: Type.String(),
  version: Type.String(),
}, { $id: 'HealthResponse' })

export const RootResponse = Type.Object({
  service: Type.String(),
  version: Type.String(),
  docs: Type.String(),
  openapi: Type.String(),
  health: Type.String(),
}, { $id: 'RootResponse' })

const Check = (extra = {}) => Type.Object({ ok: Type.Boolean(), detail: Type.Union([Type.String(), Type.Null()], { description: 'why not, when not' }), ...extra })
export const ReadyResponse = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  detail: Type.Optional(Type.String({ description: 'when not ready: the checks that failed' })),
  checks: Type.Object({
    database: Check(),
    migrations: Check({ applied: Type.Integer(), expected: Type.Integer({ description: 'the migrations this version ships' }) }),
    listen: Check({ channels: Type.Array(Type.Object({ channel: Type.String(), listening: Type.Boolean() })) }),
    ami: Type.Union([Check(), Type.Null()], { description: 'null: AMI is not configured' }),
  }),
  warnings: Type.Array(Type.String(), { description: 'what the configuration leaves open to callers without a token (AUTH_MODE=interface, SERVICE_TOKEN unset there), and recordings kept as WAV while no encoder runs; ready all the same' }),
}, { $id: 'ReadyResponse' })

export const schemas = [HealthResponse, RootResponse, ReadyResponse]

async function withTimeout (work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timeout')), ms) })
  try { await Promise.race([work, timeout]) } finally { clearTimeout(timer) }
}

export interface Readiness {
  /** whether the service is stopping: a balancer takes it out while it finishes what it has */
  stopping: () => boolean
  /** how many migrations the database has applied */
  appliedMigrations: () => Promise<number>
  /** how many this version ships */
  expectedMigrations: number
  listening: () => { channel: string, listening: boolean }[]
  /** undefined: AMI not configured */
  ami?: () => Promise<void>
  /** what the configuration leaves open (lib/auth.ts openAccessWarnings) and what runs short of its best (no encoder for the recordings) */
  warnings: () => string[]
}

/**
 * A check's outcome: its own fields when it answered in time; when not, only that it did not (the
 * error, which may name hosts and ports, goes to the log, not to an unauthenticated probe).
 */
async function checked<T extends object> (name: string, log: FastifyBaseLogger, work: () => Promise<T>): Promise<T & { ok: boolean, detail: string | null } | { ok: false, detail: string }> {
  let result: T | undefined
  try {
    await withTimeout(work().then((r) => { result = r }), PING_TIMEOUT_MS)
    return { ...result!, ok: true, detail: null }
  } catch (err) {
    log.warn({ err, check: name }, 'ready: a check failed')
    return { ok: false, detail: err instanceof Error && err.message === 'timeout' ? `no answer within ${PING_TIMEOUT_MS} ms` : 'not answering' }
  }
}

const routes: FastifyPluginAsyncTypebox<{ ping: () => Promise<void>, databaseKind: string, readiness: Readiness }> = async (app, { ping, databaseKind, readiness }) => {
  app.get('/ready', {
    schema: {
      tags, operationId: 'ready', summary: 'Readiness (beyond the interface): the database answers, every migration is applied, every LISTEN connection hears, AMI answers when configured, the service is not stopping; 503 naming what is not',
      response: { 200: ReadyResponse, 503: ReadyResponse },
    },
  }, async (req, reply) => {
    const [database, applied, ami] = await Promise.all([
      checked('database', req.log, async () => { await ping(); return {} }),
      checked('migrations', req.log, async () => ({ applied: await readiness.appliedMigrations() })),
      readiness.ami ? checked('ami', req.log, async () => { await readiness.ami!(); return {} }) : null,
    ])
    const expected = readiness.expectedMigrations
    const appliedCount = 'applied' in applied ? applied.applied : 0
    const migrations = { applied: appliedCount, expected, ok: applied.ok && appliedCount >= expected, detail: applied.ok ? (appliedCount >= expected ? null : `${expected - appliedCount} not applied`) : applied.detail }
    const channels = readiness.listening()
    const deaf = channels.filter((c) => !c.listening).map((c) => c.channel)
    const listen = { ok: deaf.length === 0, detail: deaf.length === 0 ? null : `not listening: ${deaf.join(', ')}`, channels }
    const checks = { database, migrations, listen, ami }
    const failed = [...Object.entries(checks).filter(([, c]) => c !== null && !c.ok).map(([name]) => name), ...(readiness.stopping() ? ['stopping'] : [])]
    const warnings = readiness.warnings()
    if (failed.length === 0) return { status: 'ready' as const, checks, warnings }
    return reply.code(503).send({ status: 'not_ready' as const, detail: `Not ready: ${failed.join(', ')}`, checks, warnings })
  })

  app.get('/health', {
    schema: { tags, operationId: 'health', summary: 'Liveness with a database round trip', response: { 200: HealthResponse } },
  }, async (req) => {
    try {
      await withTimeout(ping(), PING_TIMEOUT_MS)
    } catch (err) {
      req.log.warn({ err }, 'health: database did not answer')
      throw new ServiceUnavailableError('Database is not answering')
    }
    return { status: 'ok', database: databaseKind, version: serviceVersion }
  })

  app.get('/', {
    schema: { tags, operationId: 'root', summary: 'Service name, version and links', response: { 200: RootResponse } },
  }, async () => ({ service: serviceName, version: serviceVersion, docs: '/docs', openapi: '/openapi.json', health: '/health' }))
}

export default routes
