// The 109 line on a real Asterisk 22.10.1 (`npm run test:pbx`, DESIGN 9): the service configures it
// through its own HTTP interface, Asterisk runs the generated files, pjsua phones call and answer,
// and what the service keeps and shows is asserted against what Asterisk itself says. Without an
// Asterisk (CI) the suite says what is missing and is skipped.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createAmiClient } from '../../src/integrations/ami/client.js'
import { field } from '../../src/integrations/ami/protocol.js'
import { createMetrics } from '../../src/lib/metrics.js'
import { dataProtectionOfficers } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { appealFixture } from '../helpers/appeals.js'
import { login, makeOrganization, makeTerminal, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { openSse } from '../helpers/sse.js'
import { extensibleWav, oddChunkWav, unsizedWav } from '../helpers/wav-variants.js'
import { makeWav, readWav } from '../../src/lib/audio/index.js'
import { recordAmi, type AmiRecorder } from './ami-recorder.js'
import { pbxTools, startAsterisk, TRUNK_ADDRESS, TRUNK_PORT, type Asterisk } from './asterisk.js'
import { citizenPhone, lineUri, operatorPhone, type Phone } from './phone.js'

const tools = pbxTools()
const TIME_ZONE = 'Asia/Almaty'
const PASSWORD = 'Abcdefghij0123456789'
const AMI = { username: 'appeals', secret: 'appeals-ami-secret' }
/** the recorder's own AMI user: every class, as a lab's would be */
const RECORDER = { username: 'recorder', secret: 'recorder-secret' }
type Headers = Record<string, string>
type Call = Record<string, unknown> & { linkedid: string, outcome: string }

const tone = (rate: number, seconds: number) => Int16Array.from({ length: rate * seconds }, (_, i) => Math.round(6000 * Math.sin(2 * Math.PI * 440 * i / rate)))
const localDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
const weekend = () => ['Sat', 'Sun'].includes(new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, weekday: 'short' }).format(new Date()))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const rms = (samples: Int16Array) => Math.sqrt(samples.reduce((n, x) => n + x * x, 0) / Math.max(1, samples.length))

