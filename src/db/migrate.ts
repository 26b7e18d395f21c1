import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './client.js'

/** The committed drizzle-kit output, found from this file whether it runs from src/ or dist/. */
export function migrationsFolder (): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'drizzle', 'meta', '_journal.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('drizzle/ migrations folder not found')
    dir = parent
  }
  return join(dir, 'drizzle')
}

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
