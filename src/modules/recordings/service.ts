import { createReadStream, type ReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppDb } from '../../db/client.js'
import type { Principal } from '../../lib/auth.js'
import { AppError, NotFoundError } from '../../lib/errors.js'
import type { HearingPolicy } from './access.js'
import { legsOf, markMissing, recordingById, type RecordingRow } from './queries.js'
import type { RecordingOut } from './schemas.js'

/** a byte range of a file: `start` to `end`, both included */
export interface ByteRange { start: number, end: number }

/**
 * The one range of a `Range: bytes=...` header (RFC 9110 14.1.2) within a file of `size` bytes:
 * `first-last`, `first-` or `-suffix`; undefined without the header; 'unsatisfiable' for anything
 * that names no byte of the file (several ranges, a range past the end, a last before the first).
 */
export function rangeOf (header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return 'unsatisfiable'
  if (m[1] === '') {
    const suffix = Number(m[2])
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  return start >= size || end < start ? 'unsatisfiable' : { start, end }
}

const MEDIA_TYPES = { opus: 'audio/ogg', wav: 'audio/wav' } as const

export function createRecordingService ({ db, dir, audibleOf }: { db: AppDb, dir: string, audibleOf: HearingPolicy }) {
  const out = (row: RecordingRow): RecordingOut => ({
    id: row.id, linkedid: row.linkedid, leg: row.leg, terminal: row.terminal, started_at: row.started_at.toISOString(), seconds: row.seconds,
    bytes: row.bytes, format: row.format, missing: row.missing_at !== null, url: `/api/recordings/${row.id}`,
  })
  const gone = () => new AppError(410, 'recording_missing', 'The recording\'s file was removed outside the service; its index row is kept')

  return {
    /** the call's legs the principal may hear ([] for a call of which they may hear none: no hint that one exists) */
    async list (principal: Principal, linkedid: string): Promise<RecordingOut[]> {
      const legs = await legsOf(db, linkedid)
      if (legs.length === 0) return []
      return legs.filter(await audibleOf(principal, linkedid)).map(out)
    },

    /** a recording to be heard: its file open from `range` (all of it without one); 404 for whoever may not hear it, 410 when its file is gone */
    async open (principal: Principal, id: number, rangeHeader: string | undefined): Promise<{ recording: RecordingOut, size: number, range: ByteRange | 'unsatisfiable' | undefined, body: () => ReadStream, mediaType: string, downloadName: string }> {
      const row = await recordingById(db, id)
      if (!row || !(await audibleOf(principal, row.linkedid))(row)) throw new NotFoundError('Recording')
      if (row.missing_at) throw gone()
      const path = join(dir, row.file)
      const size = await stat(path).then((s) => s.size, async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err
        await markMissing(db, row.id)
        throw gone()
      })
      const range = rangeOf(rangeHeader, size)
      const from = typeof range === 'object' ? range : { start: 0, end: size - 1 }
      return {
        recording: out(row), size, range, mediaType: MEDIA_TYPES[row.format],
        downloadName: `${row.linkedid}-${row.leg}.${row.format === 'opus' ? 'ogg' : 'wav'}`,
        body: () => createReadStream(path, { start: from.start, end: from.end }),
      }
    },
  }
}

export type RecordingService = ReturnType<typeof createRecordingService>
