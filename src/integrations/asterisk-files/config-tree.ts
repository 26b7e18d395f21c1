import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { chmod, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { linkOrCopy, syncPath } from '../../lib/durable-files.js'

/**
 * The files carry the terminals' password digests: readable by their owner and group only (Asterisk
 * reads them through its group: docs/telephony.md), whatever the process's umask.
 */
export const CONFIG_FILE_MODE = 0o640
export const CONFIG_DIR_MODE = 0o750

/** files handled at once: the caller waits beyond, so what waits to be written is never the whole tree */
const WRITE_CONCURRENCY = 16

async function inParallel<T> (items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i]!)
  }))
}

/** the file's bytes, flushed to the disk before the caller renames it over the one in use */
async function writeDurably (path: string, bytes: Buffer): Promise<void> {
  const handle = await open(path, 'w', CONFIG_FILE_MODE)
  try {
    // the mode open() gives is narrowed by the umask: a umask of 077 would shut Asterisk's group out
    if ((process.umask() & CONFIG_FILE_MODE) !== 0) await handle.chmod(CONFIG_FILE_MODE)
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * The previous file kept under a second name: a hard link (no copy: the file is about to be replaced
 * by a rename, so the backup's name is the only one left of it), or a copy where the file system
 * has no hard links.
 */
async function keepPrevious (from: string, to: string): Promise<void> {
  await linkOrCopy(from, to)
  await chmod(to, CONFIG_FILE_MODE) // a file an earlier version wrote readable by all is kept as files are written now
}

const TEMP_FILE = /^\..+\.tmp-\d+$/
const PARTIAL_BACKUP = /^\..+\.partial$/

/** what a generation that crashed half-way left behind: temporary files and unfinished backups */
async function removeLeftovers (dir: string): Promise<void> {
  for (const name of await readdir(dir)) if (TEMP_FILE.test(name)) await rm(join(dir, name), { force: true })
  const backups = join(dir, 'backups')
  for (const name of await readdir(backups).catch(() => [] as string[])) {
    if (PARTIAL_BACKUP.test(name)) await rm(join(backups, name), { recursive: true, force: true })
  }
}

/** the previous files kept, complete or absent: gathered under a temporary name, then renamed */
async function backUp (dir: string, names: string[], now: Date): Promise<string> {
  const backups = join(dir, 'backups')
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  let backupPath = join(backups, stamp)
  for (let n = 1; await exists(backupPath); n++) backupPath = join(backups, `${stamp}-${n}`)
  const partial = join(backups, `.${stamp}.partial`)
  await mkdir(partial, { recursive: true, mode: CONFIG_DIR_MODE })
  await inParallel([...new Set(names.filter((name) => name.includes('/')).map(dirname))], async (folder) => { await mkdir(join(partial, folder), { recursive: true, mode: CONFIG_DIR_MODE }) })
  await inParallel(names, async (name) => { await keepPrevious(join(dir, name), join(partial, name)) })
  await syncPath(partial)
  await rename(partial, backupPath)
  await syncPath(backups)
  return backupPath
}

/** keeps the newest `keep` backups: a busy centre generates often, and each set is megabytes */
async function pruneBackups (dir: string, keep: number): Promise<void> {
  for (const old of (await listBackups(dir)).slice(keep)) await rm(join(dir, 'backups', old), { recursive: true, force: true })
}

const exists = async (path: string) => stat(path).then(() => true, () => false)

/** the backup directories, newest first */
export async function listBackups (dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'backups')).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort().reverse()
}

/**
 * The file's bytes, read at once: a configuration file is tens of kilobytes from the page cache, a
 * few microseconds, where the promise API's four trips through the thread pool would cost more than
 * the reading (a full generation reads 3,000 of them).
 */
function readBytes (path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/**
 * One digest of files' bytes and of what they were made with (`salt`): each file's length goes
 * first, so two sets of files cannot run together into the same bytes.
 */
export function digestOf (salt: string, files: readonly Buffer[]): string {
  const hash = createHash('sha256').update(salt)
  for (const bytes of files) hash.update(`\n${bytes.length}\n`).update(bytes)
  return hash.digest('hex')
}

/**
 * Changes to a tree of configuration files (the main files and the organizations' own files they
 * include), staged file by file as they are rendered, then put in place at once: a change to one
 * organization writes only its files, and a full generation never holds every file in memory.
 * A file whose text is already the one put is left untouched. Each new file goes to a temporary
 * name first (written and flushed), the files replaced or removed are kept in `backups/<timestamp>/`
 * under their paths (hard links: a backup of 100 MB costs nothing), then the temporary files are
 * renamed over and their folders synced; only the newest `keepBackups` backups are kept. With
 * `backupAll` the backup holds every file put, changed or not: a whole set to go back to (a file is
 * only ever replaced by a rename, never rewritten in place, so a link to an unchanged file keeps its
 * text). A write that fails leaves every file as it was (`abort` removes the temporary ones).
 */
export function openConfigTree (dir: string, { backupAll = false, keepBackups = 20 }: { backupAll?: boolean, keepBackups?: number } = {}) {
  const writes: string[] = []
  /** the files put that were there before (read to compare): what a backup of the set holds */
  const present: string[] = []
  const removes: string[] = []
  const inFlight = new Set<Promise<void>>()
  let failure: unknown
  const temp = (path: string) => join(dir, dirname(path), `.${basename(path)}.tmp-${process.pid}`)
  const folders = new Map<string, Promise<unknown>>()

  async function stage (path: string, bytes: Buffer) {
    // compared as bytes: decoding the file to a string would cost more than the reading
    const before = readBytes(join(dir, path))
    if (before !== undefined) present.push(path)
    if (before?.equals(bytes) === true) return
    const folder = join(dir, dirname(path))
    let made = folders.get(folder)
    if (!made) folders.set(folder, made = mkdir(folder, { recursive: true, mode: CONFIG_DIR_MODE }))
    await made
    writes.push(path)
    await writeDurably(temp(path), bytes)
  }

  const drain = async (limit: number) => {
    while (inFlight.size > limit) await Promise.race(inFlight)
    if (failure) throw failure
  }

  return {
    /** the file's new bytes: compared with the file there and, when they differ, written to its temporary name in the background */
    async put (path: string, bytes: Buffer) {
      if (failure) throw failure
      const done: Promise<void> = stage(path, bytes).catch((err: unknown) => { failure ??= err }).finally(() => { inFlight.delete(done) })
      inFlight.add(done)
      if (inFlight.size >= WRITE_CONCURRENCY) await Promise.race(inFlight)
    },
    remove (path: string) { removes.push(path) },
    /**
     * Whether the files on disk are still the ones written with this digest (`digestOf(salt, …)`):
     * then they are part of the set as they are, in its backup too. A file missing or changed by
     * hand answers false.
     */
    intact (paths: readonly string[], salt: string, digest: string): boolean {
      const files: Buffer[] = []
      for (const path of paths) {
        const bytes = readBytes(join(dir, path))
        if (bytes === undefined) return false
        files.push(bytes)
      }
      if (digestOf(salt, files) !== digest) return false
      present.push(...paths)
      return true
    },
    /** puts every staged file in place; answers the paths whose text changed and the backup */
    async commit (now: Date): Promise<{ changed: string[], backupPath: string | null }> {
      await drain(0)
      const found = new Set<string>()
      await inParallel(removes, async (path) => { if (await exists(join(dir, path))) found.add(path) })
      const gone = removes.filter((path) => found.has(path))
      if (writes.length + gone.length === 0 && !backupAll) return { changed: [], backupPath: null }
      const replaced = new Set(writes)
      const kept = [...(backupAll ? present : present.filter((path) => replaced.has(path))), ...gone]
      const backupPath = kept.length > 0 ? await backUp(dir, kept, now) : null
      await inParallel(writes, async (path) => { await rename(temp(path), join(dir, path)) })
      await inParallel(gone, async (path) => { await rm(join(dir, path), { force: true }) })
      await inParallel([...new Set([...writes, ...gone].map((path) => join(dir, dirname(path))))], async (folder) => { await syncPath(folder).catch(() => {}) })
      if (backupPath !== null) await pruneBackups(dir, keepBackups)
      return { changed: [...writes, ...gone].sort(), backupPath }
    },
    /** a write failed, or the caller gave up: the temporary files go, every file stays as it was */
    async abort () {
      await Promise.allSettled([...inFlight])
      await Promise.all(writes.map((path) => rm(temp(path), { force: true }).catch(() => {})))
    },
  }
}

/** the temporary files a write that crashed half-way left in the organizations' folders */
export async function removeTreeLeftovers (dir: string): Promise<void> {
  await removeLeftovers(dir).catch(() => {})
  const orgs = join(dir, 'orgs')
  for (const folder of await readdir(orgs).catch(() => [] as string[])) {
    for (const name of await readdir(join(orgs, folder)).catch(() => [] as string[])) if (TEMP_FILE.test(name)) await rm(join(orgs, folder, name), { force: true }).catch(() => {})
  }
}
