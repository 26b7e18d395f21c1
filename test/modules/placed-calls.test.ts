import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { login, makeOrganization, makeTerminal, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { replayedEvents } from '../helpers/ami-recording.js'
import { assertLiveEvents, openSse } from '../helpers/sse.js'
import { dataProtectionOfficers } from '../../src/db/schema/index.js'

type Headers = Record<string, string>
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Calls placed by the centre (POST /api/calls) and supervisors listening in (POST /api/calls/spy),
// against the AMI peer: Asterisk's answers and the call's events as the real Asterisk 22 sent them
// (placed-call.txt: 101001 called +77010000002 for an appeal through the trunk, the citizen
// answered, 101008 listened in, 101001 hung up), replayed under the Linkedid the service gave.
describe('calls placed by the centre and listening in (/api/calls, replayed from Asterisk 22)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let t: TestApp
  let url: string
  let fx: AppealFixture
  let admin: Headers
  let operator: Headers
  let operatorId: number
  let mobileless: Headers
  let offline: Headers
  let supervisor: Headers
  let stranger: Headers
  let orgId: number
  let otherOrgId: number
  /** the recorded call's Linkedid, replaced by the one the service gave */
  const RECORDED = '1795954364.7000000001'

  before(async () => {
    peer = await startAmiPeer()
    t = await buildTestApp({ env: peer.env() })
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const db = t.database.db
    const org = await makeOrganization(db, { prefix: '101', name: 'Акимат района (исполнитель)' })
    orgId = org.id
    const other = await makeOrganization(db, { prefix: '102' })
    otherOrgId = other.id
    fx = await appealFixture(t.app, db)
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    const staff = await makeUser(db, { role: 'operator', organization_id: org.id })
    operatorId = staff.id
    operator = await login(t.app, staff)
    const second = await makeUser(db, { role: 'operator', organization_id: org.id })
    mobileless = await login(t.app, second)
    const third = await makeUser(db, { role: 'operator', organization_id: org.id })
    offline = await login(t.app, third)
    const boss = await makeUser(db, { role: 'manager', organization_id: org.id })
    supervisor = await login(t.app, boss)
    stranger = await login(t.app, await makeUser(db, { role: 'manager', organization_id: other.id }))
    await makeTerminal(t.app, admin, org.id, '001', staff.id)
    await makeTerminal(t.app, admin, org.id, '002', second.id)
    await makeTerminal(t.app, admin, org.id, '003', third.id)
    await makeTerminal(t.app, admin, org.id, '008', boss.id)
    await makeTerminal(t.app, admin, other.id, '001')
    for (const id of ['101001', '101003']) {
      const res = await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/endpoints/${id}`, headers: admin, payload: { allow_long_distance: true } })
      assert.equal(res.statusCode, 200, res.body)
    }
    peer.state.endpoints = ['101001', '101002', '101003', '101008', '102001']
    peer.state.contacts = ['101001', '101002', '101008', '102001'].map((endpoint) => ({ endpoint, uri: `sip:${endpoint}@127.0.0.1:5070`, userAgent: 'pjsua', status: 'Reachable', roundtripUsec: '900' }))
    await eventually(async () => peer.streaming() === 1, 10_000, 'the service streaming events')
  })
  after(async () => {
    await t.close()
    await peer.close()
  })

  const place = (payload: object, headers: Headers) => t.app.inject({ method: 'POST', url: '/api/calls', headers, payload })
  const getCall = async (id: number, headers = operator) => (await t.app.inject({ url: `/api/calls/${id}`, headers })).json()
  const originates = () => peer.state.received.filter((a) => a.Action === 'Originate')
  /** an appeal of the organization at work, its citizen at +77010000002 */
  async function appealFor (phone = '+7 701 000 00 02') {
    const res = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: admin,
      payload: {
        citizen: { full_name: 'Сейткали Нурлан', phone }, source_id: fx.ids.source, language: 'ru', text: 'Нет отопления, прошу перезвонить', subcategory_id: fx.ids.heating,
        region_id: fx.ids.region, address: 'ул. Абая, 1', response_method_id: fx.ids.methods.call, executor_organization_id: orgId,
      },
    })
    assert.equal(res.statusCode, 201, res.body)
    const id = res.json().id as number
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/appeals/${id}/take`, headers: operator })).statusCode, 200)
    return id
  }
  /** the recorded call's events under this call's Linkedid; `change` alters some of them */
  const replayCall = (linkedid: string, change: (m: Record<string, string>) => Record<string, string | undefined> = (m) => m, part: { from?: number, to?: number } = {}) =>
    peer.replay('placed-call.txt', {
      ...part, rewrite: (m) => change(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.replace(RECORDED, linkedid)]))),
    })

  it('refusals, each with its code, nothing placed: no terminal, not registered, a number the terminal may not dial, an operator\'s number of no citizen, not a number, an appeal not theirs', async () => {
    const appeal = await appealFor()
    const cases: [Headers, object, number, string | undefined][] = [
      [admin, { number: '+77010000002' }, 409, 'no_terminal'],
      [offline, { number: '+77010000002', appeal_id: appeal }, 409, 'terminal_offline'],
      [mobileless, { number: '+77010000002', appeal_id: appeal }, 403, 'not_permitted'],
      [operator, { number: '+77779998877' }, 403, 'number_not_allowed'],
      [operator, { number: '12345' }, 422, undefined],
      [operator, { number: '' }, 422, undefined],
      [admin, { number: 'позвонить' }, 422, undefined],
      [operator, { number: '+77010000002', appeal_id: 999_999 }, 404, 'not_found'],
      [stranger, { number: '+77010000002', appeal_id: appeal }, 404, 'not_found'],
    ]
    for (const [headers, payload, status, code] of cases) {
      const res = await place(payload, headers)
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`)
      if (code) assert.equal(res.json().code, code)
    }
    const bad = await place({ number: '12345' }, operator)
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'number'])
    assert.equal(originates().length, 0, 'Asterisk was asked nothing')
    assert.deepEqual(await (await t.app.inject({ url: '/api/calls', headers: operator })).json(), [])
  })

  it('placed: the operator\'s terminal rung with the citizen\'s number, then dialled in its context; each step on the console; connected, the desk\'s outbound call; ended, in the appeal\'s history; answered in it', async () => {
    const appeal = await appealFor()
    const consoleEvents = await openSse(`${url}/api/call-events/stream`, operator)
    try {
      const res = await place({ number: '8 (701) 000-00-02', appeal_id: appeal }, operator)
      assert.equal(res.statusCode, 202, res.body)
      const call = res.json()
      assert.deepEqual([call.status, call.number, call.terminal_id, call.appeal_id, call.employee_id], ['ringing_you', '+77010000002', '101001', appeal, operatorId])
      assert.match(call.call_id, /^\d+\.7\d{9}$/)
      const order = originates().at(-1)!
      assert.deepEqual(
        [order.Channel, order.Context, order.Exten, order.Priority, order.Async, order.ChannelId, order.CallerID, order.Timeout],
        ['PJSIP/101001', 'org101-internal', '87010000002', '1', 'true', call.call_id, '"+77010000002" <+77010000002>', '30000']
      )
      assert.equal(order.Variable, 'APPEALS_CALLER=101001,__APPEALS_TERMINAL=101001,__APPEALS_RECORD=1')
      // a second while the first goes on: its channel is up
      peer.state.channels = [{ uniqueid: call.call_id, linkedid: call.call_id, context: 'org101-internal', application: 'Dial' }]
      const again = await place({ number: '+77010000002', appeal_id: appeal }, operator)
      assert.deepEqual([again.statusCode, again.json().code], [409, 'call_in_progress'])

      // the talk as long as it lasts: the hang-up (its first BridgeLeave on) a second and a half after the rest
      const hangUp = replayedEvents('placed-call.txt').findIndex((e) => e.message.Event === 'BridgeLeave')
      replayCall(call.call_id, undefined, { to: hangUp })
      await eventually(async () => (await getCall(call.id)).status === 'connected', 10_000, 'connected')
      await sleep(1500)
      replayCall(call.call_id, undefined, { from: hangUp })
      const ended = await eventually(async () => { const c = await getCall(call.id); return c.status === 'ended' ? c : undefined }, 10_000, 'the call ended')
      peer.state.channels = []
      assert.deepEqual([ended.failed_side, ended.reason], [null, null])
      assert.ok(ended.talk_seconds >= 1 && ended.talk_seconds <= 30, `talked ${ended.talk_seconds} s`)
      assert.ok(ended.answered_at && ended.connected_at && ended.ended_at)
      await eventually(async () => consoleEvents.events.some((e) => e.event === 'call.placed' && (e.data.call as { status: string }).status === 'ended'), 10_000, 'told the end')
      assertLiveEvents(consoleEvents.events)
      const steps = consoleEvents.events.filter((e) => e.event === 'call.placed').map((e) => (e.data.call as { status: string }).status)
      assert.deepEqual([...new Set(steps)], ['ringing_you', 'ringing_citizen', 'connected', 'ended'])
      // the desk's call: outbound, its number the citizen's, hung up
      const records = (await t.app.inject({ url: '/api/call-events/calls?phone=%2B77010000002', headers: operator })).json()
      const record = records.find((c: { call_id: string }) => c.call_id === call.call_id)
      assert.deepEqual([record.direction, record.operator_num, record.caller_phone, record.hung_up_at !== null], ['out', '101001', '+77010000002', true])
      // the appeal's history: who called, whom (masked), the outcome and the talk
      const detail = (await t.app.inject({ url: `/api/appeals/${appeal}`, headers: operator })).json()
      const line = detail.history.find((h: { action: string }) => h.action === 'call')
      assert.deepEqual([line.actor_id, line.payload.call_id, line.payload.linkedid, line.payload.number, line.payload.status, line.payload.talk_seconds, detail.status],
        [operatorId, call.id, call.call_id, '+7701*****02', 'ended', ended.talk_seconds, 'in_work'])
      const answer = await t.app.inject({ method: 'POST', url: `/api/appeals/${appeal}/answer`, headers: operator, payload: { text: 'Сообщили по телефону: отопление дадут завтра', language: 'ru', call_id: call.id } })
      assert.equal(answer.statusCode, 200, answer.body)
      assert.equal(answer.json().answer.call_id, call.id)
    } finally {
      await consoleEvents.close()
    }
  })

  it('not connected: the operator\'s own phone unanswered or busy, the citizen busy; a call lost to a gap does not hold up the next', async () => {
    const appeal = await appealFor()
    const placeOne = async () => {
      const res = await place({ number: '+77010000002', appeal_id: appeal }, operator)
      assert.equal(res.statusCode, 202, res.body)
      return res.json() as { id: number, call_id: string }
    }
    const settled = async (id: number) => eventually(async () => { const c = await getCall(id); return ['ringing_you', 'ringing_citizen', 'connected'].includes(c.status) ? undefined : c }, 10_000, 'the call settled')
    const onlyOriginate = (reason: string) => (m: Record<string, string>) => (m.Event === 'OriginateResponse' ? { ...m, Response: 'Failure', Reason: reason } : { Event: 'Ignored' })

    let call = await placeOne()
    replayCall(call.call_id, onlyOriginate('3'))
    assert.deepEqual(await settled(call.id).then((c) => [c.status, c.failed_side, c.reason]), ['no_answer', 'you', 'NOANSWER'])

    call = await placeOne()
    replayCall(call.call_id, onlyOriginate('5'))
    assert.deepEqual(await settled(call.id).then((c) => [c.status, c.failed_side]), ['busy', 'you'])

    // the citizen's line busy: the trunk's Dial ends BUSY, the operator hangs up
    call = await placeOne()
    replayCall(call.call_id, (m) => (m.Event === 'DialEnd' && m.DialStatus === 'ANSWER' && m.Uniqueid === call.call_id ? { ...m, DialStatus: 'BUSY' } : m))
    const busy = await settled(call.id)
    assert.deepEqual([busy.status, busy.failed_side, busy.reason, busy.connected_at, busy.talk_seconds], ['busy', 'citizen', 'BUSY', null, null])

    // the appeal's history has each
    const detail = (await t.app.inject({ url: `/api/appeals/${appeal}`, headers: operator })).json()
    assert.deepEqual(detail.history.filter((h: { action: string }) => h.action === 'call').map((h: { payload: { status: string } }) => h.payload.status), ['no_answer', 'busy', 'busy'])
    const notReached = await t.app.inject({ method: 'POST', url: `/api/appeals/${appeal}/answer`, headers: operator, payload: { text: 'Ответ', language: 'ru', call_id: call.id } })
    assert.equal(notReached.statusCode, 422, notReached.body)
    assert.deepEqual([notReached.json().detail[0].loc, notReached.json().detail[0].type], [['body', 'call_id'], 'call_not_connected'])

    // a call whose events were never heard (its channel gone from Asterisk) does not hold up the next
    const lost = await placeOne()
    const next = await placeOne()
    assert.equal((await getCall(lost.id)).status, 'failed')
    assert.equal((await getCall(lost.id)).reason, 'lost')
    replayCall(next.call_id, onlyOriginate('3'))
    await settled(next.id)
  })

  it('Asterisk not answering: 503, and nothing left in progress; without AMI the same', async () => {
    const appeal = await appealFor()
    peer.state.mode = 'silent'
    try {
      const res = await place({ number: '+77010000002', appeal_id: appeal }, operator)
      assert.equal(res.statusCode, 503, res.body)
    } finally {
      peer.state.mode = 'normal'
    }
    const noAmi = await buildTestApp({ database: t.database })
    try {
      const res = await noAmi.app.inject({ method: 'POST', url: '/api/calls', headers: operator, payload: { number: '+77010000002', appeal_id: appeal } })
      assert.equal(res.statusCode, 503, res.body)
      assert.match(res.json().detail, /AMI_HOST/)
    } finally {
      await noAmi.app.close()
    }
    const live = (await (await t.app.inject({ url: '/api/calls', headers: operator })).json() as { status: string }[]).filter((c) => ['ringing_you', 'ringing_citizen', 'connected'].includes(c.status))
    assert.deepEqual(live, [])
  })

  it('who sees a call: the caller, its organization\'s manager, an admin; not another operator nor another organization', async () => {
    const [mine] = await (await t.app.inject({ url: '/api/calls?limit=1', headers: operator })).json() as { id: number }[]
    assert.ok(mine)
    for (const [headers, status] of [[operator, 200], [supervisor, 200], [admin, 200], [mobileless, 404], [stranger, 404]] as const) {
      assert.equal((await t.app.inject({ url: `/api/calls/${mine.id}`, headers })).statusCode, status)
    }
    assert.equal((await t.app.inject({ url: '/api/calls/0', headers: operator })).statusCode, 422)
    assert.equal((await t.app.inject({ url: '/api/calls?limit=500', headers: operator })).statusCode, 422)
    assert.equal((await t.app.inject({ url: '/api/calls' })).statusCode, 401)
  })

  it('listening in: the supervisor\'s terminal rung and joined to the operator\'s channel (listen, whisper, barge); audited; refused to operators, other organizations, a terminal not in a call', async () => {
    const linkedid = '1795954364.31'
    peer.state.channels = [{ uniqueid: linkedid, linkedid, context: 'org101-q2', application: 'Queue' }]
    const spy = (payload: object, headers = supervisor) => t.app.inject({ method: 'POST', url: '/api/calls/spy', headers, payload })
    const refusals: [object, Headers, number, string][] = [
      [{ terminal_id: '101001', mode: 'listen' }, operator, 403, 'role_not_allowed'],
      [{ terminal_id: '102001', mode: 'listen' }, supervisor, 404, 'not_found'],
      [{ terminal_id: '101001', mode: 'listen' }, supervisor, 409, 'not_in_call'],
      [{ terminal_id: '101008', mode: 'listen' }, supervisor, 409, 'own_terminal'],
      [{ terminal_id: '101001', mode: 'shout' }, supervisor, 422, 'validation_error'],
    ]
    for (const [payload, headers, status, code] of refusals) {
      const res = await spy(payload, headers)
      assert.deepEqual([res.statusCode, res.json().code ?? 'validation_error'], [status, code], res.body)
    }
    assert.equal(originates().filter((o) => o.Application === 'ChanSpy').length, 0)

    // the operator's leg of the call, as Asterisk names it
    peer.state.channels.push({ uniqueid: '1795954364.32', linkedid, context: 'org101-internal', application: 'AppQueue', channel: 'PJSIP/101001-0000000c' })
    const officer = await makeUser(t.database.db, { role: 'manager', organization_id: orgId })
    await t.database.db.insert(dataProtectionOfficers).values({ user_id: officer.id })
    for (const [mode, options, headers] of [['listen', 'qE', supervisor], ['whisper', 'qwE', supervisor], ['barge', 'qBE', admin]] as const) {
      // an admin has no terminal of their own: refused as such
      const res = await spy({ terminal_id: '101001', mode }, headers)
      if (headers === admin) { assert.deepEqual([res.statusCode, res.json().code], [409, 'no_terminal']); continue }
      assert.equal(res.statusCode, 202, res.body)
      assert.deepEqual(res.json(), { call_id: linkedid, terminal_id: '101008', mode })
      const order = originates().at(-1)!
      assert.deepEqual([order.Channel, order.Application, order.Data, order.Async], ['PJSIP/101008', 'ChanSpy', `PJSIP/101001-0000000c,${options}`, 'true'], 'the call\'s own channel: a listen ends with its call, never goes on to the next')
    }
    const audit = (await t.app.inject({ url: `/api/audit/personal-data?subject=line_call&subject_id=${linkedid}`, headers: await login(t.app, officer) })).json()
    assert.deepEqual(audit.items.map((r: { detail: { joined: string } }) => r.detail.joined).sort(), ['listen', 'whisper'])
    peer.state.channels = []
  })

  it('passing a call on: blind and attended orders to Asterisk for the operator\'s own channel; the refusals, each with its status and code', async () => {
    const transfer = (url: string, payload?: object, headers = operator) => t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) })
    const ordered = () => peer.state.received.filter((a) => ['BlindTransfer', 'Atxfer', 'CancelAtxfer', 'Hangup'].includes(a.Action ?? ''))
    const before = ordered().length
    const receivedBefore = peer.state.received.length
    const refusals: [object, Headers, number, string][] = [
      [{ mode: 'blind', to: 'terminal', extension: '002' }, operator, 409, 'not_in_call'],
      [{ mode: 'blind', to: 'terminal', extension: '002' }, admin, 409, 'no_terminal'],
      [{ mode: 'sideways', to: 'terminal', extension: '002' }, operator, 422, 'validation_error'],
      [{ mode: 'blind', to: 'terminal', extension: '2' }, operator, 422, 'validation_error'],
      [{ mode: 'blind', to: 'mars' }, operator, 422, 'validation_error'],
    ]
    for (const [payload, headers, status, code] of refusals) {
      const res = await transfer('/api/calls/transfer', payload, headers)
      assert.deepEqual([res.statusCode, res.json().code ?? 'validation_error'], [status, code], `${JSON.stringify(payload)}: ${res.body}`)
    }
    assert.equal((await transfer('/api/calls/transfer', { mode: 'blind', to: 'queue' }, {})).statusCode, 401)
    // the operator on a call
    const linkedid = '1795954364.41'
    peer.state.channels = [{ uniqueid: '1795954364.42', linkedid, context: 'org101-internal', application: 'AppQueue', channel: 'PJSIP/101001-0000000d' }]
    const onCall: [object, number, string | undefined][] = [
      [{ mode: 'blind', to: 'terminal' }, 422, undefined],
      [{ mode: 'blind', to: 'terminal', extension: '009' }, 404, 'not_found'],
      [{ mode: 'blind', to: 'terminal', extension: '001' }, 409, 'own_terminal'],
      [{ mode: 'blind', to: 'line' }, 422, undefined],
      [{ mode: 'blind', to: 'line', number: '5555' }, 404, 'not_found'],
    ]
    for (const [payload, status, code] of onCall) {
      const res = await transfer('/api/calls/transfer', payload)
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`)
      if (code) assert.equal(res.json().code, code)
      if (status === 422) assert.deepEqual(res.json().detail.map((d: { loc: string[] }) => d.loc), [['body', (payload as { to: string }).to === 'line' ? 'number' : 'extension']])
    }
    assert.equal(ordered().length, before, 'nothing was asked of Asterisk for a refusal')
    const blind = await transfer('/api/calls/transfer', { mode: 'blind', to: 'terminal', extension: '002' })
    assert.equal(blind.statusCode, 202, blind.body)
    assert.deepEqual(blind.json(), { call_id: linkedid, mode: 'blind', to: '002@org101-internal' })
    assert.equal((await transfer('/api/calls/transfer', { mode: 'attended', to: 'queue' })).json().to, '0@org101-internal')
    // the call's channels as CoreShowChannels lists them, each in its bridge
    const pbx = {
      caller: { uniqueid: '1795954364.41', linkedid, context: 'org101-queue', application: 'Queue', channel: 'PJSIP/trunk-00000001', bridge: 'b-call' },
      operator: (bridge: string) => ({ uniqueid: '1795954364.42', linkedid, context: 'org101-internal', application: 'AppQueue', channel: 'PJSIP/101001-0000000d', bridge }),
      consulted: { uniqueid: '1795954364.43', linkedid, context: 'org101-internal', application: 'AppDial', channel: 'Local/002@org101-internal-00000001;1', bridge: 'b-consult' },
      colleague: { uniqueid: '1795954364.44', linkedid, context: 'org101-internal', application: 'AppDial', channel: 'PJSIP/101002-0000000e', bridge: 'b-call' },
    }
    // no consultation yet (the operator talks with the caller alone): nothing to complete, join or cancel; a completion would hang the caller up
    peer.state.channels = [pbx.caller, pbx.operator('b-call')]
    for (const step of ['complete', 'cancel', 'conference']) {
      const res = await transfer(`/api/calls/transfer/${step}`)
      assert.deepEqual([res.statusCode, res.json().code], [409, 'no_transfer'], `${step}: ${res.body}`)
      assert.match(res.json().detail, /not consulting anyone/)
    }
    // consulting: Asterisk has bridged the operator with the Local channel it dialled, the caller waits in the call's bridge
    peer.state.channels = [pbx.caller, pbx.operator('b-consult'), pbx.consulted]
    const whileConsulting = await transfer('/api/calls/transfer', { mode: 'blind', to: 'queue' })
    assert.deepEqual([whileConsulting.statusCode, whileConsulting.json().code], [409, 'in_consultation'], whileConsulting.body)
    for (const step of ['conference', 'complete', 'cancel']) {
      const res = await transfer(`/api/calls/transfer/${step}`)
      assert.equal(res.statusCode, 202, `${step}: ${res.body}`)
      assert.deepEqual(res.json(), { call_id: linkedid })
    }
    // talking three (the consultation's Local channel gone, the three in the call's bridge): only leaving is left
    peer.state.channels = [pbx.caller, pbx.operator('b-call'), pbx.colleague]
    for (const step of ['conference', 'cancel']) assert.equal((await transfer(`/api/calls/transfer/${step}`)).json().code, 'no_transfer', step)
    assert.equal((await transfer('/api/calls/transfer/complete')).statusCode, 202)
    const asked = peer.state.received.slice(receivedBefore).filter((a) => ['BlindTransfer', 'Atxfer', 'CancelAtxfer', 'Hangup', 'Getvar', 'PlayDTMF'].includes(a.Action ?? ''))
    assert.deepEqual(asked.map((a) => [a.Action, a.Channel, a.Context ?? a.Variable ?? a.Digit ?? '', a.Exten ?? a.Receive ?? '']), [
      ['BlindTransfer', 'PJSIP/101001-0000000d', 'org101-internal', '002'],
      ['Atxfer', 'PJSIP/101001-0000000d', 'org101-internal', '0'],
      // the three-way: the attended transfer's threeway code, as if the operator's phone pressed it
      ['Getvar', 'PJSIP/101001-0000000d', 'FEATURE(atxferthreeway)', ''],
      ['PlayDTMF', 'PJSIP/101001-0000000d', '*', 'yes'],
      ['PlayDTMF', 'PJSIP/101001-0000000d', '3', 'yes'],
      ['Hangup', 'PJSIP/101001-0000000d', '', ''],
      ['CancelAtxfer', 'PJSIP/101001-0000000d', '', ''],
      ['Hangup', 'PJSIP/101001-0000000d', '', ''],
    ])
    // to a number outside, as the user may call it (POST /api/calls's rules): the refusals, then the
    // dialplan's permission and caller id given to the channel that will dial
    peer.state.channels = [pbx.caller, pbx.operator('b-call')]
    const sentBefore = peer.state.received.length
    for (const [payload, status, code] of [
      [{ mode: 'blind', to: 'outside' }, 422, 'missing'],
      [{ mode: 'blind', to: 'outside', number: 'диспетчер' }, 422, 'phone_number'],
      [{ mode: 'blind', to: 'outside', number: '+77779998877' }, 403, 'number_not_allowed'],
    ] as const) {
      const res = await transfer('/api/calls/transfer', payload)
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`)
      assert.equal(res.statusCode === 422 ? res.json().detail[0].type : res.json().code, code)
    }
    assert.equal(peer.state.received.slice(sentBefore).filter((a) => a.Action !== 'CoreShowChannels').length, 0, 'nothing asked of Asterisk for a refusal')
    // a number of the references: the utility's dispatcher
    const dispatcher = await t.app.inject({ method: 'POST', url: '/api/references/persons', headers: admin, payload: { full_name: 'Диспетчер водоканала', phone: '+77010000002' } })
    assert.equal(dispatcher.statusCode, 200, dispatcher.body)
    const outside = await transfer('/api/calls/transfer', { mode: 'blind', to: 'outside', number: '+7 701 000 00 02' })
    assert.equal(outside.statusCode, 202, outside.body)
    assert.equal(outside.json().to, '87010000002@org101-internal')
    assert.equal((await transfer('/api/calls/transfer', { mode: 'attended', to: 'outside', number: '87010000002' })).statusCode, 202)
    const dialling = peer.state.received.slice(sentBefore).filter((a) => ['Setvar', 'BlindTransfer', 'Atxfer'].includes(a.Action ?? ''))
    assert.deepEqual(dialling.map((a) => [a.Action, a.Channel, a.Variable ?? a.Exten, a.Value ?? a.Context]), [
      // blind: the caller's channel dials
      ['Setvar', 'PJSIP/trunk-00000001', 'ALLOW_LONG_DISTANCE', 'yes'],
      ['Setvar', 'PJSIP/trunk-00000001', 'APPEALS_CALLER', '101001'],
      ['BlindTransfer', 'PJSIP/101001-0000000d', '87010000002', 'org101-internal'],
      // attended: the operator's Local channel dials, inheriting them
      ['Setvar', 'PJSIP/101001-0000000d', '__ALLOW_LONG_DISTANCE', 'yes'],
      ['Setvar', 'PJSIP/101001-0000000d', '__APPEALS_CALLER', '101001'],
      ['Atxfer', 'PJSIP/101001-0000000d', '87010000002', 'org101-internal'],
    ])
    // a transfer the call's bridge forbids: Asterisk's refusal in its words, 409
    peer.state.refusing = ['BlindTransfer']
    const refused = await transfer('/api/calls/transfer', { mode: 'blind', to: 'terminal', extension: '002' })
    assert.deepEqual([refused.statusCode, refused.json().code], [409, 'transfer_refused'], refused.body)
    assert.match(refused.json().detail, /Transfer not permitted/)
    peer.state.refusing = []
    peer.state.channels = []
  })

  it('to one of the organization\'s queues: the form\'s list (its own first), the queue\'s own context; another organization\'s queue is not there', async () => {
    const queue = async (tenant: number, name: string) => (await t.app.inject({ method: 'POST', url: `/api/organizations/${tenant}/queues`, headers: admin, payload: { name } })).json() as { id: number }
    const [complaints, foreign] = [await queue(orgId, 'Жалобы'), await queue(otherOrgId, 'Чужая')]
    const listed = await t.app.inject({ url: '/api/calls/transfer/queues', headers: operator })
    assert.equal(listed.statusCode, 200, listed.body)
    const offered = listed.json() as { id: number, name: string, is_default: boolean }[]
    assert.deepEqual(offered.map((q) => q.is_default), [true, false], 'the organization\'s own queue first, then its others')
    assert.deepEqual(offered[1], { id: complaints.id, name: 'Жалобы', is_default: false })
    assert.ok(!offered.some((q) => q.id === foreign.id), 'not another organization\'s')
    assert.deepEqual([(await t.app.inject({ url: '/api/calls/transfer/queues', headers: admin })).json().code], ['no_terminal'])
    assert.equal((await t.app.inject({ url: '/api/calls/transfer/queues' })).statusCode, 401)

    const transfer = (payload: object) => t.app.inject({ method: 'POST', url: '/api/calls/transfer', headers: operator, payload })
    peer.state.channels = [{ uniqueid: '1795954364.52', linkedid: '1795954364.51', context: 'org101-internal', application: 'AppQueue', channel: 'PJSIP/101001-0000000f' }]
    const sent = peer.state.received.length
    for (const [payload, status] of [[{ queue_id: foreign.id }, 404], [{ queue_id: 999999 }, 404], [{ queue_id: 0 }, 422], [{ queue_id: 'жалобы' }, 422]] as const) {
      const res = await transfer({ mode: 'blind', to: 'queue', ...payload })
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`)
    }
    assert.equal(peer.state.received.slice(sent).filter((a) => a.Action === 'BlindTransfer' || a.Action === 'Atxfer').length, 0, 'nothing ordered for a refusal')
    const blind = await transfer({ mode: 'blind', to: 'queue', queue_id: complaints.id })
    assert.equal(blind.statusCode, 202, blind.body)
    assert.equal(blind.json().to, `*8${complaints.id}@org101-internal`, 'dialled as the organization\'s terminals dial it (Atxfer sends it as DTMF)')
    assert.equal((await transfer({ mode: 'attended', to: 'queue', queue_id: offered[0]!.id })).json().to, '0@org101-internal', 'the own queue as its terminals dial it')
    const ordered = peer.state.received.slice(sent).filter((a) => a.Action === 'BlindTransfer' || a.Action === 'Atxfer')
    assert.deepEqual(ordered.map((a) => [a.Action, a.Channel, a.Context, a.Exten]), [
      ['BlindTransfer', 'PJSIP/101001-0000000f', 'org101-internal', `*8${complaints.id}`],
      ['Atxfer', 'PJSIP/101001-0000000f', 'org101-internal', '0'],
    ])
    peer.state.channels = []
  })
})
