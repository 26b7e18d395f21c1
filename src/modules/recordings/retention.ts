import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppDb } from '../../db/client.js'
import type { PurgeRecorder } from '../audit/index.js'
import { deleteRecordings, purgeable } from './queries.js'

/** recordings deleted at once: a batch's files, its audit record and its rows */
const PURGE_BATCH = 500

/**
 * The recordings' retention (RECORDING_RETENTION_DAYS, DESIGN 10): what began before the cutoff and
 * belongs to no appeal still open or closed after it goes, in batches: its files first, then the
 * audit record naming them, then its rows. A crash in between leaves rows whose files are gone
 * (the next run deletes them), never a file nobody can find.
 */
export function createRecordingRetention ({ db, dir, recordPurged }: { db: AppDb, dir: string, recordPurged?: PurgeRecorder }) {
  return async function purgeBefore (cutoff: Date): Promise<number> {
    let purged = 0
    for (;;) {
      const batch = await purgeable(db, cutoff, PURGE_BATCH)
      if (batch.length === 0) return purged
      for (const r of batch) await rm(join(dir, r.file), { force: true })
      await recordPurged?.('recording', batch.map((r) => r.id), { cutoff: cutoff.toISOString(), calls: [...new Set(batch.map((r) => r.linkedid))] })
      await deleteRecordings(db, batch.map((r) => r.id))
      purged += batch.length
      if (batch.length < PURGE_BATCH) return purged
    }
  }
}
