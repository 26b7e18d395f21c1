import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, it } from 'node:test'
import { pino } from 'pino'
import type { Database } from '../../src/db/client.js'
import { callRecordings } from '../../src/db/schema/index.js'
import { createOpusToolsEncoder, type AudioEncoder } from '../../src/integrations/recordings/index.js'
import { createMetrics } from '../../src/lib/metrics.js'
import { createRecordingTakeover } from '../../src/modules/recordings/takeover.js'
import { asteriskWav as wavOf, haveOpusTools, tone } from '../helpers/asterisk-wav.js'
import { createTestDatabase } from '../helpers/database.js'

const asteriskWav = (seconds: number, closed = true) => wavOf(tone(seconds), { closed })

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

describe('recordings taken over from Asterisk: compressed, indexed, the raw file removed last', { skip: !haveOpusTools && 'opus-tools is not installed (apt-get install opus-tools)' }, () => {
  let database: Database
  let dir: string
  const metrics = createMetrics({ processFigures: false })
  const failures = async () => (await metrics.registry.getSingleMetric('failures_total')!.get()).values.find((v) => v.labels.kind === 'recording')?.value ?? 0
  const takeover = (encoder: AudioEncoder = createOpusToolsEncoder()) => createRecordingTakeover({ db: database.db, dir, encoder, metrics, log: pino({ level: 'silent' }) })
  const rows = () => database.db.select().from(callRecordings).orderBy(callRecordings.id)
  const raw = (name: string, bytes = asteriskWav(2)) => writeFileSync(join(dir, name), bytes)

  before(async () => { database = await createTestDatabase() })
  after(async () => { await database.close() })
  const dirs: string[] = []
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recordings-dir-'))
    dirs.push(dir)
    await database.db.delete(callRecordings)
  })

  it('a finished leg becomes Ogg/Opus with its row (length, bytes, SHA-256, the operator\'s terminal); one still written and other files wait', async () => {
    raw('1732812345.12-1732812350.15-101001.wav')
    raw('1732812400.20-1732812401.21.wav', asteriskWav(2, false))
    raw('notes.txt', Buffer.from('not a recording'))
    assert.deepEqual(await takeover().sweep(), { taken: 1, recording: 1, failed: 0, recompressed: 0 })
    const [row, ...others] = await rows()
    assert.equal(others.length, 0)
    assert.deepEqual([row!.linkedid, row!.leg, row!.terminal, row!.format, row!.seconds], ['1732812345.12', '1732812350.15', '101001', 'opus', 2])
    assert.match(row!.file, /^kept\/\d{4}-\d{2}-\d{2}\/1732812345\.12-1732812350\.15\.ogg$/)
    const kept = join(dir, row!.file)
    assert.equal(readFileSync(kept).toString('latin1', 0, 4), 'OggS')
    assert.deepEqual([row!.bytes, row!.sha256], [readFileSync(kept).length, sha256(kept)])
    assert.ok(row!.bytes <= 2000 * 2, `${row!.bytes} bytes for 2 s`)
    assert.ok(Math.abs(row!.started_at.getTime() + 2000 - Date.now()) < 60_000, 'started: the file\'s end less its length')
    assert.deepEqual(readdirSync(dir).sort(), ['1732812400.20-1732812401.21.wav', 'kept', 'notes.txt'], 'the raw file is gone, the one still written stays')
  })

  it('a leg Asterisk never closed (it stopped mid-call) is repaired from its length once untouched for an hour, and taken over; a recent one waits', async () => {
    raw('1732812500.30-1732812501.31.wav', asteriskWav(3, false))
    raw('1732812600.40-1732812601.41.wav', asteriskWav(2, false))
    const anHourAndMoreAgo = new Date(Date.now() - 61 * 60_000)
    utimesSync(join(dir, '1732812500.30-1732812501.31.wav'), anHourAndMoreAgo, anHourAndMoreAgo)
    assert.deepEqual(await takeover().sweep(), { taken: 1, recording: 1, failed: 0, recompressed: 0 })
    const [row, ...others] = await rows()
    assert.equal(others.length, 0)
    assert.deepEqual([row!.linkedid, row!.leg, row!.seconds, row!.format], ['1732812500.30', '1732812501.31', 3, 'opus'], 'its whole length kept')
    assert.deepEqual(readdirSync(dir).sort(), ['1732812600.40-1732812601.41.wav', 'kept'], 'the one still being written stays')
  })

  it('a crash after the row (the raw file still there) or before it (the kept file written, no row) loses nothing and indexes once', async () => {
    const name = '1732812345.12-1732812350.15.wav'
    raw(name)
    await takeover().sweep()
    raw(name) // as if the process died between the row and the raw file's removal
    assert.deepEqual(await takeover().sweep(), { taken: 1, recording: 0, failed: 0, recompressed: 0 })
    assert.equal((await rows()).length, 1)
    assert.ok(!existsSync(join(dir, name)))

    await database.db.delete(callRecordings) // as if it died after the kept file, before its row
    raw(name)
    await takeover().sweep()
    const [row] = await rows()
    assert.equal(row?.sha256, sha256(join(dir, row!.file)))
    assert.ok(!existsSync(join(dir, name)))
  })

  it('an encoder that fails (a full disk) keeps the raw file and counts the failure; no row is half-written', async () => {
    const broken: AudioEncoder = { probe: async () => 'broken', compress: async () => { throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }) } }
    raw('1732812345.12-1732812350.15.wav')
    const before = await failures()
    assert.deepEqual(await takeover(broken).sweep(), { taken: 0, recording: 0, failed: 1, recompressed: 0 })
    assert.equal(await failures(), before + 1)
    assert.deepEqual(await rows(), [])
    assert.ok(existsSync(join(dir, '1732812345.12-1732812350.15.wav')))
    assert.equal((await takeover().sweep()).taken, 1, 'the next sweep with a working encoder takes it')
  })

  it('without an encoder the WAV is kept and indexed as such; once one runs, it is compressed and the WAV removed', async () => {
    const absent = createOpusToolsEncoder({ encoder: 'no-such-opusenc' })
    raw('1732812345.12-1732812350.15.wav')
    const withoutEncoder = takeover(absent)
    assert.equal(await withoutEncoder.canEncode(), false)
    assert.deepEqual(await withoutEncoder.sweep(), { taken: 1, recording: 0, failed: 0, recompressed: 0 })
    const [kept] = await rows()
    assert.deepEqual([kept!.format, kept!.seconds], ['wav', 2])
    assert.equal(kept!.sha256, sha256(join(dir, kept!.file)))
    assert.deepEqual(await takeover().sweep(), { taken: 0, recording: 0, failed: 0, recompressed: 1 })
    const [compressed] = await rows()
    assert.equal(compressed!.format, 'opus')
    assert.match(compressed!.file, /\.ogg$/)
    assert.equal(compressed!.sha256, sha256(join(dir, compressed!.file)))
    assert.ok(!existsSync(join(dir, kept!.file)), 'the WAV is removed once its compressed form is indexed')
  })

  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })
})
