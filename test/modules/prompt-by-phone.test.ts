import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeWav, readWav } from '../../src/lib/audio/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { pcm16, sine } from '../helpers/audio.js'
import { login, makeOrganization, makeTerminal, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

type Headers = Record<string, string>
interface Recording { language: string, sample_rate: number, duration_ms: number, source: { format: string, terminal?: string, employee_id?: number | null } | null }

// A prompt recorded by phone reaches the service as the real Asterisk told it (prompt-by-phone.txt:
// the manager at 101009 dialled *77*1*2, spoke, pressed # then 1): the AMI peer replays that
// session's events, its `UserEvent AppealsPromptRecorded` pointed at a file the test leaves where
// Asterisk's Record() would have.
describe('prompts recorded by phone (UserEvent AppealsPromptRecorded, replayed from Asterisk 22)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let t: TestApp
  let admin: Headers
  let orgId: number
  let managerId: number
  let prompt: number
  const dir = mkdtempSync(join(tmpdir(), 'appeals-by-phone-'))
  const drafts = join(dir, 'recordings', 'prompts')
  let uniqueid = 1795944009

  before(async () => {
    peer = await startAmiPeer()
    t = await buildTestApp({ env: { ...peer.env(), RECORDINGS_DIR: join(dir, 'recordings') } })
    const db = t.database.db
    const org = await makeOrganization(db, { prefix: '101' })
    orgId = org.id
    await makeOrganization(db, { prefix: '102' })
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    const manager = await makeUser(db, { role: 'manager', organization_id: org.id })
    managerId = manager.id
    const operator = await makeUser(db, { role: 'operator', organization_id: org.id })
    await makeTerminal(t.app, admin, org.id, '001', operator.id)
    await makeTerminal(t.app, admin, org.id, '009', manager.id)
    prompt = (await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/prompts`, headers: admin, payload: { name: 'Приветствие' } })).json().id
    mkdirSync(drafts, { recursive: true })
    await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
  })
  after(async () => {
    await t.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const recordings = async (): Promise<Recording[]> =>
    (await t.app.inject({ url: `/api/organizations/${orgId}/prompts`, headers: admin })).json().find((p: { id: number }) => p.id === prompt).recordings
  /** Record()'s file (3 s of a 440 Hz tone at 16 kHz, half a second of silence before), then the recorded session's events with `fields` changed */
  function recordAndTell (fields: Record<string, string> = {}, { file = true } = {}): string {
    const name = `org101-${fields.Prompt ?? prompt}-${fields.PromptLanguage ?? '2'}-${++uniqueid}.9.wav16`
    const said = Float32Array.from([...new Float32Array(8000), ...sine(16_000, 440, 3, 0.2)])
    if (file) writeFileSync(join(drafts, name), makeWav(16_000, pcm16(said)))
    peer.replay('prompt-by-phone.txt', {
      rewrite: (m) => m.UserEvent === 'AppealsPromptRecorded'
        ? { ...m, Prompt: String(prompt), File: `/var/spool/asterisk/appeals/prompts/${name}`, ...fields }
        : m,
    })
    return name
  }

  it('the manager\'s recording becomes the prompt\'s Kazakh one: converted, trimmed, said to be by phone from 101009 by the manager; the file goes', async () => {
    const name = recordAndTell()
    const kept = await eventually(async () => (await recordings()).find((r) => r.language === 'kk'), 10_000, 'the recording kept')
    assert.equal(kept.sample_rate, 16_000)
    assert.ok(Math.abs(kept.duration_ms - 3100) <= 30, `3 s of the tone and 0.1 s of the silence before it: ${kept.duration_ms} ms`)
    assert.deepEqual({ format: kept.source!.format, terminal: kept.source!.terminal, employee: kept.source!.employee_id }, { format: 'phone', terminal: '101009', employee: managerId })
    await eventually(async () => !existsSync(join(drafts, name)), 10_000, 'the file taken from the shared directory')
    const played = await t.app.inject({ url: `/api/organizations/${orgId}/prompts/${prompt}/recordings/kk`, headers: admin })
    assert.equal(readWav(played.rawPayload).durationMs, kept.duration_ms)
  })

  it('refused, the file removed and nothing kept: an operator\'s terminal, a prompt of no one, another organization\'s prefix', async () => {
    for (const fields of [{ Terminal: '101001' }, { Prompt: '999999' }, { Organization: '102' }] as Record<string, string>[]) {
      const before = await recordings()
      const name = fields.Organization ? undefined : recordAndTell({ ...fields, PromptLanguage: '1' })
      if (fields.Organization) {
        // the file's name says 101, the event 102: not the dialplan's, so not even read; a refusal told after it is handled after it
        const kept = recordAndTell({ ...fields, PromptLanguage: '1' })
        const next = recordAndTell({ Terminal: '101001', PromptLanguage: '1' })
        await eventually(async () => !existsSync(join(drafts, next)), 10_000, 'the event told after it handled')
        assert.ok(existsSync(join(drafts, kept)), 'a name that disagrees with the event is not touched')
        rmSync(join(drafts, kept))
      } else {
        await eventually(async () => !existsSync(join(drafts, name!)), 10_000, `${JSON.stringify(fields)}: the file removed`)
      }
      assert.deepEqual(await recordings(), before, JSON.stringify(fields))
    }
    assert.equal((await recordings()).some((r) => r.language === 'ru'), false)
  })

  it('a file the dialplan did not name (a path elsewhere, another extension) is neither read nor removed', async () => {
    const outside = join(dir, 'secret.wav16')
    writeFileSync(outside, makeWav(16_000, pcm16(sine(16_000, 440, 1))))
    recordAndTell({ File: outside }, { file: false })
    recordAndTell({ File: '/etc/passwd' }, { file: false })
    // an operator's recording told after them: once it is handled (removed), so are they
    const next = recordAndTell({ Terminal: '101001', PromptLanguage: '1' })
    await eventually(async () => !existsSync(join(drafts, next)), 10_000, 'the event told after them handled')
    assert.ok(existsSync(outside))
    assert.equal((await recordings()).filter((r) => r.source?.format === 'phone').length, 1, 'only the first test\'s')
  })

  it('a recording never kept (hung up while listening back) is swept after a day; a fresh one stays', async () => {
    const abandoned = join(drafts, `org101-${prompt}-1-1700000000.1.wav16`)
    const fresh = join(drafts, `org101-${prompt}-1-1700000000.2.wav16`)
    for (const f of [abandoned, fresh]) writeFileSync(f, makeWav(16_000, pcm16(sine(16_000, 440, 1))))
    const dayAndMore = (Date.now() - 25 * 3600_000) / 1000
    utimesSync(abandoned, dayAndMore, dayAndMore)
    const name = recordAndTell()
    await eventually(async () => !existsSync(join(drafts, name)) && !existsSync(abandoned), 10_000, 'the abandoned one swept with the next recording')
    assert.ok(existsSync(fresh))
    assert.deepEqual(readdirSync(drafts), [fresh.split('/').at(-1)])
  })
})
