import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/client.js'
import { makeWav } from '../../src/lib/audio/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { asterisk22Options, parseConf, readConfig } from '../helpers/asterisk-config.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

const PASSWORD = 'Abcdefghij0123456789'
type Headers = Record<string, string>

/** the dialplan applications Asterisk 22 has that the generated dialplan may use */
const ASTERISK_22_APPLICATIONS = ['Answer', 'Background', 'Busy', 'Congestion', 'Dial', 'Echo', 'ExecIf', 'Gosub', 'Goto', 'GotoIf', 'GotoIfTime', 'Hangup', 'NoOp', 'MixMonitor', 'Playback', 'PlayTones', 'Queue', 'Read', 'Record', 'Return', 'SayDigits', 'Set', 'UserEvent', 'Wait', 'WaitExten']

const tone = (rate: number) => Int16Array.from({ length: rate / 2 }, (_, i) => Math.round(6000 * Math.sin(2 * Math.PI * 440 * i / rate)))

/** an extension's steps in a context, in order, as `exten`/`same` lines give them */
/** the steps every line ends with: closed at the switch (Asterisk's database), its announcement or none, then the end */
const SWITCHED = [
  'n(switched),UserEvent(AppealsCall,Closed: 1,Switch: 1)', 'n,GotoIf($["${CUT(APPEALS_SWITCH,:,2)}" = ""]?switched-silent)',
  'n,UserEvent(AppealsCall,Sent: announced)', 'n,Playback(${CUT(APPEALS_SWITCH,:,2)})', 'n,Hangup()', 'n(switched-silent),UserEvent(AppealsCall,Sent: hangup)', 'n,Hangup()',
]
/** a line's steps, without the switch's own at its end */
function lineSteps (text: string, number: string): string[] {
  const steps = stepsOf(text, 'appeals-inbound', number)
  assert.deepEqual(steps.slice(-SWITCHED.length), SWITCHED, `line ${number} ends with the switch's steps`)
  return steps.slice(0, -SWITCHED.length)
}

function stepsOf (text: string, context: string, exten: string): string[] {
  // Asterisk merges the sections of one context (each organization's file has its part of the inbound one)
  const sections = parseConf(text).filter((s) => s.name === context)
  assert.ok(sections.length > 0, `context ${context} is written`)
  const out: string[] = []
  let inside = false
  for (const [key, value] of sections.flatMap((s) => s.options)) {
    if (key === 'exten') inside = value.startsWith(`${exten},`) && !value.startsWith(`${exten},hint`)
    if (inside && (key === 'exten' || key === 'same')) out.push(key === 'exten' ? value.slice(exten.length + 1) : value)
  }
  return out
}

