import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { lineCalls } from '../../src/db/schema/index.js'

// The appeal page shows the call it came from: its readers (the executor's staff among them, who may
// not read the centre's calls) get the transcript through the appeal.
describe('GET /api/appeals/{id}/transcript', () => {
  let t: TestApp
  let f: AppealFixture
  let fromCall: number
  let plain: number
  let callRowId: number

  before(async () => {
    t = await buildTestApp()
    f = await appealFixture(t.app, t.database.db)
    const answered = await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { operator_num: '101001', caller_phone: '87011234567', call_datetime: '2026-03-02T10:00:00+05:00' } })
    callRowId = answered.json().call.id as number
    const chunk = (text: string, full: string, final = false) => t.app.inject({
      method: 'POST', url: '/api/call-events/transcription', payload: { call_id: 'tr-1', operator_num: '101001', channel: final ? 'operator' : 'caller', chunk_text: text, full_text: full, is_final: final },
    })
    assert.equal((await chunk('Нет отопления', 'Нет отопления')).statusCode, 200)
    assert.equal((await chunk('Записала', 'Нет отопления. Записала', true)).statusCode, 200)
    const register = async (over: object) => {
      const res = await t.app.inject({
        method: 'POST', url: '/api/appeals', headers: f.people.operator,
        payload: { citizen: { full_name: 'Абаев Марат', phone: '+77011234567' }, source_id: f.ids.source, language: 'ru', text: 'Нет отопления', subcategory_id: f.ids.heating, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, ...over },
      })
      assert.equal(res.statusCode, 201, res.body)
      return res.json().id as number
    }
    fromCall = await register({ call_row_id: callRowId })
    plain = await register({})
  })
  after(async () => { await t.close() })

  const get = (id: number | string, headers: Record<string, string> = f.people.operator) => t.app.inject({ method: 'GET', url: `/api/appeals/${id}/transcript`, headers })

  it('answers the transcript and its chunks in order, to the centre and to the executor', async () => {
    for (const who of [f.people.operator, f.people.executorManager, f.people.admin]) {
      const res = await get(fromCall, who)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.equal(body.call_id, 'tr-1', 'the telephony id')
      assert.equal(body.call_row_id, callRowId, 'the call\'s row')
      assert.equal(body.caller_phone, '+77011234567')
      assert.equal(body.is_final, true)
      assert.equal(body.transcript, 'Нет отопления. Записала')
      assert.deepEqual(body.chunks.map((c: { seq: number, channel: string, chunk_text: string }) => [c.seq, c.channel, c.chunk_text]), [[1, 'caller', 'Нет отопления'], [2, 'operator', 'Записала']])
      assert.equal(body.line_call, null, 'a call not seen on the line')
    }
  })

  it('an appeal registered on a call of the line opens the call\'s record: queue, wait, who answered, talk', async () => {
    // the line kept the call (Asterisk's events: line-calls tests); its speech-to-text posts with the Linkedid
    await t.database.db.insert(lineCalls).values({
      linkedid: '1795557215.0', organization_id: f.centre.id, caller_number: '+77011234500', queue: 'org101-queue', joined_at: new Date('2026-03-02T05:00:00Z'), position: 1,
      answered_by: 'PJSIP/101001', answered_at: new Date('2026-03-02T05:00:03Z'), hold_seconds: 3, talk_seconds: 42, ended_by: 'caller', outcome: 'answered',
      started_at: new Date('2026-03-02T04:59:50Z'), ended_at: new Date('2026-03-02T05:00:45Z'),
    })
    const chunk = await t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: '1795557215.0', operator_num: '101001', channel: 'caller', chunk_text: 'Алло', full_text: 'Алло' } })
    assert.equal(chunk.statusCode, 200, chunk.body)
    const registered = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: f.people.operator,
      payload: { citizen: { full_name: 'Абаев Марат', phone: '+77011234500' }, source_id: f.ids.source, language: 'kk', text: 'Су жоқ', subcategory_id: f.ids.water, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, call_row_id: chunk.json().call_row_id },
    })
    assert.equal(registered.statusCode, 201, registered.body)
    for (const who of [f.people.operator, f.people.executorManager]) {
      const body = (await get(registered.json().id, who)).json()
      assert.equal(body.call_id, '1795557215.0')
      const c = body.line_call
      assert.deepEqual([c.linkedid, c.queue, c.hold_seconds, c.answered_by, c.talk_seconds, c.outcome, c.answered_at], ['1795557215.0', 'org101-queue', 3, 'PJSIP/101001', 42, 'answered', '2026-03-02T05:00:03.000Z'])
    }
  })

  it('404 for an appeal from no call, for another organization\'s staff, and for an unknown appeal; 401 without a token; 422 for a bad id', async () => {
    const none = await get(plain)
    assert.equal(none.statusCode, 404)
    assert.match(none.json().detail, /Call of the appeal/)
    assert.equal((await get(fromCall, f.people.otherManager)).statusCode, 404)
    assert.equal((await get(999_999)).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/appeals/${fromCall}/transcript` })).statusCode, 401)
    const bad = await get('abc')
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['path', 'appeal_id'])
  })
})
