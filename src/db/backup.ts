// Backups of the embedded database: a gzip'd tarball of its data directory, PGlite's own dump taken
// between statements (a crash-consistent copy, its write-ahead log included: a transaction under
// way at that moment is rolled back when the copy is opened). While the service runs the data
// directory is its alone, so it hands a backup out on a Unix socket in DATA_DIR (mode 0600: to
// whoever may read the files anyway); with the service stopped the CLI opens the database itself.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { FastifyBaseLogger } from 'fastify'
import { createDb, type Database } from './client.js'
import { dataDirOwner } from './data-dir-lock.js'
import { appliedMigrations, runMigrations } from './migrate.js'

const socketOf = (dataDir: string) => join(dataDir, 'backup.sock')

/** serves a backup to each connection on DATA_DIR/backup.sock; answers the stop */
export async function serveBackups (database: Database, dataDir: string, log: FastifyBaseLogger): Promise<() => Promise<void>> {
  const path = socketOf(dataDir)
  rmSync(path, { force: true }) // left by a process that is gone: the data directory's lock is ours
  const server = createServer((socket) => {
    socket.on('error', () => {})
    database.image('gzip').then(async (image) => {
      socket.end(Buffer.from(await image.arrayBuffer()))
      log.info({ bytes: image.size }, 'backup: the embedded database handed out')
    }, (err: unknown) => {
      log.error({ err }, 'backup: the embedded database could not be dumped')
      socket.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve))
  chmodSync(path, 0o600)
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

/** a gzip'd tarball, whole (a dump cut short does not pass) */
function checkImage (bytes: Buffer): void {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new Error('not a gzip\'d backup of the embedded database')
  gunzipSync(bytes)
}

function fromRunningService (dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = createConnection(socketOf(dataDir))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(Buffer.concat(chunks)))
  })
}

/** writes a backup of DATA_DIR's database to `file`: from the running service, or opened here when none runs */
export async function backup (dataDir: string, file: string): Promise<string> {
  const running = dataDirOwner(dataDir)
  let bytes: Buffer
  if (running !== undefined) {
    bytes = await fromRunningService(dataDir)
  } else {
    if (!existsSync(join(dataDir, 'pgdata'))) throw new Error(`no embedded database in ${dataDir}`)
    const database = await createDb({ dataDir })
    try { bytes = Buffer.from(await (await database.image('gzip')).arrayBuffer()) } finally { await database.close() }
  }
  checkImage(bytes)
  // every citizen's data is in it: its owner's alone from the first byte (a replaced file's mode is not inherited)
  rmSync(`${file}.partial`, { force: true })
  writeFileSync(`${file}.partial`, bytes, { mode: 0o600, flag: 'wx' })
  renameSync(`${file}.partial`, file)
  return `backup of ${dataDir} written to ${file} (${bytes.length} bytes, ${running !== undefined ? `from the running service, pid ${running}` : 'the service stopped'})`
}

/**
 * Replaces DATA_DIR's database by a backup, the service stopped: the backup is opened and checked
 * in memory first, the current data directory is kept beside it (`pgdata.replaced-<time>`), and the
 * restored database is migrated to this version.
 */
export async function restore (dataDir: string, file: string, now = new Date()): Promise<string> {
  const running = dataDirOwner(dataDir)
  if (running !== undefined) throw new Error(`the service (pid ${running}) runs on ${dataDir}: stop it before a restore`)
  const bytes = readFileSync(file)
  checkImage(bytes)
  const image = new Blob([bytes])
  const trial = await createDb({ loadDataDir: image })
  try { await appliedMigrations(trial) } catch (err) {
    throw new Error(`${file} is not a backup of this service's database: ${err instanceof Error ? err.message : String(err)}`)
  } finally { await trial.close() }
  const current = join(dataDir, 'pgdata')
  const kept = existsSync(current) ? `${current}.replaced-${now.toISOString().replace(/[:.]/g, '-')}` : undefined
  if (kept) renameSync(current, kept)
  mkdirSync(dataDir, { recursive: true })
  const database = await createDb({ dataDir, loadDataDir: image })
  try { await runMigrations(database) } finally { await database.close() }
  return `${file} restored into ${dataDir}${kept ? `; the database it replaced is kept in ${kept}` : ''}`
}
