import { rename, rm } from 'node:fs/promises'

/**
 * A compressed recording written at `to` only once it is checked: `write` makes it under a temporary
 * name, `decodedSeconds` reads that back, and a length off the source's by more than `tolerance`
 * (or any failure) leaves nothing at `to` and no temporary file.
 */
export async function writeChecked ({ from, to, sourceSeconds, tolerance, write, decodedSeconds }: {
  from: string, to: string, sourceSeconds: number, tolerance: number
  write: (partial: string) => Promise<void>
  decodedSeconds: (partial: string) => Promise<number>
}): Promise<{ seconds: number }> {
  const partial = `${to}.partial`
  try {
    await write(partial)
    const seconds = await decodedSeconds(partial)
    if (Math.abs(seconds - sourceSeconds) > tolerance) throw new Error(`${partial} decodes to ${seconds.toFixed(3)} s where ${from} holds ${sourceSeconds.toFixed(3)} s`)
    await rename(partial, to)
    return { seconds: sourceSeconds }
  } catch (err) {
    await rm(partial, { force: true })
    throw err
  }
}
