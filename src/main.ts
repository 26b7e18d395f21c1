// Process entry: configuration, database, migrations, application, listen; graceful shutdown.
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { openAccessWarnings } from './lib/auth.js'
import { STOP_GRACE_MS } from './config/env-schema.js'
import { createDb } from './db/client.js'
import { runMigrations } from './db/migrate.js'
import { seedOnFirstStart } from './db/seed/index.js'
import { serveBackups } from './db/backup.js'
import { ensureFirstAdmin, resolveJwtSecret } from './modules/auth/bootstrap.js'
import { startTracing } from './integrations/tracing/otlp.js'
import { serviceVersion } from './lib/version.js'
import { readableLogs } from './lib/log-format.js'

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

/** where a person opens the console: PUBLIC_URL's, else this machine's port */
const consoleUrl = (config: Config) => `${config.publicUrl.replace(/\/$/, '')}/console/`

async function main (): Promise<void> {
  const config = configOrExit()
  // before the database opens: its driver's statements are traced from the first
  const tracing = config.tracing ? startTracing({ ...config.tracing, version: serviceVersion }) : undefined
  const database = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  await runMigrations(database)
  const jwtSecret = await resolveJwtSecret(config, database.db)
  const app = await buildApp({ config, database, jwtSecret })
  if (config.seedOnFirstStart) {
    const seed = await seedOnFirstStart(database.db)
    if (seed && 'seeded' in seed) app.log.info({ seeded: seed.seeded, database: database.kind }, 'first start: reference data loaded into the new database (SEED_ON_FIRST_START=false skips it)')
    if (seed && 'present' in seed) app.log.info({ database: database.kind }, 'first start on a database that has reference data already: nothing seeded')
  }
  const admin = await ensureFirstAdmin(config, database.db, database.kind === 'pglite')
  if (admin.generatedPassword) {
    app.log.warn({ email: admin.email, generated_password: admin.generatedPassword }, 'first administrator created with a generated password (shown once; it must be changed at first login)')
  } else if (admin.created) {
    app.log.info({ email: admin.email }, 'first administrator created')
  }
  for (const warning of openAccessWarnings(config)) app.log.warn(warning)
  if (!config.serviceToken && config.authMode === 'strict') app.log.info('SERVICE_TOKEN is not set: machine routes (call events, platform control) accept administrators\' tokens only; set it for the call-events glue')

  // `npm run cli -- backup FILE` asks the running service for a backup of its embedded database
  const stopBackups = database.kind === 'pglite' ? await serveBackups(database, config.dataDir, app.log) : undefined

  closeWithGrace({ delay: STOP_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'stopping after an error')
    else app.log.info({ signal }, 'stopping')
    await stopBackups?.()
    await app.close() // stops accepting, finishes requests in flight, runs onClose hooks (workers)
    await database.close()
    await tracing?.stop()
  })

  await app.listen({ port: config.port, host: config.host })
  app.log.info({ database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined, console: consoleUrl(config) }, 'service started')
  if (admin.generatedPassword && readableLogs(config.logFormat)) {
    // said again last on a terminal, where a newcomer looks (a JSON log has it once, in its own field)
    app.log.warn(`sign in at ${consoleUrl(config)} as ${admin.email} with the password ${admin.generatedPassword} (shown once; a new one is asked for at the first sign-in)`)
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`Start failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exit(1)
})
