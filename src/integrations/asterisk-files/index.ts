import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

export interface WrittenSet { files: string[], backupPath: string | null }

async function writeDurably (path: string, content: string): Promise<void> {
  const handle = await open(path, 'w', 0o640)
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

const exists = async (path: string) => stat(path).then(() => true, () => false)

/**
 * Writes a set of configuration files into `dir`: every file goes to a temporary name first, the
 * previous files are copied into `backups/<timestamp>/`, then each temporary file is renamed over its
 * target (atomic per file). When any write fails, the temporary files are removed and the previous
 * files stay as they were.
 */
export async function writeConfigSet (dir: string, files: Record<string, string>, now: Date): Promise<WrittenSet> {
  await mkdir(dir, { recursive: true })
  const names = Object.keys(files).sort()
  const temp = (name: string) => join(dir, `.${name}.tmp-${process.pid}`)
  try {
    for (const name of names) await writeDurably(temp(name), files[name]!)
  } catch (err) {
    await Promise.all(names.map((name) => rm(temp(name), { force: true })))
    throw err
  }
  let backupPath: string | null = null
  const previous = (await Promise.all(names.map(async (name) => ((await exists(join(dir, name))) ? name : undefined)))).filter((n): n is string => n !== undefined)
  if (previous.length > 0) {
    const stamp = now.toISOString().replace(/[:.]/g, '-')
    backupPath = join(dir, 'backups', stamp)
    for (let n = 1; await exists(backupPath); n++) backupPath = join(dir, 'backups', `${stamp}-${n}`)
    await mkdir(backupPath, { recursive: true })
    for (const name of previous) await copyFile(join(dir, name), join(backupPath, name))
  }
  for (const name of names) await rename(temp(name), join(dir, name))
  return { files: names.map((name) => join(dir, name)), backupPath }
}

/** the backup directories, newest first */
export async function listBackups (dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'backups')).catch(() => [] as string[])).sort().reverse()
}
