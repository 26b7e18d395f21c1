import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import type { AudioEncoder } from '../../integrations/recordings/index.js'
import { readWavHeader, repairWavHeader, type WavHeader } from '../../lib/audio/index.js'
import { LINKEDID_PATTERN } from '../../integrations/asterisk/names.js'
import { linkOrCopy, syncPath } from '../../lib/durable-files.js'
import type { Metrics } from '../../lib/metrics.js'
import { indexRecording, markCompressed, rawRecordings, recordingOf } from './queries.js'

/**
 * The raw file MixMonitor writes for a leg: `<Linkedid>-<Uniqueid>[-<terminal>].wav` (the dialplan
 * names it so), in RECORDINGS_DIR itself; the service keeps what it took over under `kept/<day>/`.
 */
const RAW_NAME = new RegExp(`^(${LINKEDID_PATTERN})-(${LINKEDID_PATTERN})(?:-([A-Za-z0-9_]{1,40}))?\\.wav$`)
const KEPT = 'kept'
/** raw legs a sweep compresses again at most, once an encoder can run */
const RECOMPRESS_BATCH = 50
/**
 * A raw leg nobody has written to for this long was left open by an Asterisk that stopped mid-call:
 * MixMonitor writes a frame every 20 ms for as long as the call lasts, silence included.
 */
const ABANDONED_AFTER_MS = 60 * 60_000

export interface SweepResult {
  /** taken over and indexed */
  taken: number
  /** still being written (Asterisk has not closed them) */
  recording: number
  /** left in place after a failure (full disk, a broken encoder), tried again by the next sweep */
  failed: number
}

async function sha256Of (path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

const exists = (path: string) => stat(path).then(() => true, () => false)

/**
 * Takes finished recordings over from Asterisk (DESIGN 10): each raw leg is compressed (or, while no
 * encoder can run, kept as it is), the kept file made durable, its row written, and only then the raw
 * file removed. A crash at any step loses nothing: the next sweep finds the raw file again, writes the
 * kept one anew, and its row is written once.
 */
export function createRecordingTakeover ({ db, dir, encoder, metrics, log }: { db: AppDb, dir: string, encoder: AudioEncoder, metrics: Pick<Metrics, 'failure'>, log: FastifyBaseLogger }) {
  /** the leg's header once it is finished: closed by Asterisk, or repaired when Asterisk left it open long ago */
  async function finished (path: string): Promise<WavHeader | undefined> {
    const header = await readWavHeader(path)
    if (!header || header.closed) return header?.closed ? header : undefined
    // file times are the machine's real ones, whatever the service's clock says
    if (Date.now() - (await stat(path)).mtimeMs < ABANDONED_AFTER_MS) return undefined
    log.warn({ file: path }, 'recordings: a raw recording Asterisk never closed is repaired from its length and taken over')
    return repairWavHeader(path)
  }

  let encodes: Promise<boolean> | undefined
  let known: boolean | undefined
  /** probed once while it answers; probed again by each sweep while it does not (an encoder installed later is used) */
  const canEncode = async () => {
    const probed = await (encodes ??= encoder.probe().then((found) => found !== undefined))
    if (!probed) encodes = undefined
    known = probed
    return probed
  }

  async function takeOver (name: string, header: WavHeader): Promise<void> {
    const [, linkedid, leg, terminal] = RAW_NAME.exec(name)!
    const raw = join(dir, name)
    const indexed = await recordingOf(db, linkedid!, leg!)
    if (indexed && await exists(join(dir, indexed.file))) { await rm(raw, { force: true }); return }
    const ended = (await stat(raw)).mtimeMs
    const startedAt = new Date(ended - header.seconds * 1000)
    const day = startedAt.toISOString().slice(0, 10)
    const folder = join(dir, KEPT, day)
    await mkdir(folder, { recursive: true })
    const compress = await canEncode()
    const file = join(KEPT, day, `${linkedid}-${leg}.${compress ? 'ogg' : 'wav'}`)
    const kept = join(dir, file)
    if (compress) {
      await encoder.compress(raw, kept)
    } else {
      await rm(kept, { force: true }) // what a crashed sweep linked before
      await linkOrCopy(raw, kept)
    }
    await syncPath(kept)
    await syncPath(folder) // its name too, before the row says it is there
    await indexRecording(db, {
      linkedid: linkedid!, leg: leg!, terminal: terminal ?? null, file, format: compress ? 'opus' : 'wav', started_at: startedAt,
      seconds: header.seconds, bytes: (await stat(kept)).size, sha256: await sha256Of(kept),
    })
    await rm(raw, { force: true })
  }

  /** the legs kept raw, compressed now that an encoder runs: the compressed file first, its row, then the raw one removed */
  async function recompress (): Promise<number> {
    if (!await canEncode()) return 0
    let done = 0
    for (const row of await rawRecordings(db, RECOMPRESS_BATCH)) {
      const from = join(dir, row.file)
      const file = row.file.replace(/\.wav$/, '.ogg')
      try {
        await encoder.compress(from, join(dir, file))
        await syncPath(join(dir, file))
        await markCompressed(db, row.id, { file, bytes: (await stat(join(dir, file))).size, sha256: await sha256Of(join(dir, file)) })
        await rm(from, { force: true })
        done++
      } catch (err) {
        metrics.failure('recording')
        log.warn({ err, recording: row.id }, 'recordings: a raw recording could not be compressed; kept as it is')
      }
    }
    return done
  }

  return {
    /** whether recordings are compressed now (said at start and on /ready) */
    canEncode,
    /** what the last probe found, without probing (undefined before the first) */
    encodes: () => known,

    /** every finished raw leg in RECORDINGS_DIR taken over; then the raw ones kept earlier compressed */
    async sweep (): Promise<SweepResult & { recompressed: number }> {
      const result = { taken: 0, recording: 0, failed: 0 }
      for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => RAW_NAME.test(n)).sort()) {
        try {
          const header = await finished(join(dir, name))
          if (!header?.closed) { result.recording++; continue }
          await takeOver(name, header)
          result.taken++
        } catch (err) {
          result.failed++
          metrics.failure('recording')
          log.warn({ err, file: name }, 'recordings: a finished recording could not be taken over; the raw file stays for the next sweep')
        }
      }
      return { ...result, recompressed: await recompress() }
    },
  }
}
