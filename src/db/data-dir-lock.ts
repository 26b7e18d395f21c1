import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * When a process started, in clock ticks since boot (Linux /proc); undefined where that is not known.
 * With the pid it names one process: a restarted container reuses the pid, never the start time.
 */
function startTimeOf (pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name in field 2 may hold spaces and parentheses: count fields after its closing one
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch { return undefined }
}

function isRunning (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
}

/** whether the process that wrote `owner` ("pid starttime") still runs */
function ownerAlive (owner: string): boolean {
  const [pidText, started] = owner.trim().split(' ')
  const pid = Number(pidText)
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return false
  const now = startTimeOf(pid)
  // where start times are known, a different one is another process that got the same pid
  return now === undefined || started === undefined || now === started
}

/**
 * The embedded database is one process's: a second service on the same DATA_DIR would corrupt it.
 * The lock names its owner by pid and start time, so a lock left by a killed process (kill -9, a
 * container restart that reuses the pid) does not outlive it. Returns the release function.
 */
export function lockDataDir (dir: string): () => void {
  const file = join(dir, 'service.pid')
  const me = `${process.pid} ${startTimeOf(process.pid) ?? ''}`.trim()
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, me, { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = readFileSync(file, 'utf8')
      if (ownerAlive(owner)) {
        throw new Error(`DATA_DIR ${dir} is in use by process ${owner.split(' ')[0]}; the embedded database serves one process (use DATABASE_URL for several instances)`)
      }
      rmSync(file, { force: true }) // left behind by a process that is gone
    }
  }
  throw new Error(`could not lock DATA_DIR ${dir}`)
}

/** the pid of the live process that holds DATA_DIR, if one does */
export function dataDirOwner (dir: string): number | undefined {
  try {
    const owner = readFileSync(join(dir, 'service.pid'), 'utf8')
    return ownerAlive(owner) ? Number(owner.split(' ')[0]) : undefined
  } catch { return undefined }
}
