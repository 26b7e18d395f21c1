// Operator commands: `npm run migrate`, `npm run seed`, `npm run cli -- <command> [options]`.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config.js'
import { createDb, type Database } from './db/client.js'
import { runMigrations } from './db/migrate.js'
import { randomBytes } from 'node:crypto'
import { createAdmin } from './modules/auth/bootstrap.js'
import { seedReferenceData } from './db/seed/index.js'
import { passwordProblem } from './lib/passwords.js'

type Command = (database: Database, args: string[]) => Promise<string>

const commands: Record<string, Command> = {
  migrate: async () => 'migrations applied',
  seed: async (database) => `reference seed applied: ${JSON.stringify(await seedReferenceData(database.db))} rows added`,

  /** create-admin --email a@b.kz [--password ...]: without --password one is generated and printed once */
  'create-admin': async (database, args) => {
    const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' } } })
    const email = values.email?.trim().toLowerCase()
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error('create-admin needs --email <address>')
    const password = values.password ?? randomBytes(12).toString('base64url')
    const weak = passwordProblem(password, ['password'], { email })
    if (weak) throw new Error(weak.msg)
    await createAdmin(database.db, email, password, values.password === undefined)
    return values.password === undefined
      ? `administrator ${email} created; password (shown once, change it at first login): ${password}`
      : `administrator ${email} created`
  },
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
