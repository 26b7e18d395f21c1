import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { callRecordings } from '../../src/db/schema/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { asteriskWav, tone } from '../helpers/asterisk-wav.js'
import { makeOrganization } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

// A call's legs are taken over when Asterisk says the call ended (its caller's Hangup), not only at
// the sweep's interval: here an hour, and the leg is indexed within seconds of the replayed hang-up.
describe('recordings: taken over at the call\'s hang-up (Asterisk 22\'s recorded traffic)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let t: TestApp
  let dir: string

  before(async () => {
    peer = await startAmiPeer()
    dir = mkdtempSync(join(tmpdir(), 'recordings-hangup-'))
    t = await buildTestApp({ env: { ...peer.env(), RECORDINGS_DIR: dir, RECORDING_SWEEP_INTERVAL: '1h' } })
    await makeOrganization(t.database.db, { prefix: '101' })
    await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
  })
  after(async () => {
    await t.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('the leg MixMonitor closed is indexed after the hang-up, long before the next sweep', async () => {
    const LINKEDID = '1795922610.0'
    // the leg as MixMonitor leaves it when the operator's channel goes (the sweep at start has run: the file is new to it)
    await new Promise((resolve) => setTimeout(resolve, 300))
    writeFileSync(join(dir, `${LINKEDID}-1795922610.1-101001.wav`), asteriskWav(tone(2)))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    assert.equal((await t.database.db.select().from(callRecordings)).length, 0, 'nothing taken over before the call ends')
    peer.replay('queue-rated.txt')
    const [leg] = await eventually(async () => {
      const rows = await t.database.db.select().from(callRecordings).where(eq(callRecordings.linkedid, LINKEDID))
      return rows.length > 0 ? rows : undefined
    }, 15_000, 'the leg taken over after the hang-up')
    assert.deepEqual([leg!.leg, leg!.terminal, leg!.seconds], ['1795922610.1', '101001', 2])
  })
})
