import cors from '@fastify/cors'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config } from './config.js'
import type { Database } from './db/client.js'
import { commonSchemas } from './lib/common-schemas.js'
import { registerErrorHandler } from './lib/error-handler.js'
import { registerNotFound, requestId } from './lib/http.js'
import { registerOpenApi } from './lib/openapi.js'
import { installValidators } from './lib/validators.js'
import { serviceVersion } from './lib/version.js'
import * as groups from './modules/groups/index.js'
import * as health from './modules/health/index.js'

export interface AppDeps {
  config: Config
  database: Database
  /** Fastify logger options; defaults to JSON logs at config.logLevel with secrets redacted */
  logger?: FastifyServerOptions['logger']
}

export const BODY_LIMIT = 1024 * 1024

/** Fields that must never reach a log line. */
const redact = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-service-token"]',
  'password', 'new_password', 'current_password', 'token', 'secret', 'access_token',
  '*.password', '*.new_password', '*.current_password', '*.token', '*.secret', '*.access_token',
]

export function loggerOptions (config: Config): FastifyServerOptions['logger'] {
  return { level: config.logLevel, redact: { paths: redact, censor: '[redacted]' } }
}

const sharedSchemas: TSchema[] = [...commonSchemas, ...health.schemas, ...groups.schemas]

/** Builds the whole application from its dependencies; no side effects beyond the returned instance. */
export async function buildApp (deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    bodyLimit: BODY_LIMIT,
    genReqId: requestId,
    requestIdHeader: false,
  }).withTypeProvider<TypeBoxTypeProvider>()

  registerNotFound(app)
  registerErrorHandler(app)
  installValidators(app, sharedSchemas)
  for (const schema of sharedSchemas) app.addSchema(schema)
  app.addHook('onSend', async (req, reply) => { reply.header('x-request-id', req.id) })
  if (config.corsOrigins.length > 0) await app.register(cors, { origin: config.corsOrigins, credentials: true })
  await registerOpenApi(app, serviceVersion)

  await app.register(health.routes, { ping: database.ping, databaseKind: database.kind })
  await app.register(groups.routes, { prefix: '/api/shared/groups', service: groups.createGroupService({ repo: groups.createGroupRepo(database.db) }) })

  return app
}
