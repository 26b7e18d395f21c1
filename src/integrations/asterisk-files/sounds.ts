import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** a sound file Asterisk plays: where under its sounds directory, and a stamp that changes with its content */
export interface SoundFile { path: string, stamp: string }

const MANIFEST = 'appeals-sounds.json'

async function writeAtomically (path: string, content: Buffer | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.tmp-${process.pid}`
  const handle = await open(temporary, 'w', 0o644)
  try {
    await handle.writeFile(content)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, path)
}

/**
 * Makes the service's sounds under `dir` what `wanted` says: a file whose stamp changed (or that is
 * missing from the last run's manifest) is loaded and written atomically, one no longer wanted is
 * removed; the rest stays untouched, so a generation reads no recording that did not change. Each
 * organization's prompts have a manifest of their own (`manifest`), so an apply touches only theirs.
 * Answers how many files were written and removed.
 */
export async function syncSounds<F extends SoundFile> (dir: string, wanted: F[], load: (file: F) => Promise<Buffer | undefined>, manifest = MANIFEST): Promise<{ written: number, removed: number }> {
  const manifestPath = join(dir, manifest)
  const kept = await readFile(manifestPath, 'utf8').catch(() => undefined)
  const before: Record<string, string> = JSON.parse(kept ?? '{}') as Record<string, string>
  const after: Record<string, string> = {}
  let written = 0
  for (const file of wanted) {
    if (before[file.path] !== file.stamp) {
      const content = await load(file)
      if (!content) continue
      await writeAtomically(join(dir, file.path), content)
      written++
    }
    after[file.path] = file.stamp
  }
  let removed = 0
  for (const path of Object.keys(before)) {
    if (path in after) continue
    await rm(join(dir, path), { force: true })
    removed++
  }
  const listed = `${JSON.stringify(after, Object.keys(after).sort(), 1)}\n`
  if (listed !== kept && (kept !== undefined || wanted.length > 0)) await writeAtomically(manifestPath, listed)
  return { written, removed }
}
