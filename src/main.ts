// Process entry: configuration, database, migrations, application, listen; graceful shutdown.
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { createDb } from './db/client.js'
import { runMigrations } from './db/migrate.js'

function configOrExit (): Config {
  try {
    return loadConfig(process.env)
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
}

async function main (): Promise<void> {
  const config = configOrExit()
  const database = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  await runMigrations(database)
  const app = await buildApp({ config, database })

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'stopping after an error')
    else app.log.info({ signal }, 'stopping')
    await app.close() // stops accepting, finishes requests in flight, runs onClose hooks (workers)
    await database.close()
  })

  await app.listen({ port: config.port, host: config.host })
  app.log.info({ database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined }, 'service started')
}

main().catch((err: unknown) => {
  process.stderr.write(`Start failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exit(1)
})
