// A new embedded database starts from a copy of what PGlite's initdb and this version's migrations
// make, made once per install and set of migrations (scripts/ensure-deps.mjs: before the first
// `npm start` or `npm test`), instead of running them for every new data directory: a copy opens in
// about 1 s, initdb and the migrations take about 7. The tests' template is the same files.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { migrationsFolder } from './migrations-folder.js'

const PACKAGE = '@electric-sql/pglite'
/** the node_modules folder PGlite is installed in (its package.json is not among its exports) */
const modules = (() => {
  const entry = fileURLToPath(import.meta.resolve(PACKAGE))
  return entry.slice(0, entry.lastIndexOf(`/node_modules/${PACKAGE}/`) + '/node_modules'.length)
})()
const { version } = JSON.parse(readFileSync(join(modules, PACKAGE, 'package.json'), 'utf8')) as { version: string }

/** the migrations' texts and journal, hashed: another migration makes another copy */
function migrationsHash (): string {
  const folder = migrationsFolder()
  const hash = createHash('sha256').update(readFileSync(join(folder, 'meta', '_journal.json')))
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.sql')).sort()) hash.update(file).update(readFileSync(join(folder, file)))
  return hash.digest('hex').slice(0, 12)
}

const CACHE = join(modules, '.cache', 'appeals')
const PREPARED = `pglite-${version}-${migrationsHash()}`
/** node_modules/.cache/appeals/pglite-<version>-<migrations>/: the files of a new, migrated database (a new install or migration makes them anew) */
export const FRESH_DATA_DIR = join(CACHE, PREPARED)
/** the same as an image (a tarball), which the tests' databases in memory load */
export const FRESH_IMAGE = `${FRESH_DATA_DIR}.tar`

/** makes the files when there are none yet for this install and these migrations */
export async function prepareFreshImage (): Promise<void> {
  if (existsSync(FRESH_DATA_DIR) && existsSync(FRESH_IMAGE)) return
  mkdirSync(CACHE, { recursive: true })
  // made under other names first, then renamed whole: a start at the same time finds all or none
  const making = join(CACHE, `.making-${process.pid}-${Date.now()}`)
  try {
    const client = await PGlite.create({ dataDir: making, extensions: { pg_trgm } })
    await migrate(drizzle({ client }), { migrationsFolder: migrationsFolder() })
    const image = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer())
    await client.close()
    writeFileSync(`${making}.tar`, image)
    renameSync(`${making}.tar`, FRESH_IMAGE)
    try {
      renameSync(making, FRESH_DATA_DIR)
    } catch (err) {
      if (!existsSync(FRESH_DATA_DIR)) throw err // else another process made them first
    }
  } finally {
    rmSync(making, { recursive: true, force: true })
  }
  for (const old of readdirSync(CACHE).filter((f) => f.startsWith('pglite-') && !f.startsWith(PREPARED))) rmSync(join(CACHE, old), { recursive: true, force: true })
}

/**
 * A data directory with nothing in it yet gets the prepared files (a copy of a folder: about 0.4 s;
 * PGlite then opens them in 0.6 s, where loading an image takes 2.4 s and initdb 5).
 */
export function prepareDataDir (pgdata: string): void {
  if (readdirSync(pgdata).length > 0 || !existsSync(FRESH_DATA_DIR)) return
  // copied beside it, then put in its place whole: a copy cut short is never taken for a database
  const copying = `${pgdata}.copying`
  rmSync(copying, { recursive: true, force: true })
  cpSync(FRESH_DATA_DIR, copying, { recursive: true })
  renameSync(copying, pgdata)
}
