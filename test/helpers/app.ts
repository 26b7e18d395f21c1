import type { FastifyInstance } from 'fastify'
import { buildApp, type AppDeps } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import type { Database } from '../../src/db/client.js'
import { createTestDatabase } from './database.js'

export interface TestApp {
  app: FastifyInstance
  database: Database
  config: Config
  close: () => Promise<void>
}

/**
 * The module suites call the interface's routes as its clients do: unmarked ones without a token,
 * in AUTH_MODE=interface (chosen explicitly, as for the old service's clients). The default,
 * strict, is tried route by route in test/access.test.ts, and the browser and process suites start
 * the service as the README does.
 */
export const testEnv: Record<string, string> = {
  AUTH_MODE: 'interface',
  JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://appeals.test',
}

/** The application on a fresh database of its own; `env` overrides configuration variables. */
export async function buildTestApp (options: { env?: Record<string, string>, database?: Database, deps?: Partial<AppDeps> } = {}): Promise<TestApp> {
  const config = loadConfig({ ...testEnv, ...options.env })
  const database = options.database ?? await createTestDatabase()
  const app = await buildApp({ config, database, logger: process.env.TEST_LOG ? { level: 'error' } : false, ...options.deps })
  await app.ready()
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close()
      await database.close()
    },
  }
}
