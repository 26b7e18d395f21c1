import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from './client.js'
import { migrationsFolder } from './migrations-folder.js'

/** Applies pending migrations. On PostgreSQL an advisory lock keeps concurrent starts from racing. */
export async function runMigrations (database: Database): Promise<void> {
  await database.migrate(migrationsFolder())
}

/** how many migrations this version ships (the journal's entries) */
export function shippedMigrations (): number {
  return (JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length
}

/** how many migrations the database has applied (drizzle's own record of them) */
export async function appliedMigrations (database: Pick<Database, 'query'>): Promise<number> {
  const [row] = await database.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')
  return row?.n ?? 0
}
