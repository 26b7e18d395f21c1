import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
