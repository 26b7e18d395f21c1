import { copyFile, link, open } from 'node:fs/promises'

/** flushes a file's bytes, or a directory's names (created, renamed, removed), to the disk */
export async function syncPath (path: string): Promise<void> {
  const handle = await open(path, 'r')
  try { await handle.sync() } finally { await handle.close() }
}

/**
 * A file under a second name, its bytes unchanged and durable: a hard link (no copy), or a copy
 * flushed to the disk where the file system has no hard links or the names are on two of them.
 */
export async function linkOrCopy (from: string, to: string): Promise<void> {
  try {
    await link(from, to)
  } catch (err) {
    if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'ENOSYS'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err
    await copyFile(from, to)
    await syncPath(to)
  }
}
