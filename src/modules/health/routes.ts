import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
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

export const schemas = [HealthResponse, RootResponse]

async function withTimeout (work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timeout')), ms) })
  try { await Promise.race([work, timeout]) } finally { clearTimeout(timer) }
}

const routes: FastifyPluginAsyncTypebox<{ ping: () => Promise<void>, databaseKind: string }> = async (app, { ping, databaseKind }) => {
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
