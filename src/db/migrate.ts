import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
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

// Any constant works; it only has to be the same for every instance of the service.
const MIGRATION_LOCK = 7_351_001

/** Applies pending migrations. On PostgreSQL an advisory lock keeps concurrent starts from racing. */
export async function runMigrations (database: Database): Promise<void> {
  const folder = migrationsFolder()
  if (database.driver.kind === 'pglite') {
    await migratePglite(drizzlePglite({ client: database.driver.client }), { migrationsFolder: folder })
    return
  }
  const client = await database.driver.pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migratePg(drizzlePg({ client }), { migrationsFolder: folder })
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
}
