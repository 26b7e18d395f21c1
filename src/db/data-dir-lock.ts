import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

function isRunning (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
}

/**
 * The embedded database is one process's: a second service on the same DATA_DIR would corrupt it.
 * Returns the release function.
 */
export function lockDataDir (dir: string): () => void {
  const file = join(dir, 'service.pid')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number(readFileSync(file, 'utf8'))
      if (Number.isInteger(holder) && isRunning(holder)) {
        throw new Error(`DATA_DIR ${dir} is in use by process ${holder}; the embedded database serves one process (use DATABASE_URL for several instances)`)
      }
      rmSync(file, { force: true }) // left behind by a process that is gone
    }
  }
  throw new Error(`could not lock DATA_DIR ${dir}`)
}
