import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { callRecordings, dataProtectionOfficers, lineCalls, personalDataAccess } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { asteriskWav, haveOpusTools, tone } from '../helpers/asterisk-wav.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { login, makeTerminal, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

const LINKEDID = '1795557300.7'
const LEG = '1795557303.9'

describe('recordings heard through HTTP: who may, Range, 410, the audit', { skip: !haveOpusTools && 'opus-tools is not installed (apt-get install opus-tools)' }, () => {
  let t: TestApp
  let f: AppealFixture
  let dir: string
  let id: number
  let atTerminal: Record<string, string>
  let file: Buffer

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recordings-http-'))
    t = await buildTestApp({ env: { RECORDINGS_DIR: dir, RECORDING_SWEEP_INTERVAL: '200ms' } })
    f = await appealFixture(t.app, t.database.db)
    const operator = await makeUser(t.database.db, { role: 'operator', organization_id: f.centre.id })
    atTerminal = await login(t.app, operator)
    await makeTerminal(t.app, f.people.admin, f.centre.id, '001', operator.id)
    const terminal = `${f.centre.prefix}001`
    await t.database.db.insert(lineCalls).values({ linkedid: LINKEDID, organization_id: f.centre.id, caller_number: '+77011234500', answered_by: `PJSIP/${terminal}`, outcome: 'answered', started_at: new Date() })
    // the call's appeal, handed to the executor: its staff may hear the call
    const chunk = await t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: LINKEDID, operator_num: terminal, channel: 'caller', chunk_text: 'Алло', full_text: 'Алло' } })
    const registered = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: f.people.operator,
      payload: { citizen: { full_name: 'Абаев Марат', phone: '+77011234500' }, source_id: f.ids.source, language: 'ru', text: 'Нет воды', subcategory_id: f.ids.water, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, call_row_id: chunk.json().call_row_id },
    })
    assert.equal(registered.statusCode, 201, registered.body)
    writeFileSync(join(dir, `${LINKEDID}-${LEG}-${terminal}.wav`), asteriskWav(tone(3)))
    const row = await eventually(async () => (await t.database.db.select().from(callRecordings).where(eq(callRecordings.linkedid, LINKEDID)))[0], 30_000, 'the recording taken over')
    id = row.id
    file = readFileSync(join(dir, row.file))
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const hear = (headers: Record<string, string>, range?: string, recording: number | string = id) =>
    t.app.inject({ url: `/api/recordings/${recording}`, headers: { ...headers, ...(range ? { range } : {}) } })

  it('the call\'s legs are listed to who may hear them; the whole file is audio/ogg with a download name', async () => {
    const legs = await t.app.inject({ url: `/api/line-calls/${LINKEDID}/recordings`, headers: f.people.admin })
    assert.equal(legs.statusCode, 200, legs.body)
    assert.deepEqual(legs.json().map((r: { id: number, leg: string, format: string, seconds: number, missing: boolean, url: string }) => [r.id, r.leg, r.format, r.seconds, r.missing, r.url]), [[id, LEG, 'opus', 3, false, `/api/recordings/${id}`]])
    const whole = await hear(f.people.admin)
    assert.equal(whole.statusCode, 200)
    assert.equal(whole.headers['content-type'], 'audio/ogg')
    assert.equal(whole.headers['accept-ranges'], 'bytes')
    assert.equal(whole.headers['content-disposition'], `inline; filename="${LINKEDID}-${LEG}.ogg"`)
    assert.deepEqual(whole.rawPayload, file)
  })

  it('a Range is 206 with its bytes (first-last, first-, a suffix); one that names no byte is 416 with the size', async () => {
    const part = await hear(f.people.admin, 'bytes=10-109')
    assert.equal(part.statusCode, 206)
    assert.equal(part.headers['content-range'], `bytes 10-109/${file.length}`)
    assert.deepEqual(part.rawPayload, file.subarray(10, 110))
    assert.deepEqual((await hear(f.people.admin, 'bytes=100-')).rawPayload, file.subarray(100))
    const tail = await hear(f.people.admin, 'bytes=-50')
    assert.deepEqual([tail.statusCode, tail.rawPayload], [206, file.subarray(file.length - 50)])
    for (const range of [`bytes=${file.length}-`, 'bytes=50-10', 'bytes=0-1,5-9', 'pages=1', 'bytes=-0']) {
      const res = await hear(f.people.admin, range)
      assert.equal(res.statusCode, 416, range)
      assert.equal(res.headers['content-range'], `bytes */${file.length}`)
      assert.equal(res.json().code, 'range_not_satisfiable')
    }
  })

  it('admins, the centre\'s managers, the operator who took it, the executor\'s staff and data protection officers hear it; anyone else gets 404', async () => {
    const centreManager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: f.centre.id }))
    const dpoUser = await makeUser(t.database.db, { role: 'operator', organization_id: f.other.id })
    await t.database.db.insert(dataProtectionOfficers).values({ user_id: dpoUser.id })
    for (const [who, headers] of Object.entries({ admin: f.people.admin, centreManager, atTerminal, executorStaff: f.people.executorOperator, dpo: await login(t.app, dpoUser) })) {
      assert.equal((await hear(headers, 'bytes=0-9')).statusCode, 206, who)
    }
    for (const [who, headers] of Object.entries({ otherManager: f.people.otherManager, centreOperator: f.people.operator })) {
      assert.equal((await hear(headers)).statusCode, 404, who)
      assert.deepEqual((await t.app.inject({ url: `/api/line-calls/${LINKEDID}/recordings`, headers })).json(), [], `${who}: no hint in the list either`)
    }
    assert.equal((await hear(f.people.admin, undefined, 999999)).statusCode, 404)
    assert.equal((await hear({})).statusCode, 401)
    assert.equal((await hear(f.people.admin, undefined, 'abc')).statusCode, 422)
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/recordings/${id}`, headers: f.people.admin, payload: 'x' })).statusCode, 405, 'nothing is uploaded here')
    // the operator hears its calls for RECORDING_OPERATOR_DAYS (7) only
    await t.database.db.update(callRecordings).set({ started_at: new Date(Date.now() - 8 * 86_400_000) }).where(eq(callRecordings.id, id))
    assert.equal((await hear(atTerminal)).statusCode, 404)
    assert.equal((await hear(centreManager)).statusCode, 200)
  })

  it('every listen is an audit record naming the recording and the range', async () => {
    await hear(f.people.admin, 'bytes=0-0')
    const records = await t.database.db.select().from(personalDataAccess).where(eq(personalDataAccess.subject, 'recording'))
    assert.ok(records.some((r) => r.subject_ids.includes(String(id)) && (r.detail as { range?: string })?.range === 'bytes=0-0'), JSON.stringify(records.map((r) => r.detail)))
    assert.ok(records.some((r) => (r.detail as { range?: string })?.range === 'whole'))
  })

  it('a file removed outside the service answers 410 and the index says so', async () => {
    const [row] = await t.database.db.select().from(callRecordings).where(eq(callRecordings.id, id))
    unlinkSync(join(dir, row!.file))
    const gone = await hear(f.people.admin)
    assert.equal(gone.statusCode, 410)
    assert.equal(gone.json().code, 'recording_missing')
    const [leg] = (await t.app.inject({ url: `/api/line-calls/${LINKEDID}/recordings`, headers: f.people.admin })).json()
    assert.equal(leg.missing, true)
    assert.equal((await hear(f.people.otherManager)).statusCode, 404, 'still no hint to whoever may not hear it')
  })
})