describe('the call flow generated for Asterisk: lines, schedules, menus, queues, prompts', () => {
  let t: TestApp
  let database: Database
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let dir: string
  let admin: Headers
  let org: { id: number, prefix: string }
  let ids: { queue: number, defaultQueue: number, menu: number, prompt: number, calendar: number, weekly: number, silent: number }
  const ru = makeWav(8000, tone(8000))
  const kk = makeWav(16_000, tone(16_000))

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) })
  const created = async (url: string, payload: object) => {
    const res = await call('POST', url, payload)
    assert.equal(res.statusCode, 201, res.body)
    return res.json().id as number
  }
  const preview = async (kind: 'extensions' | 'queues') => {
    const res = await t.app.inject({ url: `/api/pbx/preview/${kind}`, headers: admin })
    assert.equal(res.statusCode, 200, res.body)
    return res.json().content as string
  }

  before(async () => {
    peer = await startAmiPeer()
    dir = mkdtempSync(join(tmpdir(), 'appeals-flow-'))
    database = await createTestDatabase()
    t = await buildTestApp({ database, env: { ...peer.env(), PBX_CONFIG_DIR: dir, PBX_RECORDINGS_DIR: '/var/spool/asterisk/appeals' } })
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    org = await makeOrganization(database.db, { prefix: '101', name: 'Единый контакт-центр [evil]\nexten => 666' })
    for (const extension of ['001', '002']) {
      const res = await call('POST', `/api/organizations/${org.id}/endpoints/`, { name: `Оператор ${extension}`, extension, password: PASSWORD })
      assert.equal(res.statusCode, 201, res.body)
    }
    const base = `/api/organizations/${org.id}`
    const prompt = await created(`${base}/prompts`, { name: 'Выбор языка' })
    for (const [language, file] of [['ru', ru], ['kk', kk]] as const) {
      const res = await t.app.inject({ method: 'PUT', url: `${base}/prompts/${prompt}/recordings/${language}`, headers: { ...admin, 'content-type': 'audio/wav' }, payload: file })
      assert.equal(res.statusCode, 200, res.body)
    }
    const defaultQueue = (await call('GET', `${base}/queues`)).json()[0].id as number
    const queue = await created(`${base}/queues`, {
      name: 'Казахская очередь', members: [{ terminal_id: '101002', penalty: 2 }], all_terminals: true, wrapup_time: 15, service_level: 30, max_callers: 20,
      announce_position: true, periodic_prompt_id: prompt, max_wait: 600, overflow: { kind: 'queue', queue_id: defaultQueue },
    })
    const menu = await created(`${base}/menus`, {
      name: 'Язык / Тіл', prompt_id: prompt, timeout: 6, attempts: 3,
      options: [{ digit: '1', language: 'kk', destination: { kind: 'queue', queue_id: queue } }, { digit: '2', language: 'ru', destination: { kind: 'queue', queue_id: defaultQueue } }],
      timeout_destination: { kind: 'queue', queue_id: defaultQueue }, invalid_destination: { kind: 'announcement', prompt_id: prompt },
    })
    const calendar = await created(`${base}/schedules`, { name: 'Рабочее время центра', kind: 'calendar' })
    const weekly = await created(`${base}/schedules`, { name: 'Суббота', kind: 'weekly', hours: [{ weekday: 6, opens: '10:00', closes: '14:00' }, { weekday: 7, opens: '12:00', closes: '24:00' }] })
    await created(`${base}/lines`, { number: '109', name: 'Единый номер 109', schedule_id: calendar, destination: { kind: 'menu', menu_id: menu }, closed_destination: { kind: 'announcement', prompt_id: prompt } })
    await created(`${base}/lines`, { number: '+77172000109', name: 'Астана', schedule_id: weekly, destination: { kind: 'terminal', terminal_id: '101001' } })
    const silent = await created(`${base}/prompts`, { name: 'Без записи' })
    ids = { queue, defaultQueue, menu, prompt, calendar, weekly, silent }
  })
  after(async () => {
    await t.app.close()
    await database.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('the inbound context: a line announces itself, follows its schedule to its menu or its closed announcement; an unknown number is refused', async () => {
    const text = await preview('extensions')
    assert.deepEqual(lineSteps(text, '109'), [
      '1,NoOp(line 109 of organization 101)', 'n,Answer()', 'n,Set(CHANNEL(language)=ru)', 'n,Set(__APPEALS_LINE=109)', 'n,Set(__APPEALS_RECORD=1)', 'n,UserEvent(AppealsCall,Line: 109,Organization: 101)',
      'n,Set(APPEALS_SWITCH=${DB(appeals-closed/109)})', 'n,GotoIf($[0${CUT(APPEALS_SWITCH,:,1)} > ${EPOCH}]?switched)',
      `n,Gosub(org101-sched${ids.calendar},s,1)`, 'n,GotoIf($["${GOSUB_RETVAL}" = "1"]?open)', 'n,UserEvent(AppealsCall,Closed: 1)',
      'n,UserEvent(AppealsCall,Sent: announced)', `n,Playback(appeals/org101/${ids.prompt})`, 'n,Hangup()',
      `n(open),Goto(org101-menu${ids.menu},s,1)`,
    ])
    assert.deepEqual(lineSteps(text, '+77172000109').slice(-3), ['n,Hangup()', 'n(open),UserEvent(AppealsCall,Sent: terminal)', 'n,Goto(org101-internal,001,1)'])
    // refused, and told to the service with the number's digits (a comma or a colon could not reach the event's fields)
    for (const refused of ['_X.', '_+X.', 's']) assert.deepEqual(stepsOf(text, 'appeals-inbound', refused), ['1,UserEvent(AppealsCall,Line: ${FILTER(0-9+,${EXTEN})},Refused: 1)', 'n,Congestion(5)'])
  })

  it('the language menu sets the channel\'s language and tells the service; no digit and a wrong one retry, then go on', async () => {
    const text = await preview('extensions')
    const menu = `org101-menu${ids.menu}`
    assert.deepEqual(stepsOf(text, menu, 's'), ['1,Set(APPEALS_TRIES=0)', `n,UserEvent(AppealsCall,Menu: ${ids.menu})`, 'n(prompt),Set(APPEALS_TRIES=$[${APPEALS_TRIES} + 1])', `n,Background(appeals/org101/${ids.prompt})`, 'n,WaitExten(6)'])
    assert.deepEqual(stepsOf(text, menu, '1'), ['1,Set(CHANNEL(language)=kk)', 'n,Set(__APPEALS_LANG=kk)', `n,UserEvent(AppealsCall,Menu: ${ids.menu},Choice: 1,ChosenLanguage: kk)`, `n,Goto(org101-q${ids.queue},s,1)`])
    assert.deepEqual(stepsOf(text, menu, '2').slice(0, 2), ['1,Set(CHANNEL(language)=ru)', 'n,Set(__APPEALS_LANG=ru)'])
    assert.deepEqual(stepsOf(text, menu, 't'), ['1,GotoIf($[${APPEALS_TRIES} < 3]?s,prompt)', `n,UserEvent(AppealsCall,Menu: ${ids.menu},Exit: timeout)`, 'n,Goto(org101-queue,s,1)'])
    // a wrong digit: the menu again while it has attempts left, as for no digit
    assert.deepEqual(stepsOf(text, menu, 'i'), ['1,GotoIf($[${APPEALS_TRIES} < 3]?s,prompt)', `n,UserEvent(AppealsCall,Menu: ${ids.menu},Exit: invalid)`, 'n,UserEvent(AppealsCall,Sent: announced)', `n,Playback(appeals/org101/${ids.prompt})`, 'n,Hangup()'])
    assert.deepEqual(stepsOf(text, `org101-q${ids.queue}`, 's'), [`1,Queue(org101-q${ids.queue},t,,,600,,appeals-record)`, 'n,Goto(org101-queue,s,1)'], 'after its maximum wait the overflow; the answering operator\'s channel runs the recording')
    assert.deepEqual(stepsOf(text, 'org101-internal', '0'), ['1,Goto(org101-queue,s,1)'], 'a terminal dialling 0 reaches the default queue')
  })

  it('a line\'s language before any choice: the channel\'s language is the line\'s, so its prompts play their recording in it; only ru and kk', async () => {
    const base = `/api/organizations/${org.id}`
    const astana = (await (await call('GET', `${base}/lines`)).json() as { id: number, number: string, language: string }[]).find((l) => l.number === '+77172000109')!
    assert.equal(astana.language, 'ru', 'Russian unless said')
    let res = await call('PUT', `${base}/lines/${astana.id}`, { language: 'kk' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().language, 'kk')
    assert.equal(lineSteps(await preview('extensions'), '+77172000109')[2], 'n,Set(CHANNEL(language)=kk)')
    res = await call('PUT', `${base}/lines/${astana.id}`, { language: 'en' })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json().detail[0].loc, ['body', 'language'])
    assert.equal((await call('PUT', `${base}/lines/${astana.id}`, { language: 'ru' })).json().language, 'ru')
  })

  it('recording: the operator\'s leg is recorded from its answer, on the queue and on a transfer to a terminal; a line tells the caller, or records nothing', async () => {
    const base = `/api/organizations/${org.id}`
    let text = await preview('extensions')
    assert.deepEqual(stepsOf(text, 'appeals-record', 's'), [
      '1,GotoIf($["${APPEALS_RECORD}" != "1"]?done)', 'n,MixMonitor(/var/spool/asterisk/appeals/${CHANNEL(linkedid)}-${UNIQUEID}-${IF($["${APPEALS_TERMINAL}" != ""]?${APPEALS_TERMINAL}:${CHANNEL(endpoint)})}.wav)', 'n(done),Return()',
    ])
    assert.ok(stepsOf(text, 'org101-internal', '001').includes('n,Dial(PJSIP/101001,,U(appeals-record))'), 'a call put through to a terminal (a transfer) is a recorded call\'s next leg')
    const lines = (await call('GET', `${base}/lines`)).json() as Array<{ id: number, number: string, recording: string, recording_prompt_id: number | null }>
    const astana = lines.find((l) => l.number === '+77172000109')!
    assert.deepEqual([astana.recording, astana.recording_prompt_id], ['always', null], 'a line records by default')

    // the notice is played on the open path, before the destination; a prompt without a recording is a problem
    let res = await call('PUT', `${base}/lines/${astana.id}`, { recording_prompt_id: ids.prompt })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().recording_prompt_id, ids.prompt)
    text = await preview('extensions')
    assert.deepEqual(lineSteps(text, '+77172000109').slice(-3), [`n(open),Playback(appeals/org101/${ids.prompt})`, 'n,UserEvent(AppealsCall,Sent: terminal)', 'n,Goto(org101-internal,001,1)'])
    res = await call('PUT', `${base}/lines/${astana.id}`, { recording_prompt_id: ids.silent })
    const generated = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs', headers: admin })).json()
    assert.deepEqual(generated.errors, [`organization 101: line +77172000109's recording notice plays prompt ${ids.silent}, which has no recording`])

    // off: nothing of the call is recorded, and no notice is played
    res = await call('PUT', `${base}/lines/${astana.id}`, { recording: 'off' })
    assert.equal(res.statusCode, 200, res.body)
    text = await preview('extensions')
    const steps = lineSteps(text, '+77172000109')
    assert.ok(!steps.includes('n,Set(__APPEALS_RECORD=1)') && !steps.some((s) => s.includes('Playback')), steps.join('\n'))

    // bad input: a mode that is not one, a prompt of no such id (or another organization's)
    res = await call('PUT', `${base}/lines/${astana.id}`, { recording: 'sometimes' })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json().detail[0].loc, ['body', 'recording'])
    res = await call('PUT', `${base}/lines/${astana.id}`, { recording_prompt_id: 999_999 })
    assert.equal(res.statusCode, 409, res.body)
    assert.match(res.json().detail, /recording_prompt_id: prompt 999999/)
    assert.equal((await call('PUT', `${base}/lines/${astana.id}`, { recording: 'always', recording_prompt_id: null })).statusCode, 200)
  })

  it('rating: after the operator hangs up the caller hears the queue\'s rating menu; a digit 1-5 is announced, anything else ends the call', async () => {
    const base = `/api/organizations/${org.id}`
    let res = await call('PUT', `${base}/queues/${ids.queue}`, { rating_prompt_id: ids.prompt, rating_timeout: 7 })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual([res.json().rating_prompt_id, res.json().rating_timeout], [ids.prompt, 7])
    const text = await preview('extensions')
    assert.deepEqual(stepsOf(text, `org101-q${ids.queue}`, 's'), [
      `1,Queue(org101-q${ids.queue},tc,,,600,,appeals-record)`, 'n,GotoIf($["${MEMBERINTERFACE}" != ""]?rating)', 'n,Goto(org101-queue,s,1)',
      `n(rating),Read(APPEALS_RATING,appeals/org101/${ids.prompt},1,,1,7)`, 'n,GotoIf($[${REGEX("^[1-5]$" ${APPEALS_RATING})}]?rated)', 'n,Hangup()',
      'n(rated),UserEvent(AppealsCall,Rating: ${APPEALS_RATING})', 'n,Hangup()',
    ])
    const queue = parseConf(await preview('queues')).find((s) => s.name === `org101-q${ids.queue}`)!
    assert.ok(queue.options.some(([k, v]) => k === 'setinterfacevar' && v === 'yes'), 'the caller\'s channel learns who answered')
    for (const bad of [{ rating_timeout: 0 }, { rating_timeout: 31 }, { rating_prompt_id: 'x' }]) {
      res = await call('PUT', `${base}/queues/${ids.queue}`, bad)
      assert.equal(res.statusCode, 422, `${JSON.stringify(bad)}: ${res.body}`)
    }
    res = await call('PUT', `${base}/queues/${ids.queue}`, { rating_prompt_id: 999_999 })
    assert.equal(res.statusCode, 409, res.body)
    assert.equal((await call('PUT', `${base}/queues/${ids.queue}`, { rating_prompt_id: null })).statusCode, 200)
    assert.deepEqual(stepsOf(await preview('extensions'), `org101-q${ids.queue}`, 's'), [`1,Queue(org101-q${ids.queue},t,,,600,,appeals-record)`, 'n,Goto(org101-queue,s,1)'])
  })

  it('schedules: weekly hours by GotoIfTime in TIME_ZONE, the calendar as one subroutine with its dated exceptions; a calendar edit shows', async () => {
    const edit = await call('PUT', '/api/appeals/calendar/2027-03-13', { kind: 'working', name: 'Рабочая суббота' })
    assert.equal(edit.statusCode, 200, edit.body)
    const text = await preview('extensions')
    assert.deepEqual(stepsOf(text, `org101-sched${ids.weekly}`, 's'), [
      '1,NoOp(weekly)', 'n,GotoIfTime(10:00-13:59,sat,*,*,Asia/Almaty?open)', 'n,GotoIfTime(12:00-23:59,sun,*,*,Asia/Almaty?open)', 'n,Return(0)', 'n(open),Return(1)',
    ])
    assert.deepEqual(stepsOf(text, `org101-sched${ids.calendar}`, 's'), ['1,Gosub(appeals-calendar,s,1)', 'n,Return(${GOSUB_RETVAL})'])
    const calendar = stepsOf(text, 'appeals-calendar', 's')
    assert.equal(calendar[0], '1,Set(APPEALS_DAY=${STRFTIME(${EPOCH},Asia/Almaty,%Y-%m-%d)})')
    assert.ok(calendar.includes('n,GotoIf($["${APPEALS_DAY}" = "2027-03-13"]?hours)'), 'a worked Saturday checks the hours only')
    const holidays = calendar.filter((s) => s.endsWith('?closed)'))
    assert.ok(holidays.length > 5 && holidays.every((h) => /"20\d\d-\d\d-\d\d"/.test(h)), `the holidays are written out with their year: ${holidays.length}`)
    assert.deepEqual(calendar.slice(-4), ['n,GotoIfTime(09:00-17:59,mon-fri,*,*,Asia/Almaty?open)', 'n(closed),Return(0)', 'n(hours),GotoIfTime(09:00-17:59,*,*,*,Asia/Almaty?open:closed)', 'n(open),Return(1)'])
  })

  it('every jump lands on a written context, every application is one of Asterisk 22, free text stays in comments', async () => {
    const text = await preview('extensions')
    const contexts = parseConf(text).map((s) => s.name)
    for (const [, target] of text.matchAll(/(?:Goto|Gosub)\(([^,)]+),/g)) assert.ok(contexts.includes(target!), `a jump to the undefined context ${target}`)
    for (const [, app] of text.matchAll(/^(?:exten => [^,]+,(?:1|hint)(?:\([a-z]+\))?|\s*same => n(?:\([a-z]+\))?),([A-Za-z]+)\(/gm)) {
      assert.ok(ASTERISK_22_APPLICATIONS.includes(app!), `application ${app} is not one of Asterisk 22's`)
    }
    assert.ok(!/^exten => 666/m.test(text), 'an organization name cannot add dialplan')
  })

  it('the organization\'s terminals dial its other queues as *8<queue id> (a transfer to one is dialled so), its own as 0', async () => {
    const internal = parseConf(await preview('extensions')).find((s) => s.name === 'org101-internal')!
    const extensions = internal.options.filter(([k]) => k === 'exten').map(([, v]) => v)
    assert.ok(extensions.includes(`*8${ids.queue},1,Goto(org101-q${ids.queue},s,1)`), JSON.stringify(extensions))
    assert.ok(extensions.includes('0,1,Goto(org101-queue,s,1)'))
    assert.ok(!extensions.some((e) => e.startsWith(`*8${ids.defaultQueue},`)), 'the own queue only as 0')
  })

  it('queues.conf: each queue with its options (all of Asterisk 22) and members: all terminals, a listed one with its penalty', async () => {
    const sections = parseConf(await preview('queues'))
    const queue = sections.find((s) => s.name === `org101-q${ids.queue}`)!
    assert.deepEqual(queue.options.filter(([k]) => k === 'member').map(([, v]) => v), ['PJSIP/101001,0,101001', 'PJSIP/101002,2,101002'])
    const option = (name: string) => queue.options.find(([k]) => k === name)?.[1]
    assert.deepEqual([option('wrapuptime'), option('servicelevel'), option('maxlen'), option('announce-position'), option('periodic-announce')], ['15', '30', '20', 'yes', `appeals/org101/${ids.prompt}`])
    for (const s of sections.filter((x) => x.name !== 'general')) {
      for (const [name] of s.options) assert.ok(asterisk22Options['queues.conf queue']!.includes(name), `${s.name}: ${name} is not an Asterisk 22 queue option`)
    }
    assert.ok(sections.some((s) => s.name === 'org101-queue'), 'the default queue keeps its name')
  })

  it('generate writes the prompts where Asterisk plays them, per language (.wav16 at 16 kHz) and a fallback; a removed recording goes', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?save_to_disk=true', headers: admin })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().success, true, res.body)
    const sounds = join(dir, 'sounds')
    // what the console plays back is what Asterisk is given
    const kept = async (language: string) => (await t.app.inject({ url: `/api/organizations/${org.id}/prompts/${ids.prompt}/recordings/${language}`, headers: admin })).rawPayload
    assert.ok(readFileSync(join(sounds, `ru/appeals/org101/${ids.prompt}.wav`)).equals(await kept('ru')))
    assert.ok(readFileSync(join(sounds, `kk/appeals/org101/${ids.prompt}.wav16`)).equals(await kept('kk')))
    assert.ok(readFileSync(join(sounds, `appeals/org101/${ids.prompt}.wav`)).equals(await kept('ru')), 'the Russian recording is the fallback of other languages')
    assert.equal((await call('DELETE', `/api/organizations/${org.id}/prompts/${ids.prompt}/recordings/kk`)).statusCode, 204)
    const again = await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?save_to_disk=true', headers: admin })
    assert.match(again.json().message, /prompts: 0 written, 1 removed/)
    assert.ok(!existsSync(join(sounds, `kk/appeals/org101/${ids.prompt}.wav16`)))
    assert.ok(existsSync(join(sounds, `ru/appeals/org101/${ids.prompt}.wav`)))
  })

  it('a prompt played without a recording is a problem of the generation: nothing is written', async () => {
    const res = await call('PUT', `/api/organizations/${org.id}/menus/${ids.menu}`, { prompt_id: ids.silent })
    assert.equal(res.statusCode, 200, res.body)
    const generated = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?save_to_disk=true', headers: admin })).json()
    assert.equal(generated.success, false)
    assert.deepEqual(generated.errors, [`organization 101: menu ${ids.menu} plays prompt ${ids.silent}, which has no recording`])
    assert.equal((await call('PUT', `/api/organizations/${org.id}/menus/${ids.menu}`, { prompt_id: ids.prompt })).statusCode, 200)
  })

  it('a calendar edit rewrites the dialplan and reloads it over AMI, with no one regenerating by hand', async () => {
    const reloadsBefore = peer.state.received.filter((a) => a.Command === 'dialplan reload').length
    const edit = await call('PUT', '/api/appeals/calendar/2027-11-20', { kind: 'working', name: 'Перенос' })
    assert.equal(edit.statusCode, 200, edit.body)
    // (a reload of an apply begun before the edit may come first: the one that counts is after the file has the day)
    await eventually(async () => /"2027-11-20"\]\?hours/.test(readConfig(dir, 'extensions.conf')), 30_000, 'the day in the dialplan')
    await eventually(async () => (await call('GET', '/api/pbx/apply-state')).json().state === 'applied', 30_000, 'the edit applied')
    assert.ok(peer.state.received.filter((a) => a.Command === 'dialplan reload').length > reloadsBefore, 'a dialplan reload')
  })
})
