import { existsSync } from 'node:fs'
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
