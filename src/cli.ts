// Operator commands: `npm run migrate`, `npm run seed`, `npm run cli -- <command> [options]`.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, type Config } from './config.js'
import { backup, restore } from './db/backup.js'
import { createDb, type Database } from './db/client.js'
import { runMigrations } from './db/migrate.js'
import { randomBytes } from 'node:crypto'
import { createAdmin } from './modules/auth/bootstrap.js'
import { createAuditRepo } from './modules/audit/index.js'
import { accountQueries } from './modules/employees/queries.js'
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

  /**
   * data-protection --email a@b.kz [--revoke]: the employee reads the audit of personal data (or no
   * longer does). Only here, on the server: no role of the service, admins included, can grant it.
   */
  'data-protection': async (database, args) => {
    const { values } = parseArgs({ args, options: { email: { type: 'string' }, revoke: { type: 'boolean', default: false } } })
    const email = values.email?.trim().toLowerCase()
    if (!email) throw new Error('data-protection needs --email <address> of an active employee')
    const employee = await accountQueries(database.db).findUserByEmail(email)
    if (!employee?.is_active) throw new Error(`no active employee ${email}`)
    await createAuditRepo(database.db).setOfficer(employee.id, values.revoke ?? false)
    return values.revoke ? `${email} no longer reads the audit of personal data` : `${email} reads the audit of personal data (/api/audit/personal-data)`
  },
}

/** commands on the embedded database's files: they open (or ask) the database themselves */
const fileCommands: Record<string, (config: Config, args: string[]) => Promise<string>> = {
  /** backup FILE: a backup of the embedded database, the service running or not */
  backup: async (config, args) => backup(embeddedDir(config, 'pg_dump'), fileArgument(args, 'backup')),
  /** restore FILE: the embedded database replaced by a backup, the service stopped */
  restore: async (config, args) => restore(embeddedDir(config, 'pg_restore'), fileArgument(args, 'restore')),
}

function embeddedDir (config: Config, tool: string): string {
  if (config.databaseUrl) throw new Error(`DATABASE_URL is set: back up and restore a PostgreSQL database with ${tool} (docs/operations.md: Backups)`)
  return config.dataDir
}
function fileArgument (args: string[], command: string): string {
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new Error(`usage: npm run cli -- ${command} FILE`)
  return args[0]!
}

async function main (): Promise<number> {
  const [name, ...args] = process.argv.slice(2)
  const fileCommand = name === undefined ? undefined : fileCommands[name]
  const command = name === undefined ? undefined : commands[name]
  if (!command && !fileCommand) {
    process.stderr.write(`usage: npm run cli -- <${[...Object.keys(commands), ...Object.keys(fileCommands)].join('|')}> [options]\n`)
    return 2
  }
  const config = loadConfig(process.env)
  if (fileCommand) {
    process.stdout.write(`${await fileCommand(config, args)}\n`)
    return 0
  }
  if (!command) return 2
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
