import type { Database } from '../../db/client.js'
import type { ServiceModule } from '../../lib/module.js'
import routes, { type Readiness } from './routes.js'

export function createHealthModule (deps: { database: Pick<Database, 'ping' | 'kind'>, readiness: Readiness }): ServiceModule {
  return {
    port: undefined,
    async register (app) { await app.register(routes, { ping: deps.database.ping, databaseKind: deps.database.kind, readiness: deps.readiness }) },
  }
}