describe('the 109 line on a real Asterisk 22: calendar, language menu, queues, the desk, the line\'s record and figures', { skip: 'missing' in tools ? `no Asterisk to test against: set ${tools.missing}` : undefined }, () => {
  const { asteriskDir, pjsua } = tools as { asteriskDir: string, pjsua: string }
  const amiPort = 15_038 + (process.pid % 1000)
  const httpPort = 18_088 + (process.pid % 1000)
  let dir: string
  let t: TestApp
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let url: string
  let asterisk: Asterisk
  let recorder: AmiRecorder
  /** the recorders' transcripts before the current one's */
  const recorded: string[] = []
  let admin: Headers
  let operators: Headers[]
  const phones: Phone[] = []
  /** the citizen the trunk reaches: answers every call at the trunk's address */
  let publicNetwork: Phone
  /** the supervisor's phone (101008, a member of the organization's queue as every terminal is) */
  let supervisorPhone: Phone
  const consoles: Awaited<ReturnType<typeof openSse>>[] = []
  let ids: { org: number, queue: number, defaultQueue: number, menu: number, prompt: number, trunks: { network: number, refused: number, registered: number } }
  let callerPort = 5300
  const metrics = createMetrics({ processFigures: false })
  /** a figure of the service's own metrics (of one `kind`) */
  const gauge = async (name: string, kind?: string) => (await metrics.registry.getSingleMetric(name)!.get()).values.find((v) => kind === undefined || v.labels.kind === kind)?.value ?? 0
  const control = createAmiClient({ host: '127.0.0.1', port: amiPort, username: AMI.username, secret: AMI.secret, timeoutMs: 10_000 })

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, headers: Headers = admin) => {
    const res = await t.app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${res.body}`)
    return res.body === '' ? undefined : res.json()
  }
  const calls = async () => (await api('GET', '/api/line-calls?limit=100')).items as Call[]
  const callAfter = async (known: Set<string>, done: (c: Call) => boolean, what: string) =>
    eventually(async () => (await calls()).find((c) => !known.has(c.linkedid) && done(c)), 30_000, what)
  const knownCalls = async () => new Set((await calls()).map((c) => c.linkedid))

  /**
   * A citizen's call: dials the line, then `then` (DTMF, waiting, hanging up), each step marked in
   * the AMI recording. `menu(n)`: the menu has begun to play for the n-th time in this call (a digit
   * sent before it would be lost; a loaded machine takes its time to get there).
   */
  async function citizenCalls (number: string, then: (phone: Phone & { menu: (times?: number) => Promise<void> }) => Promise<void>, playing?: string) {
    const phone = citizenPhone(pjsua, '+77010000001', callerPort++, playing)
    phones.push(phone)
    const logFrom = asterisk.log().length
    recorder.mark(`citizen +77010000001 dials ${number}`)
    phone.dial(lineUri(number))
    await then({
      ...phone,
      dtmf: (digits) => { recorder.mark(`citizen presses ${digits} (RFC 4733)`); phone.dtmf(digits) },
      hangUp: () => { recorder.mark('citizen hangs up'); phone.hangUp() },
      menu: async (times = 1) => { await eventually(async () => asterisk.log().slice(logFrom).split('BackGround(').length > times, 30_000, `the menu playing (${times})`) },
    })
    await phone.close()
  }
  const confirmed = (phone: Phone) => phone.waitFor(/state changed to CONFIRMED/, 'the call answered by Asterisk')
  /** a member's pause in Asterisk itself (QueueStatus), in every queue */
  const pausesOf = async (terminal: string) => {
    const { events } = await control.list({ Action: 'QueueStatus', Member: `PJSIP/${terminal}` })
    return events.filter((e) => field(e, 'Event') === 'QueueMember').map((e) => ({ queue: field(e, 'Queue'), paused: field(e, 'Paused') === '1', reason: field(e, 'PausedReason') ?? '' }))
  }
  /** the dialplan follows the calendar: its generated context names today (or no longer does) */
  const calendarApplied = async (holds: boolean) => eventually(async () => (await asterisk.cli('dialplan show appeals-calendar')).includes(localDay()) === holds, 30_000, 'the calendar in Asterisk\'s dialplan')

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appeals-pbx-'))
    const generated = join(dir, 'generated')
    mkdirSync(generated)
    database = await createTestDatabase()
    t = await buildTestApp({
      database,
      deps: { metrics },
      env: {
        AMI_HOST: '127.0.0.1', AMI_PORT: String(amiPort), AMI_USERNAME: AMI.username, AMI_SECRET: AMI.secret, AMI_TIMEOUT: '10s',
        PBX_CONFIG_DIR: generated, PBX_ASTERISK_LOG: join(dir, 'asterisk', 'log', 'messages.log'), PBX_SOUNDS_DIR: join(dir, 'asterisk', 'var', 'sounds'), RECORDINGS_DIR: join(dir, 'recordings'), RECORDING_SWEEP_INTERVAL: '1s', TIME_ZONE, WORK_HOURS: '00:00-24:00', AGENT_RESTORE_INTERVAL: '2s',
      },
    })
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const db = database.db
    const org = await makeOrganization(db, { prefix: '101', name: 'Единый контакт-центр 109' })
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    const staff = [await makeUser(db, { role: 'operator', organization_id: org.id }), await makeUser(db, { role: 'operator', organization_id: org.id })]
    operators = [await login(t.app, staff[0]!), await login(t.app, staff[1]!)]
    await makeTerminal(t.app, admin, org.id, '001', staff[0]!.id)
    await makeTerminal(t.app, admin, org.id, '002', staff[1]!.id)
    const base = `/api/organizations/${org.id}`
    const prompt = (await api('POST', `${base}/prompts`, { name: 'Выбор языка / Тілді таңдау' })).id as number
    // as editors and recorders write them (Asterisk's format_wav would refuse or misread each as it is)
    for (const [language, file] of [['ru', extensibleWav(8000, tone(8000, 1))], ['kk', oddChunkWav(16_000, tone(16_000, 1))]] as const) {
      const res = await t.app.inject({ method: 'PUT', url: `${base}/prompts/${prompt}/recordings/${language}`, headers: { ...admin, 'content-type': 'audio/wav' }, payload: file })
      assert.equal(res.statusCode, 200, res.body)
    }
    const defaultQueue = (await api('GET', `${base}/queues`))[0].id as number
    const queue = (await api('POST', `${base}/queues`, {
      name: 'Казахская очередь', all_terminals: true, ring_timeout: 10, wrapup_time: 2, service_level: 20, max_wait: 10, overflow: { kind: 'queue', queue_id: defaultQueue },
    })).id as number
    const menu = (await api('POST', `${base}/menus`, {
      name: 'Язык / Тіл', prompt_id: prompt, timeout: 2, attempts: 2,
      options: [{ digit: '1', language: 'kk', destination: { kind: 'queue', queue_id: queue } }, { digit: '2', language: 'ru', destination: { kind: 'queue', queue_id: defaultQueue } }],
      timeout_destination: { kind: 'hangup' }, invalid_destination: { kind: 'announcement', prompt_id: prompt },
    })).id as number
    const calendar = (await api('POST', `${base}/schedules`, { name: 'Рабочее время центра', kind: 'calendar' })).id as number
    await api('POST', `${base}/lines`, { number: '109', name: 'Единый номер 109', schedule_id: calendar, destination: { kind: 'menu', menu_id: menu }, closed_destination: { kind: 'announcement', prompt_id: prompt } })
    // the public network: a trunk by address, made through the API as an administrator would (its calls
    // come from 127.0.0.2 and enter the lines; it takes calls at 127.0.0.2:5399); before it on the
    // organization's long-distance route, a provider that refuses the connection (TCP to a closed port)
    const network = (await api('POST', '/api/trunks/', { name: 'Публичная сеть', mode: 'ip', host: TRUNK_ADDRESS, port: TRUNK_PORT, caller_id: '+77172550000' })).id as number
    const refused = (await api('POST', '/api/trunks/', { name: 'Недоступный провайдер', mode: 'ip', host: '127.0.0.3', port: TRUNK_PORT, transport: 'transport-tcp' })).id as number
    await api('POST', `${base}/outbound-routes/`, { name: 'Межгород и мобильные', patterns: ['8XXXXXXXXXX'], long_distance: true, trunk_ids: [refused, network] })
    await api('PUT', `${base}/endpoints/101001`, { allow_long_distance: true })
    // a trunk by registration: with Asterisk itself as the provider's registrar, an account of another organization
    const provider = await makeOrganization(db, { prefix: '303', name: 'Провайдер (регистратор)' })
    await makeTerminal(t.app, admin, provider.id, '009')
    const registered = (await api('POST', '/api/trunks/', { name: 'Провайдер по регистрации', mode: 'registration', host: '127.0.0.1', port: 5060, username: '303009', realm: 'asterisk', password: PASSWORD })).id as number
    ids = { org: org.id, queue, defaultQueue, menu, prompt, trunks: { network, refused, registered } }
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true')
    assert.equal(generation.success, true, JSON.stringify(generation.errors))

    asterisk = await startAsterisk({ asteriskDir, generatedDir: generated, dir: join(dir, 'asterisk'), amiPort, httpPort, ami: AMI, extraAmiUsers: [RECORDER] })
    recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
    // the service's own connection for events (its backoff may have grown while Asterisk was starting): its gauge, not any AMI session of the service's
    await eventually(async () => await gauge('ami_connected') === 1, 60_000, 'the service reading Asterisk\'s events')
    for (const [i, terminal] of ['101001', '101002'].entries()) phones.push(await operatorPhone(pjsua, terminal, PASSWORD, 5201 + i))
    // the public network's side of the trunk, up from the start as a provider is: Asterisk qualifies the trunk's contact, and dials none it found unreachable
    publicNetwork = citizenPhone(pjsua, '+77010000002', TRUNK_PORT, undefined, true)
    phones.push(publicNetwork)
    // the operators' consoles: open, so their phones ring (a closed console is offline)
    for (const headers of operators) consoles.push(await openSse(`${url}/api/call-events/stream`, headers))
    // the service's control connection may be waiting out a refused attempt from before Asterisk started (503, "next attempt in 1 s")
    for (const headers of operators) {
      await eventually(async () => (await t.app.inject({ method: 'PUT', url: '/api/agents/me', headers, payload: { state: 'ready' } })).statusCode === 200, 30_000, 'the operator ready')
    }
  })

  after(async () => {
    for (const c of consoles) await c.close().catch(() => {})
    for (const p of phones) await p.close().catch(() => {})
    if (recorder) {
      recorder.close()
      // the sessions one after the other (the fixtures' format): the calls, then after the restart
      if (process.env.PBX_RECORD_AMI) writeFileSync(process.env.PBX_RECORD_AMI, [...recorded, recorder.text()].join(''), 'latin1')
    }
    control.close()
    await asterisk?.stop()
    await t?.close()
    if (!process.env.PBX_KEEP) rmSync(dir, { recursive: true, force: true })
  })

  it('closed by the working calendar: the caller hears the closed announcement; the record has the line, closed, announced', async () => {
    const day = localDay()
    // closed today: a weekday made a holiday, or a weekend day left as it is
    if (!weekend()) await api('PUT', `/api/appeals/calendar/${day}`, { kind: 'holiday', name: 'Проверка АТС' })
    await calendarApplied(!weekend())
    const known = await knownCalls()
    await citizenCalls('109', async (phone) => { await phone.waitFor(/DISCONNECTED/, 'Asterisk ending the call after its announcement', 30_000) })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the closed call kept')
    assert.deepEqual([call.line, call.closed, call.outcome, call.menu_exit, call.queue, call.caller_number], ['109', true, 'announced', null, null, '+77010000001'])
    assert.equal(call.organization_id !== null, true)
  })

  it('opened by a calendar edit; the language by DTMF; the member on a break is not rung, the ready one is; the desk pops from Asterisk alone', async () => {
    const day = localDay()
    if (weekend()) await api('PUT', `/api/appeals/calendar/${day}`, { kind: 'working', name: 'Рабочий день (проверка АТС)' })
    else await api('DELETE', `/api/appeals/calendar/${day}`)
    await calendarApplied(weekend())
    recorder.mark('operator 101001 takes a break (lunch); 101002 is ready')
    await api('PUT', '/api/agents/me', { state: 'break', reason: 'lunch' }, operators[0])
    await eventually(async () => (await pausesOf('101001')).every((p) => p.paused && p.reason === 'lunch'), 15_000, '101001 paused in Asterisk')
    const known = await knownCalls()
    const desk = consoles[1]!
    const popsBefore = desk.events.filter((e) => e.event === 'call.answered').length
    await citizenCalls('109', async (phone) => {
      await confirmed(phone)
      await phone.menu()
      phone.dtmf('1')
      await phone.waitFor(/Call 0 state changed to CONFIRMED[\s\S]*/, 'still connected')
      await eventually(async () => desk.events.filter((e) => e.event === 'call.answered').length > popsBefore, 30_000, 'the pop on 101002\'s desk')
      await sleep(2000)
      phone.hangUp()
      await phone.waitFor(/DISCONNECTED/, 'hung up')
    })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the answered call kept')
    assert.deepEqual([call.line, call.closed, call.menu_choice, call.menu_exit, call.language, call.queue, call.outcome, call.answered_by],
      ['109', false, '1', 'choice', 'kk', `org101-q${ids.queue}`, 'answered', 'PJSIP/101002'])
    assert.deepEqual((call.attempts as { interface: string }[]).map((a) => a.interface), ['PJSIP/101002'], 'the member on a break was not rung')
    assert.ok(Number(call.talk_seconds) >= 1, String(call.talk_seconds))
    const pop = desk.events.filter((e) => e.event === 'call.answered').at(-1)!
    const popped = pop.data.call as Record<string, unknown>
    assert.deepEqual([popped.call_id, popped.caller_phone, pop.data.language], [call.linkedid, '+77010000001', 'kk'])
    const connect = recorder.events.find((e) => e.fields.Event === 'AgentConnect' && e.fields.Linkedid === call.linkedid)!
    const latency = pop.at - connect.at
    process.stdout.write(`# pbx: the pop reached the desk ${latency.toFixed(1)} ms after Asterisk's AgentConnect reached the recorder\n`)
    assert.ok(latency > -1000, `the pop came before Asterisk answered? ${latency} ms`)
  })

  it('abandoned in the queue: nobody ready, the caller hangs up waiting', async () => {
    recorder.mark('operator 101002 takes a break (meeting)')
    await api('PUT', '/api/agents/me', { state: 'break', reason: 'meeting' }, operators[1])
    await eventually(async () => (await pausesOf('101002')).every((p) => p.paused), 15_000, '101002 paused in Asterisk')
    const known = await knownCalls()
    await citizenCalls('109', async (phone) => {
      await confirmed(phone)
      await phone.menu()
      phone.dtmf('2')
      await eventually(async () => (await calls()).some((c) => !known.has(c.linkedid) && c.outcome === 'waiting'), 20_000, 'waiting in the queue')
      await sleep(2500)
      phone.hangUp()
      await phone.waitFor(/DISCONNECTED/, 'hung up')
    })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the abandoned call kept')
    assert.deepEqual([call.menu_choice, call.language, call.queue, call.outcome, (call.attempts as unknown[]).length], ['2', 'ru', 'org101-queue', 'abandoned', 0])
  })

  it('timed out of the Kazakh queue, to its overflow', async () => {
    const known = await knownCalls()
    await citizenCalls('109', async (phone) => {
      await confirmed(phone)
      await phone.menu()
      phone.dtmf('1')
      // max_wait 10 s, then the overflow: the default queue
      await eventually(async () => (await calls()).some((c) => !known.has(c.linkedid) && c.queue === 'org101-queue' && c.outcome === 'waiting'), 30_000, 'in the overflow queue')
      phone.hangUp()
      await phone.waitFor(/DISCONNECTED/, 'hung up')
    })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the overflowed call kept')
    assert.deepEqual([call.menu_choice, call.language, call.queue, call.outcome], ['1', 'kk', 'org101-queue', 'abandoned'])
    assert.deepEqual((call.earlier_queues as { queue: string }[]).map((q) => q.queue), [`org101-q${ids.queue}`], 'the queue it timed out of keeps its part')
    const timedOut = recorder.events.find((e) => e.fields.Event === 'QueueCallerAbandon' && e.fields.Linkedid === call.linkedid && e.fields.Queue === `org101-q${ids.queue}`)
    assert.ok(timedOut, 'Asterisk said the Kazakh queue\'s time limit')
  })

  it('calls that never reach a queue: a hang-up in the menu, no choice, a wrong digit, a number no line owns', async () => {
    let known = await knownCalls()
    await citizenCalls('109', async (phone) => { await confirmed(phone); await phone.menu(); phone.hangUp(); await phone.waitFor(/DISCONNECTED/, 'hung up') })
    const inMenu = await callAfter(known, (c) => c.ended_at !== null, 'the hang-up in the menu kept')
    assert.deepEqual([inMenu.line, inMenu.menu_exit, inMenu.outcome, inMenu.queue], ['109', 'hangup', 'ended', null])

    known = await knownCalls()
    await citizenCalls('109', async (phone) => { await phone.waitFor(/DISCONNECTED/, 'the menu giving up (2 × 2 s) and hanging up', 30_000) })
    const noChoice = await callAfter(known, (c) => c.ended_at !== null, 'no choice kept')
    assert.deepEqual([noChoice.menu_exit, noChoice.outcome, noChoice.menu_choice], ['timeout', 'hangup', null])

    known = await knownCalls()
    // a wrong digit hears the menu again (2 attempts): a second wrong one goes to the menu's invalid destination
    await citizenCalls('109', async (phone) => { await confirmed(phone); await phone.menu(); phone.dtmf('9'); await phone.menu(2); phone.dtmf('9'); await phone.waitFor(/DISCONNECTED/, 'the wrong digit\'s announcement, then the end', 30_000) })
    const wrong = await callAfter(known, (c) => c.ended_at !== null, 'the wrong digit kept')
    assert.deepEqual([wrong.menu_exit, wrong.outcome], ['invalid', 'announced'])

    known = await knownCalls()
    await citizenCalls('5550123', async (phone) => { await phone.waitFor(/DISCONNECTED/, 'refused', 30_000) })
    const refused = await callAfter(known, (c) => c.ended_at !== null, 'the refused number kept')
    assert.deepEqual([refused.line, refused.outcome, refused.organization_id], ['5550123', 'refused', null])
  })

  it('the line\'s own figures count each path; the queues\' figures are Asterisk\'s QueueStatus', async () => {
    const kpis = await api('GET', '/api/line-calls/kpis')
    const line = kpis.lines.lines.find((l: { line: string }) => l.line === '109')
    assert.deepEqual(
      [line.calls, line.closed, line.menu_hangup, line.menu_timeout, line.menu_invalid, line.language_kk, line.language_ru, line.to_queue],
      [7, 1, 1, 1, 1, 2, 1, 3],
      JSON.stringify(line)
    )
    assert.equal(kpis.lines.lines.find((l: { line: string }) => l.line === '5550123').refused, 1)
    const { events } = await control.list({ Action: 'QueueStatus' })
    for (const params of events.filter((e) => field(e, 'Event') === 'QueueParams')) {
      const queue = kpis.queues.find((q: { queue: string }) => q.queue === field(params, 'Queue'))
      const mine = queue ?? { answered: 0, abandoned: 0, short_abandoned: 0, timed_out: 0 }
      assert.equal(mine.answered, Number(field(params, 'Completed')), `${field(params, 'Queue')}: answered = Completed`)
      assert.equal(mine.abandoned + mine.short_abandoned + mine.timed_out, Number(field(params, 'Abandoned')), `${field(params, 'Queue')}: abandoned + timed out = Abandoned`)
    }
  })

  it('a caller in the menu while the service\'s AMI connections are cut: kept on the line (CoreShowChannels), the hang-up in the menu recorded after', async () => {
    // a menu that waits long enough for the cut and the reconnection to happen inside it
    await api('PUT', `/api/organizations/${ids.org}/menus/${ids.menu}`, {
      name: 'Язык / Тіл', prompt_id: ids.prompt, timeout: 10, attempts: 2,
      options: [{ digit: '1', language: 'kk', destination: { kind: 'queue', queue_id: ids.queue } }, { digit: '2', language: 'ru', destination: { kind: 'queue', queue_id: ids.defaultQueue } }],
      timeout_destination: { kind: 'hangup' }, invalid_destination: { kind: 'announcement', prompt_id: ids.prompt },
    })
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true')
    assert.equal(generation.success, true, JSON.stringify(generation))
    /** the service's AMI sessions, by file descriptor (`manager show connected`: Username, IP, Start, Elapsed, FileDes, ...) */
    const sessions = async () => (await asterisk.cli('manager show connected')).split('\n').map((l) => l.trim().split(/\s+/)).filter((p) => p[0] === AMI.username).map((p) => p[4]!)
    const known = await knownCalls()
    await citizenCalls('109', async (phone) => {
      await confirmed(phone)
      const entered = await callAfter(known, (c) => c.outcome === 'entered' && c.menu_id !== null, 'the caller in the menu')
      recorder.send({ Action: 'CoreShowChannels', ActionID: 'probe-channels' })
      const cut = await sessions()
      const lostBefore = await gauge('failures_total', 'ami_connection')
      recorder.mark(`the service's ${cut.length} AMI sessions kicked`)
      for (const fd of cut) await asterisk.cli(`manager kick session ${fd}`)
      await eventually(async () => await gauge('failures_total', 'ami_connection') > lostBefore && await gauge('ami_connected') === 1, 30_000, 'the events connection lost, then open again')
      await sleep(1500) // its status read after the connection, milliseconds long, well over
      const during = await api('GET', `/api/line-calls/${entered.linkedid}`)
      assert.deepEqual([during.outcome, during.ended_at], ['entered', null], 'still on the line after the gap')
      phone.hangUp()
      await phone.waitFor(/DISCONNECTED/, 'hung up')
    })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the call ended after the gap')
    assert.deepEqual([call.line, call.outcome, call.menu_exit], ['109', 'ended', 'hangup'])
  })

  it('breaks put back after Asterisk restarts; a closed console is offline', async () => {
    recorder.close()
    recorded.push(recorder.text())
    await asterisk.restart()
    recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
    await eventually(async () => {
      const pauses = [...await pausesOf('101001'), ...await pausesOf('101002')]
      return pauses.length > 0 && pauses.every((p) => p.paused && ['lunch', 'meeting'].includes(p.reason))
    }, 60_000, 'the breaks back in Asterisk after its restart')
    assert.deepEqual((await pausesOf('101001')).map((p) => p.reason), ['lunch', 'lunch'])
    await api('PUT', '/api/agents/me', { state: 'ready' }, operators[1])
    await eventually(async () => (await pausesOf('101002')).every((p) => !p.paused), 15_000, '101002 ready')
    await consoles[1]!.close()
    await eventually(async () => (await pausesOf('101002')).every((p) => p.paused && p.reason === 'offline'), 30_000, '101002 offline once its console closed')
  })

  it('every prompt played, in the caller\'s language, without a warning from Asterisk', () => {
    const log = asterisk.log()
    assert.match(log, /Playing 'appeals\/org101\/\d+\.\w+' \(language 'ru'\)/, 'the closed announcement and the menu in Russian')
    const warnings = log.split('\n').filter((l) => /WARNING|ERROR/.test(l) && /file|format|wav|appeals\//i.test(l))
    assert.deepEqual(warnings, [])
  })

  it('a WAV as editors write it (WAVE_FORMAT_EXTENSIBLE, data size 0xFFFFFFFF, an odd chunk) Asterisk refuses; as the service keeps it, Asterisk reads it', async () => {
    const base = `/api/organizations/${ids.org}`
    const prompt = (await api('POST', `${base}/prompts`, { name: 'Проверка форматов' })).id as number
    const samples = tone(8000, 1)
    for (const [what, file] of [['extensible', extensibleWav(8000, samples)], ['unsized', unsizedWav(8000, samples)], ['odd chunk', oddChunkWav(8000, samples)]] as const) {
      const asUploaded = join(dir, `uploaded-${what.replace(' ', '-')}.wav`)
      writeFileSync(asUploaded, file)
      assert.match(await asterisk.cli(`file convert ${asUploaded} ${asUploaded}.sln`), /failed|Unable/, `${what}: Asterisk refuses the file as uploaded`)
      const res = await t.app.inject({ method: 'PUT', url: `${base}/prompts/${prompt}/recordings/ru`, headers: { ...admin, 'content-type': 'audio/wav' }, payload: file })
      assert.equal(res.statusCode, 200, res.body)
      const kept = join(dir, `kept-${what.replace(' ', '-')}.wav`)
      writeFileSync(kept, (await t.app.inject({ url: `${base}/prompts/${prompt}/recordings/ru`, headers: admin })).rawPayload)
      assert.match(await asterisk.cli(`file convert ${kept} ${kept}.sln`), /Converted/, `${what}: Asterisk reads the file as kept`)
    }
  })

  it('a call recorded from the operator\'s answer: fetched by Range, its length and sound what was said; the caller scores it 4 after the operator hangs up', async () => {
    const base = `/api/organizations/${ids.org}`
    await api('PUT', `${base}/queues/${ids.queue}`, { rating_prompt_id: ids.prompt, rating_timeout: 6 })
    const line = (await api('GET', `${base}/lines`))[0] as { id: number, recording: string }
    assert.equal(line.recording, 'always')
    await api('PUT', `${base}/lines/${line.id}`, { recording_prompt_id: ids.prompt })
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true')
    assert.equal(generation.success, true, JSON.stringify(generation))
    await eventually(async () => (await asterisk.cli(`dialplan show s@org101-q${ids.queue}`)).includes('Read(APPEALS_RATING'), 30_000, 'the rating menu in Asterisk\'s dialplan')
    await api('PUT', '/api/agents/me', { state: 'ready' }, operators[0])
    await eventually(async () => (await pausesOf('101001')).every((p) => !p.paused), 15_000, '101001 ready')

    // what the citizen says: a steady 440 Hz tone, looped for the whole call
    const said = tone(8000, 2)
    const playing = join(dir, 'citizen-says.wav')
    writeFileSync(playing, makeWav(8000, said))
    const saidRms = rms(said)
    // the rated call on a recorder of its own: the fixture the CI replays (queue-rated.txt)
    recorder.close()
    recorded.push(recorder.text())
    recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
    const known = await knownCalls()
    const operator = phones[0]!
    const operatorFrom = operator.output().length
    await citizenCalls('109', async (phone) => {
      await confirmed(phone)
      await phone.menu() // after the recording notice
      phone.dtmf('1')
      await operator.waitFor(/state changed to CONFIRMED/, '101001 answering', 30_000, operatorFrom)
      await sleep(4000)
      recorder.mark('operator 101001 hangs up')
      operator.hangUp()
      await sleep(2000) // the rating prompt
      phone.dtmf('4')
      await phone.waitFor(/DISCONNECTED/, 'Asterisk ending the call after the score', 30_000)
    }, playing)
    if (process.env.PBX_RECORD_RATED) writeFileSync(process.env.PBX_RECORD_RATED, recorder.text(), 'latin1')

    const call = await callAfter(known, (c) => c.ended_at !== null, 'the rated call kept')
    assert.deepEqual([call.outcome, call.answered_by, call.ended_by, call.rating], ['answered', 'PJSIP/101001', 'agent', 4])
    const kpis = await api('GET', '/api/line-calls/kpis')
    const queue = kpis.queues.find((q: { queue: string }) => q.queue === `org101-q${ids.queue}`)
    assert.deepEqual([queue.ratings, queue.average_rating], [1, 4], JSON.stringify(queue))
    const agent = kpis.operators.find((o: { interface: string }) => o.interface === 'PJSIP/101001')
    assert.deepEqual([agent.ratings, agent.average_rating], [1, 4])

    // the leg, taken over and compressed
    const legs = await eventually(async () => {
      const found = await api('GET', `/api/line-calls/${call.linkedid}/recordings`) as Array<{ id: number, terminal: string, format: string, seconds: number, bytes: number }>
      return found.length > 0 && found.every((l) => l.format === 'opus') ? found : undefined
    }, 60_000, 'the recording taken over')
    assert.equal(legs.length, 1, JSON.stringify(legs))
    const leg = legs[0]!
    assert.equal(leg.terminal, '101001')
    const connect = recorder.events.find((e) => e.fields.Event === 'AgentConnect' && e.fields.Linkedid === call.linkedid)!
    const agentGone = recorder.events.find((e) => e.fields.Event === 'Hangup' && e.fields.Linkedid === call.linkedid && e.fields.Channel?.startsWith('PJSIP/101001-'))!
    const talked = (agentGone.at - connect.at) / 1000
    assert.ok(Math.abs(leg.seconds - talked) < 1.5, `recorded ${leg.seconds} s of a ${talked.toFixed(1)} s talk`)

    // fetched in two Range requests, decoded: as long as the talk, as loud as what was said
    const part = async (range: string) => {
      const res = await t.app.inject({ url: `/api/recordings/${leg.id}`, headers: { ...operators[0]!, range } })
      assert.equal(res.statusCode, 206, `${range}: ${res.statusCode} ${res.body.slice(0, 200)}`)
      assert.equal(res.headers['content-type'], 'audio/ogg')
      return res
    }
    const head = await part('bytes=0-1023')
    assert.equal(head.headers['content-range'], `bytes 0-1023/${leg.bytes}`)
    const tail = await part('bytes=1024-')
    const ogg = join(dir, 'fetched.opus')
    writeFileSync(ogg, Buffer.concat([head.rawPayload, tail.rawPayload]))
    execFileSync('opusdec', ['--quiet', '--rate', '8000', ogg, `${ogg}.wav`])
    const decoded = readFileSync(`${ogg}.wav`)
    const samples = new Int16Array(decoded.buffer.slice(decoded.byteOffset + 44, decoded.byteOffset + decoded.length - ((decoded.length - 44) % 2)))
    assert.ok(Math.abs(samples.length / 8000 - leg.seconds) < 0.2, `decoded ${samples.length / 8000} s, indexed ${leg.seconds} s`)
    // the middle of the talk (its first and last half second may hold the path's start and end)
    const middle = samples.subarray(4000, samples.length - 4000)
    const heard = rms(middle)
    assert.ok(heard > 0.6 * saidRms && heard < 1.4 * saidRms, `the recording's RMS ${heard.toFixed(0)} against the ${saidRms.toFixed(0)} said`)
    process.stdout.write(`# pbx: recorded ${leg.seconds} s of a ${talked.toFixed(1)} s talk in ${leg.bytes} bytes; RMS ${heard.toFixed(0)} of ${saidRms.toFixed(0)} said\n`)

    // another organization's operator: no hint it exists; the listen above is in the audit
    const other = await makeOrganization(database.db, { prefix: '102', name: 'Другая организация' })
    const stranger = await login(t.app, await makeUser(database.db, { role: 'operator', organization_id: other.id }))
    assert.equal((await t.app.inject({ url: `/api/recordings/${leg.id}`, headers: stranger })).statusCode, 404)
    const listed = await t.app.inject({ url: `/api/line-calls/${call.linkedid}/recordings`, headers: stranger })
    assert.deepEqual([listed.statusCode, listed.json()], [200, []])
    const officer = await makeUser(database.db, { role: 'manager', organization_id: ids.org })
    await database.db.insert(dataProtectionOfficers).values({ user_id: officer.id })
    const audit = await api('GET', `/api/audit/personal-data?subject=recording&subject_id=${leg.id}`, undefined, await login(t.app, officer))
    // the listing of the call's legs, and each part heard
    assert.deepEqual(audit.items.map((r: { detail: { range?: string } | null }) => r.detail?.range).filter(Boolean).sort(), ['bytes=0-1023', 'bytes=1024-'])
  })

  it('the trunks made through the API: the line\'s calls came in by one; a terminal\'s long-distance call goes out by the route, past the refusing trunk, to the citizen with the trunk\'s caller id; the registration is Asterisk\'s', async () => {
    const status = await eventually(async () => {
      const found = await api('GET', '/api/trunks/status')
      return found.trunks.find((x: { id: number }) => x.id === ids.trunks.registered)?.registration === 'Registered' ? found : undefined
    }, 60_000, 'the trunk registered')
    assert.equal(status.ami_connected, true)
    for (const trunk of status.trunks) assert.equal(trunk.in_asterisk, true, JSON.stringify(trunk))
    assert.equal(status.trunks.find((x: { id: number }) => x.id === ids.trunks.network).registration, null, 'an IP trunk does not register')
    assert.match(await asterisk.cli('pjsip show contacts'), /303009\/sip:303009@/, 'the trunk\'s registration is the account\'s contact at the registrar')

    const citizen = publicNetwork
    const operator = phones[0]!
    const from = operator.output().length
    const logFrom = asterisk.log().length
    recorder.mark('operator 101001 dials 87010000002')
    operator.dial('sip:87010000002@127.0.0.1:5060')
    await citizen.waitFor(/state changed to CONFIRMED/, 'the citizen answering the operator\'s call')
    await operator.waitFor(/state changed to CONFIRMED/, '101001 connected to the citizen', 20_000, from)
    const heard = citizen.output()
    assert.match(heard, /INVITE sip:\+77010000002@127\.0\.0\.2:5399 SIP\/2\.0/, 'the number in the trunk\'s format (E.164)')
    assert.match(heard, /From: <sip:\+77172550000@/, 'the trunk\'s caller id')
    const log = asterisk.log().slice(logFrom)
    const tried = [...log.matchAll(/Dial\("PJSIP\/101001-[^"]+", "PJSIP\/[^@]+@(trunk\d+)/g)].map((m) => m[1])
    assert.deepEqual(tried, [`trunk${ids.trunks.refused}`, `trunk${ids.trunks.network}`], 'the refusing trunk first, then the next')
    recorder.mark('operator 101001 hangs up')
    operator.hangUp()
    await citizen.waitFor(/DISCONNECTED/, 'the citizen\'s call ended')
    if (process.env.PBX_RECORD_TRUNKS) {
      // one after the other, so that each answer follows its action in the fixture (trunks.txt)
      recorder.send({ Action: 'PJSIPShowRegistrationsOutbound', ActionID: 'trunks-1' })
      await sleep(1000)
      recorder.send({ Action: 'PJSIPShowEndpoints', ActionID: 'trunks-2' })
      await sleep(1000)
      writeFileSync(process.env.PBX_RECORD_TRUNKS, recorder.text(), 'latin1')
    }
  })

  it('click-to-call from an appeal: the operator\'s phone rings, then the citizen\'s through the trunk; connected, recorded, in the appeal\'s history, answered with it; a supervisor listens in; the refusals through HTTP', async () => {
    const base = `/api/organizations/${ids.org}`
    const appeals = await appealFixture(t.app, database.db)
    const executorOperator = operators[0]!
    const appeal = await api('POST', '/api/appeals', {
      citizen: { full_name: 'Сейткали Нурлан', phone: '+7 701 000 00 02' }, source_id: appeals.ids.source, language: 'ru', text: 'Нет отопления, прошу перезвонить',
      subcategory_id: appeals.ids.heating, region_id: appeals.ids.region, address: 'ул. Абая, 1', response_method_id: appeals.ids.methods.call, executor_organization_id: ids.org,
    })
    await api('POST', `/api/appeals/${appeal.id}/take`, undefined, executorOperator)
    // the supervisor's terminal and phone: in Asterisk after a generation
    const manager = await makeUser(database.db, { role: 'manager', organization_id: ids.org })
    const supervisor = await login(t.app, manager)
    await makeTerminal(t.app, admin, ids.org, '008', manager.id)
    const offlineOperator = await makeUser(database.db, { role: 'operator', organization_id: ids.org })
    await makeTerminal(t.app, admin, ids.org, '007', offlineOperator.id)
    await api('PUT', `${base}/endpoints/101007`, { allow_long_distance: true })
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true')
    assert.equal(generation.success, true, JSON.stringify(generation))
    await eventually(async () => (await asterisk.cli('pjsip show endpoints')).includes('101008'), 30_000, 'the supervisor\'s terminal in Asterisk')
    // the supervisor says a word when it answers, then nothing: its phone (VAD) sends no frames in silence
    const greeting = join(dir, 'supervisor-says.wav')
    writeFileSync(greeting, makeWav(8000, tone(8000, 1)))
    supervisorPhone = await operatorPhone(pjsua, '101008', PASSWORD, 5208, greeting, { vad: true, once: true })
    phones.push(supervisorPhone)
    if (process.env.PBX_RECORD_PLACED) {
      recorder.close()
      recorded.push(recorder.text())
      recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
      // the answers the AMI peer gives: a registered terminal, one Asterisk has but no phone registered, one it has not
      for (const [i, endpoint] of ['101001', '101007', '101999'].entries()) {
        recorder.send({ Action: 'PJSIPShowEndpoint', Endpoint: endpoint, ActionID: `placed-${i + 1}` })
        await sleep(500)
      }
    }
    const place = (payload: object, headers: Headers) => t.app.inject({ method: 'POST', url: '/api/calls', headers, payload })

    // refused, each said in words: no terminal, an unregistered one, a number the terminal may not dial, not a number
    const refusals = [
      [await place({ number: '+77010000002' }, admin), 409, 'no_terminal'],
      [await place({ number: '+77010000002', appeal_id: appeal.id }, await login(t.app, offlineOperator)), 409, 'terminal_offline'],
      [await place({ number: '+77010000002' }, supervisor), 403, 'not_permitted'],
      [await place({ number: 'позвонить' }, executorOperator), 422, undefined],
      [await place({ number: '+77770001122' }, executorOperator), 403, 'number_not_allowed'],
    ] as const
    for (const [res, status, code] of refusals) {
      assert.equal(res.statusCode, status, res.body)
      if (code) assert.equal(res.json().code, code, res.body)
    }

    const citizen = publicNetwork
    const operator = phones[0]!
    const from = operator.output().length
    const citizenFrom = citizen.output().length
    const desk = consoles[0]!
    const told = desk.events.length
    recorder.mark(`operator 101001 calls +77010000002 for appeal ${appeal.id}`)
    const placed = await place({ number: '8 701 000 00 02', appeal_id: appeal.id }, executorOperator)
    assert.equal(placed.statusCode, 202, placed.body)
    const call = placed.json()
    assert.deepEqual([call.status, call.number, call.terminal_id, call.appeal_id], ['ringing_you', '+77010000002', '101001', appeal.id])
    const again = await place({ number: '+77010000002', appeal_id: appeal.id }, executorOperator)
    assert.deepEqual([again.statusCode, again.json().code], [409, 'call_in_progress'])
    await operator.waitFor(/state changed to CONFIRMED/, '101001 answering its own phone', 20_000, from)
    await citizen.waitFor(/state changed to CONFIRMED/, 'the citizen answering', 30_000, citizenFrom)
    const heard = citizen.output().slice(citizenFrom)
    assert.match(heard, /INVITE sip:\+77010000002@127\.0\.0\.2:5399 SIP\/2\.0/, 'the number in the trunk\'s format, through the route')
    assert.match(heard, /From: <sip:\+77172550000@/, 'the trunk\'s caller id, not the citizen\'s own number')
    const connected = await eventually(async () => {
      const now = await api('GET', `/api/calls/${call.id}`, undefined, executorOperator)
      return now.status === 'connected' ? now : undefined
    }, 20_000, 'connected')
    assert.ok(connected.answered_at !== null && connected.connected_at !== null)

    // the supervisor listens in on 101001's call
    const supervisorFrom = supervisorPhone.output().length
    const logFrom = asterisk.log().length
    recorder.mark('supervisor 101008 listens in on 101001')
    const spy = await t.app.inject({ method: 'POST', url: '/api/calls/spy', headers: supervisor, payload: { terminal_id: '101001', mode: 'listen' } })
    assert.equal(spy.statusCode, 202, spy.body)
    assert.deepEqual(spy.json(), { call_id: call.call_id, terminal_id: '101008', mode: 'listen' })
    await supervisorPhone.waitFor(/state changed to CONFIRMED/, '101008 answering', 20_000, supervisorFrom)
    await eventually(async () => /Attaching spy channel PJSIP\/101008-\w+ to PJSIP\/101001-/.test(asterisk.log().slice(logFrom)), 20_000, 'ChanSpy joining 101008 to 101001\'s call')
    const notInCall = await t.app.inject({ method: 'POST', url: '/api/calls/spy', headers: supervisor, payload: { terminal_id: '101002', mode: 'whisper' } })
    assert.deepEqual([notInCall.statusCode, notInCall.json().code], [409, 'not_in_call'])
    const stranger = await login(t.app, await makeUser(database.db, { role: 'operator', organization_id: ids.org }))
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/calls/spy', headers: stranger, payload: { terminal_id: '101001', mode: 'listen' } })).statusCode, 403)

    await sleep(3000)
    recorder.mark('operator 101001 hangs up')
    operator.hangUp()
    await citizen.waitFor(/DISCONNECTED/, 'the citizen\'s call ended', 20_000, citizenFrom)
    await supervisorPhone.waitFor(/DISCONNECTED/, 'the listener\'s call ended with it', 20_000, supervisorFrom)
    assert.match(asterisk.log().slice(logFrom), /Stopped spying due to the spied-on channel hanging up/)
    const ended = await eventually(async () => {
      const now = await api('GET', `/api/calls/${call.id}`, undefined, executorOperator)
      return now.status === 'ended' ? now : undefined
    }, 20_000, 'ended')
    assert.ok(ended.talk_seconds >= 2 && ended.talk_seconds <= 10, `talked ${ended.talk_seconds} s`)
    if (process.env.PBX_RECORD_PLACED) writeFileSync(process.env.PBX_RECORD_PLACED, recorder.text(), 'latin1')
    // the console was told each step
    await eventually(async () => desk.events.slice(told).some((e) => e.event === 'call.placed' && (e.data.call as { status: string }).status === 'ended'), 10_000, 'the end on the console')
    const steps = desk.events.slice(told).filter((e) => e.event === 'call.placed').map((e) => (e.data.call as { status: string }).status)
    assert.deepEqual([...new Set(steps)], ['ringing_you', 'ringing_citizen', 'connected', 'ended'])

    // the appeal's history, and the answer given in the call
    const history = (await api('GET', `/api/appeals/${appeal.id}`, undefined, executorOperator)).history as { action: string, payload: Record<string, unknown> }[]
    const line = history.find((h) => h.action === 'call')!
    assert.deepEqual([line.payload.call_id, line.payload.status, line.payload.number, line.payload.talk_seconds], [call.id, 'ended', '+7701*****02', ended.talk_seconds])
    const answered = await api('POST', `/api/appeals/${appeal.id}/answer`, { text: 'Отопление восстановлено, сообщили по телефону', language: 'ru', call_id: call.id }, executorOperator)
    assert.equal(answered.answer.call_id, call.id)
    // the call's record is the desk's, outbound; its recording is the operator's leg
    const records = await api('GET', '/api/call-events/calls?phone=%2B77010000002', undefined, executorOperator)
    const record = records.find((c: { call_id: string }) => c.call_id === call.call_id)
    assert.deepEqual([record.direction, record.operator_num, record.hung_up_at !== null], ['out', '101001', true])
    const legs = await eventually(async () => {
      const found = await api('GET', `/api/line-calls/${call.call_id}/recordings`, undefined, executorOperator) as Array<{ terminal: string, seconds: number, format: string }>
      return found.length > 0 && found.every((l) => l.format === 'opus') ? found : undefined
    }, 60_000, 'the placed call\'s recording taken over')
    assert.equal(legs[0]!.terminal, '101001')
    assert.ok(Math.abs(legs[0]!.seconds - ended.talk_seconds) < 2, `recorded ${legs[0]!.seconds} s of ${ended.talk_seconds} s`)
    process.stdout.write(`# pbx: placed call talked ${ended.talk_seconds} s, recorded ${legs[0]!.seconds} s\n`)
  })

  it('a callback instead of waiting: a long-waiting caller hears the offer, presses 1 and hangs up; an operator becomes ready: their phone, then the citizen\'s, ring and talk', async () => {
    const base = `/api/organizations/${ids.org}`
    await api('PUT', `${base}/queues/${ids.defaultQueue}`, { callback_offer_after: 10, callback_prompt_id: ids.prompt, callback_retries: 1, callback_retry_interval: 30 })
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true')
    assert.equal(generation.success, true, JSON.stringify(generation))
    await eventually(async () => (await asterisk.cli('dialplan show org101-queue-callback')).includes('AppealsCall'), 30_000, 'the callback context in Asterisk')
    assert.match(await asterisk.cli('queue show org101-queue'), /org101-queue/)
    // nobody to answer: the supervisor's phone (a member too) put down, 101001 on a break
    await supervisorPhone.close()
    await eventually(async () => /Unavailable/.test(await asterisk.cli('pjsip show endpoint 101008')), 15_000, '101008 unregistered')
    recorder.mark('operator 101001 takes a break (lunch)')
    await api('PUT', '/api/agents/me', { state: 'break', reason: 'lunch' }, operators[0])
    await eventually(async () => (await pausesOf('101001')).every((p) => p.paused), 15_000, '101001 paused')
    if (process.env.PBX_RECORD_CALLBACK) {
      recorder.close()
      recorded.push(recorder.text())
      recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
    }
    const known = await knownCalls()
    const logFrom = asterisk.log().length
    await citizenCalls('109', async (phone) => {
      await confirmed(phone)
      await phone.menu()
      phone.dtmf('2')
      await eventually(async () => (await calls()).some((c) => !known.has(c.linkedid) && c.outcome === 'waiting'), 20_000, 'waiting in the queue')
      // the offer after 10 s of waiting, in the caller's language
      await eventually(async () => new RegExp(`Playing 'appeals/org101/${ids.prompt}\\.`).test(asterisk.log().slice(logFrom).split('Queue(')[1] ?? ''), 30_000, 'the callback offer played')
      phone.dtmf('1')
      await phone.waitFor(/DISCONNECTED/, 'the call ended by the dialplan after the digit', 20_000)
    })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the call that asked for a callback')
    assert.deepEqual([call.queue, call.outcome], ['org101-queue', 'callback'])
    const board = await eventually(async () => {
      const now = await api('GET', '/api/line-calls/board')
      return now.callbacks.some((c: { status: string }) => c.status === 'waiting') ? now : undefined
    }, 10_000, 'the request on the board')
    const request = board.callbacks.find((c: { status: string }) => c.status === 'waiting')
    assert.deepEqual([request.queue, request.number, request.line, request.attempts], ['org101-queue', '+77010000001', '109', 0])
    assert.ok(Date.parse(request.joined_at) < Date.parse(request.requested_at) - 9000, 'its place is when the caller joined the queue')

    // the operator becomes ready: the callback is placed, their phone rings, then the citizen's
    const citizen = publicNetwork
    const citizenFrom = citizen.output().length
    const operator = phones[0]!
    const from = operator.output().length
    const desk = consoles[0]!
    const told = desk.events.length
    recorder.mark('operator 101001 is ready')
    const readyAt = Date.now()
    await api('PUT', '/api/agents/me', { state: 'ready' }, operators[0])
    await operator.waitFor(/state changed to CONFIRMED/, '101001 answering the callback', 20_000, from)
    const rangAfter = Date.now() - readyAt
    await citizen.waitFor(/state changed to CONFIRMED/, 'the citizen answering the callback', 30_000, citizenFrom)
    assert.match(citizen.output().slice(citizenFrom), /INVITE sip:\+77010000001@127\.0\.0\.2:5399 SIP\/2\.0/, 'the caller\'s own number')
    const reached = await eventually(async () => {
      const now = await api('GET', '/api/line-calls/board')
      return now.callbacks.length === 0 ? now : undefined
    }, 20_000, 'the request reached (off the board)')
    assert.deepEqual(reached.callbacks, [])
    const pop = desk.events.slice(told).find((e) => e.event === 'call.answered')
    assert.equal((pop?.data.call as { caller_phone: string, direction: string } | undefined)?.caller_phone, '+77010000001', 'the desk pops whom to call back')
    const placed = () => desk.events.slice(told).filter((e) => e.event === 'call.placed').map((e) => e.data.call as { kind: string, status: string })
    await eventually(async () => placed().some((c) => c.kind === 'callback' && c.status === 'connected'), 10_000, 'the callback connected on the operator\'s console')
    process.stdout.write(`# pbx: the callback rang the operator's phone ${rangAfter} ms after they became ready\n`)
    await sleep(2000)
    recorder.mark('operator 101001 hangs up')
    operator.hangUp()
    await citizen.waitFor(/DISCONNECTED/, 'the callback ended', 20_000, citizenFrom)
    const kpis = await eventually(async () => {
      const now = await api('GET', '/api/line-calls/kpis')
      return now.callbacks.reached === 1 ? now : undefined
    }, 10_000, 'the callback in the figures')
    assert.deepEqual([kpis.callbacks.requested, kpis.callbacks.placed, kpis.callbacks.failed], [1, 1, 0])
    assert.ok(kpis.callbacks.mean_seconds_to_reach >= 1)
    if (process.env.PBX_RECORD_CALLBACK) writeFileSync(process.env.PBX_RECORD_CALLBACK, recorder.text(), 'latin1')
  })

  it('closed at the switch: the next call hears the switch\'s announcement, with no reload; opened, the next reaches the menu', async () => {
    const base = `/api/organizations/${ids.org}`
    const line = (await api('GET', `${base}/lines`))[0] as { id: number }
    const reloadsBefore = (asterisk.log().match(/Reloading|dialplan reload/g) ?? []).length
    const closed = await api('POST', `${base}/lines/${line.id}/close`, { reason: 'Авария', prompt_id: ids.prompt })
    assert.equal(closed.closed, true)
    assert.match(await asterisk.cli('database show appeals-closed'), new RegExp(`/appeals-closed/109\\s*: 4102444800:appeals/org101/${ids.prompt}`))
    let known = await knownCalls()
    const logFrom = asterisk.log().length
    await citizenCalls('109', async (phone) => { await phone.waitFor(/DISCONNECTED/, 'the switch\'s announcement, then the end', 30_000) })
    const switched = await callAfter(known, (c) => c.ended_at !== null, 'the call to the switched line kept')
    assert.deepEqual([switched.line, switched.closed, switched.outcome, switched.menu_exit], ['109', true, 'announced', null])
    const log = asterisk.log().slice(logFrom)
    assert.match(log, new RegExp(`Playback\\("PJSIP/trunk\\d+-[^"]+", "appeals/org101/${ids.prompt}"\\)`), 'the switch\'s announcement played')
    assert.doesNotMatch(log, /BackGround/, 'the menu not reached')
    assert.equal((asterisk.log().match(/Reloading|dialplan reload/g) ?? []).length, reloadsBefore, 'no reload')

    await api('POST', `${base}/lines/${line.id}/open`)
    known = await knownCalls()
    await citizenCalls('109', async (phone) => { await confirmed(phone); await phone.menu(); phone.hangUp(); await phone.waitFor(/DISCONNECTED/, 'hung up') })
    const reopened = await callAfter(known, (c) => c.ended_at !== null, 'the call to the reopened line kept')
    assert.deepEqual([reopened.closed, reopened.menu_exit], [false, 'hangup'], 'the menu reached')
    const history = await api('GET', `${base}/lines/${line.id}/switches`)
    assert.deepEqual(history.map((h: { action: string }) => h.action), ['open', 'close'])
    // opened again, and a line edited (its dialplan reloaded, the switches put back): Asterisk's log has no WARNING of the service's doing
    await api('POST', `${base}/lines/${line.id}/open`)
    await api('PUT', `${base}/lines/${line.id}`, { name: 'Единый номер 109' })
    await eventually(async () => (await api('GET', '/api/pbx/apply-state')).state === 'applied', 30_000, 'the edit applied')
    assert.deepEqual(asterisk.log().split('\n').filter((l) => /WARNING.*AstDB|WARNING.*db\.c/.test(l)), [], 'no key deleted that Asterisk does not have')
  })

  it('a phone set up dials the echo test its settings name, and Asterisk answers it with its own sound', async () => {
    const settings = await api('GET', `/api/organizations/${ids.org}/endpoints/phone-settings`)
    const phone = phones[1]!
    const from = phone.output().length
    const logFrom = asterisk.log().length
    phone.dial(`sip:${settings.echo_test}@127.0.0.1:5060`)
    await phone.waitFor(/state changed to CONFIRMED/, '101002 in the echo test', 20_000, from)
    await eventually(async () => /Echo\("PJSIP\/101002-/.test(asterisk.log().slice(logFrom)), 10_000, 'Asterisk echoing')
    phone.hangUp()
    await phone.waitFor(/DISCONNECTED/, 'the echo test ended', 20_000, from)
  })
  it('a prompt recorded by phone: the manager\'s terminal dials *77*<prompt>*2, speaks after the tone, ends with #, hears it back, keeps it with 1; it is the prompt\'s Kazakh recording and the menu plays it; an operator\'s terminal is refused', async () => {
    const base = `/api/organizations/${ids.org}`
    const manager = await makeUser(database.db, { role: 'manager', organization_id: ids.org })
    await makeTerminal(t.app, admin, ids.org, '009', manager.id)
    await api('PUT', `${base}/lines/${(await api('GET', `${base}/lines`))[0].id}`, { language: 'kk' })
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true')
    assert.equal(generation.success, true, JSON.stringify(generation))
    await eventually(async () => (await asterisk.cli('dialplan show org101-prompt-recorders')).includes('101009'), 30_000, 'the manager\'s terminal among the recorders')
    // what the manager says: a steady 440 Hz tone, looped for the whole call
    const playing = join(dir, 'manager-says.wav')
    writeFileSync(playing, makeWav(8000, tone(8000, 2)))
    const phone = await operatorPhone(pjsua, '101009', PASSWORD, 5209, playing)
    phones.push(phone)
    if (process.env.PBX_RECORD_PROMPT) {
      recorder.close()
      recorded.push(recorder.text())
      recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
    }

    // an operator may not: refused before any recording
    const operator = phones[0]!
    let logFrom = asterisk.log().length
    let from = operator.output().length
    operator.dial(`sip:*77*${ids.prompt}*1@127.0.0.1:5060`)
    await operator.waitFor(/DISCONNECTED/, 'the operator refused', 20_000, from)
    assert.match(asterisk.log().slice(logFrom), /Playback\("PJSIP\/101001-[^"]+", "ss-noservice"\)/)
    assert.doesNotMatch(asterisk.log().slice(logFrom), /Record\(/)

    logFrom = asterisk.log().length
    from = phone.output().length
    recorder.mark(`manager 101009 dials *77*${ids.prompt}*2`)
    phone.dial(`sip:*77*${ids.prompt}*2@127.0.0.1:5060`)
    await phone.waitFor(/state changed to CONFIRMED/, '101009 recording', 20_000, from)
    await eventually(async () => /Record\("PJSIP\/101009-/.test(asterisk.log().slice(logFrom)), 20_000, 'Asterisk recording')
    await sleep(3000)
    recorder.mark('manager presses # (RFC 4733): the recording ends')
    phone.dtmf('#')
    // played back, then asked: 1 keeps it
    await eventually(async () => /Read\("PJSIP\/101009-[^"]+", "KEEP,vm-review&/.test(asterisk.log().slice(logFrom)), 30_000, 'asked to keep it')
    recorder.mark('manager presses 1: kept')
    phone.dtmf('1')
    await phone.waitFor(/DISCONNECTED/, 'the recording kept, the call ended', 30_000, from)
    const kept = await eventually(async () => {
      const prompt = (await api('GET', `${base}/prompts`)).find((p: { id: number }) => p.id === ids.prompt)
      return prompt.recordings.find((r: { language: string, source: { format: string } | null }) => r.language === 'kk' && r.source?.format === 'phone')
    }, 20_000, 'the recording on the prompt')
    assert.equal(kept.source.terminal, '101009')
    assert.equal(kept.source.employee_id, manager.id)
    assert.ok(kept.duration_ms > 2000 && kept.duration_ms < 5000, `${kept.duration_ms} ms kept of about 3 s said`)
    await eventually(async () => readdirSync(join(dir, 'recordings', 'prompts')).length === 0, 10_000, 'nothing left in the shared directory')
    const wav = readWav((await t.app.inject({ url: `${base}/prompts/${ids.prompt}/recordings/kk`, headers: admin })).rawPayload)
    assert.equal(wav.sampleRate, 16_000)
    if (process.env.PBX_RECORD_PROMPT) writeFileSync(process.env.PBX_RECORD_PROMPT, recorder.text(), 'latin1')

    // the menu plays it: the line's language is Kazakh
    const again = await api('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=true')
    assert.equal(again.success, true, JSON.stringify(again))
    logFrom = asterisk.log().length
    await citizenCalls('109', async (citizen) => {
      await confirmed(citizen)
      await citizen.menu()
      await sleep(1000)
      citizen.hangUp()
      await citizen.waitFor(/DISCONNECTED/, 'hung up')
    })
    const menu = asterisk.log().slice(logFrom).split(/BackGround\(/)[1] ?? ''
    // Asterisk names the format it reads (slin16: the .wav16 file's)
    assert.match(menu, new RegExp(`^"PJSIP/trunk\\d+-[^"]+", "appeals/org101/${ids.prompt}"`), 'the menu plays the prompt')
    assert.match(menu, new RegExp(`Playing 'appeals/org101/${ids.prompt}\\.slin16' \\(language 'kk'\\)`), 'in Kazakh: the recording made by phone')
  })
  it('the configuration applies itself: a queue edited, a terminal created and a menu changed during a call reach Asterisk with nothing generated by hand', async () => {
    const base = `/api/organizations/${ids.org}`
    // a queue's settings: Asterisk's `queue show` names its service level (its ring time is in the same file and reload)
    const queueEdited = performance.now()
    await api('PUT', `${base}/queues/${ids.queue}`, { ring_timeout: 12, service_level: 25 })
    await eventually(async () => (await asterisk.cli(`queue show org101-q${ids.queue}`)).includes('within 25s'), 30_000, 'the queue as edited in Asterisk')
    const queueSeen = performance.now() - queueEdited
    assert.match(readFileSync(join(dir, 'generated', 'orgs', '101', 'queues.conf'), 'utf8'), /^timeout=12$/m)

    // a terminal: in Asterisk, and a phone registers with it
    const created = performance.now()
    await makeTerminal(t.app, admin, ids.org, '005')
    await eventually(async () => (await asterisk.cli('pjsip show endpoint 101005')).includes('Endpoint:  101005'), 30_000, 'the new terminal in Asterisk')
    const endpointSeen = performance.now() - created
    phones.push(await operatorPhone(pjsua, '101005', PASSWORD, 5251))
    const registered = performance.now() - created
    await eventually(async () => (await asterisk.cli('pjsip show contacts')).includes('101005/sip:101005@'), 30_000, 'the phone\'s contact')

    // a menu changed while a caller is in it: the call goes on, through the dialplan as changed
    await api('PUT', `${base}/menus/${ids.menu}`, { timeout: 5, attempts: 3 })
    await eventually(async () => (await asterisk.cli(`dialplan show s@org101-menu${ids.menu}`)).includes('WaitExten(5)'), 30_000, 'the menu\'s wait in Asterisk')
    const known = await knownCalls()
    await citizenCalls('109', async (citizen) => {
      await confirmed(citizen)
      await eventually(async () => (await calls()).some((c) => !known.has(c.linkedid) && c.menu_id !== null && c.menu_exit === null), 20_000, 'the caller in the menu')
      await api('PUT', `${base}/menus/${ids.menu}`, { timeout: 6 })
      await eventually(async () => (await asterisk.cli(`dialplan show s@org101-menu${ids.menu}`)).includes('WaitExten(6)'), 30_000, 'the menu changed in Asterisk during the call')
      citizen.dtmf('2')
      await eventually(async () => (await calls()).some((c) => !known.has(c.linkedid) && c.menu_choice === '2'), 20_000, 'the choice after the change reached the service')
      await citizen.waitFor(/Call 0 state changed to CONFIRMED[\s\S]*/, 'still connected')
      citizen.hangUp()
      await citizen.waitFor(/DISCONNECTED/, 'hung up')
    })
    const call = await callAfter(known, (c) => c.ended_at !== null, 'the call kept')
    assert.deepEqual([call.menu_choice, call.language, call.queue], ['2', 'ru', 'org101-queue'], 'the call went on past the change, to its choice\'s queue')
    process.stdout.write(`# pbx: a queue edited was in \`queue show\` ${queueSeen.toFixed(0)} ms later; a terminal created was in Asterisk ${endpointSeen.toFixed(0)} ms later and its phone registered ${registered.toFixed(0)} ms after the create\n`)
  })

  it('what Asterisk refuses is said on the organization in its log\'s words: a codec it does not know; put right, the state is clean', async () => {
    const base = `/api/organizations/${ids.org}`
    const state = async () => (await t.app.inject({ url: `${base}/pbx-state`, headers: admin })).json()
    await api('PUT', `${base}/endpoints/101005`, { allow: 'nosuchcodec' })
    const refused = await eventually(async () => { const s = await state(); return s.state === 'refused' ? s : undefined }, 30_000, 'Asterisk\'s refusal')
    assert.equal(refused.refused_by, 'asterisk')
    assert.match(refused.problem, /Error parsing allow=nosuchcodec at line \d+ of \S+\/orgs\/101\/pjsip\.conf/)
    assert.match(refused.problem, /Could not create an object of type 'endpoint' with id '101005'/)
    assert.match(await asterisk.cli('pjsip show endpoint 101005'), /alaw|ulaw/, 'Asterisk keeps what it ran before')
    await api('PUT', `${base}/endpoints/101005`, { allow: 'alaw,ulaw' })
    await eventually(async () => { const s = await state(); return s.state === 'applied' && s.problem === null }, 30_000, 'the refusal gone')
  })
})
