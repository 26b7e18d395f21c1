// Operator commands: `npm run migrate`, `npm run seed`, `npm run cli -- <command> [options]`.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config.js'
import { createDb, type Database } from './db/client.js'
import { runMigrations } from './db/migrate.js'

type Command = (database: Database, args: string[]) => Promise<string>

const commands: Record<string, Command> = {
  migrate: async () => 'migrations applied',
}

async function main (): Promise<number> {
  const [name, ...args] = process.argv.slice(2)
  const command = name === undefined ? undefined : commands[name]
  if (!command) {
    process.stderr.write(`usage: npm run cli -- <${Object.keys(commands).join('|')}> [options]\n`)
    return 2
  }
  const config = loadConfig(process.env)
  const database = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    await runMigrations(database)
    process.stdout.write(`${await command(database, args)}\n`)
    return 0
  } finally {
    await database.close()
  }
}

main().then((code) => { process.exitCode = code }, (err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}\n`)
  process.exitCode = err instanceof ConfigError ? 2 : 1
})

export { parseArgs }
