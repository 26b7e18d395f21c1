import type { FastifyBaseLogger } from 'fastify'
import type { Metrics } from '../../lib/metrics.js'
import type { AppDb } from '../../db/client.js'
import { createLlmGateway, type LlmGateway } from '../../integrations/llm/gateway.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import type { ClassifiersPort } from '../classifiers/module.js'
import { createLlmRepo } from './repo.js'
import routes from './routes.js'
import { createLlmService, type LlmService } from './service.js'

export type LlmPort = Pick<LlmService, 'summarize' | 'classify' | 'checkResponse'>

/** the LLM gateway's routes and its accounting; the desk's assistant uses its tasks */
export function createLlmModule (deps: { db: AppDb, llm: Config['llm'], gateway?: LlmGateway, classifiers: ClassifiersPort, log: FastifyBaseLogger, metrics: Metrics }): ServiceModule<LlmPort> {
  const service = createLlmService({
    config: deps.llm,
    gateway: deps.gateway ?? createLlmGateway(deps.llm),
    repo: createLlmRepo(deps.db),
    choices: deps.classifiers.subcategoryChoices,
    log: deps.log,
    metrics: deps.metrics,
  })
  return {
    port: service,
    // the accounting of calls still answering is written before the database closes
    running: [{ stop: service.flush }],
    async register (app) { await app.register(routes, { prefix: '/api/llm', service }) },
  }
}
