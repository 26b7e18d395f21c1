// A new embedded database starts from a copy of what PGlite's initdb makes, made once per installed
// PGlite (scripts/ensure-deps.mjs: before the first `npm start` or `npm test`), instead of running
// initdb for every new data directory: loading the copy takes about 1.4 s, initdb about 5.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

const PACKAGE = '@electric-sql/pglite'
/** the node_modules folder PGlite is installed in (its package.json is not among its exports) */
const modules = (() => {
  const entry = fileURLToPath(import.meta.resolve(PACKAGE))
  return entry.slice(0, entry.lastIndexOf(`/node_modules/${PACKAGE}/`) + '/node_modules'.length)
})()
const { version } = JSON.parse(readFileSync(join(modules, PACKAGE, 'package.json'), 'utf8')) as { version: string }

/** node_modules/.cache/appeals/pglite-<version>-initdb.tar: a new install of PGlite makes it anew */
export const FRESH_IMAGE = join(modules, '.cache', 'appeals', `pglite-${version}-initdb.tar`)

/** makes the copy when this install has none yet (an in-memory initdb, dumped) */
export async function prepareFreshImage (): Promise<void> {
  if (existsSync(FRESH_IMAGE)) return
  const client = await PGlite.create({ extensions: { pg_trgm } })
  const image = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer())
  await client.close()
  mkdirSync(dirname(FRESH_IMAGE), { recursive: true })
  // written whole under another name first: a start at the same time reads all of it or none
  const writing = `${FRESH_IMAGE}.${process.pid}`
  writeFileSync(writing, image)
  renameSync(writing, FRESH_IMAGE)
}

/** the copy for a data directory with nothing in it yet, when this install has made one */
export function freshImageFor (pgdata: string): Blob | undefined {
  if (readdirSync(pgdata).length > 0 || !existsSync(FRESH_IMAGE)) return undefined
  return new Blob([readFileSync(FRESH_IMAGE)])
}
