// The browser phone on a real Asterisk 22.10.1 (`npm run test:pbx`, DESIGN 11): a terminal made a
// browser phone through the API registers over Asterisk's WebSocket with the key its employee's
// session is given, through JsSIP (the console's SIP library); the key renewed at sign-out is void
// once the configuration has applied itself, and the new one registers.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import JsSIP from 'jssip'
import { WebSocket } from 'ws'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'
import { chromium, type Browser, type Page } from 'playwright-core'
import { makeWav, readWav } from '../../src/lib/audio/index.js'
import { CHROMIUM, CHROMIUM_ARGS, screenshot } from '../helpers/console.js'
import { recordAmi, type AmiRecorder } from './ami-recorder.js'
import { pbxTools, SIP_PORT, startAsterisk, TRUNK_ADDRESS, TRUNK_PORT, type Asterisk } from './asterisk.js'
import { citizenPhone, lineUri, operatorPhone, type Phone } from './phone.js'
import { powerAt, sine } from './tones.js'

const tools = pbxTools()
const TLS_PORT = 5061
const AMI = { username: 'appeals', secret: 'appeals-ami-secret' }
/** the recorder's own AMI user: every class, as a lab's would be */
const RECORDER = { username: 'recorder', secret: 'recorder-secret' }
type Headers = Record<string, string>
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
interface MyPhones { websocket_url: string, phones: { terminal_id: string, sip_uri: string, realm: string, ha1: string }[] }

/** JsSIP as the console runs it, in Node: its WebSocket is the `ws` package's */
function registration (websocketUrl: string, phone: MyPhones['phones'][number]): Promise<{ registered: boolean, cause?: string, ua: JsSIP.UA }> {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket
  const ua = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(websocketUrl)], uri: phone.sip_uri, authorization_user: phone.terminal_id, realm: phone.realm, ha1: phone.ha1,
    register: true, connection_recovery_min_interval: 60, user_agent: 'appeals-test',
  })
  return new Promise((resolve) => {
    ua.on('registered', () => resolve({ registered: true, ua }))
    ua.on('registrationFailed', (e) => { ua.stop(); resolve({ registered: false, cause: String(e.cause), ua }) })
    ua.start()
  })
}

describe('the browser phone on a real Asterisk 22: registered over its WebSocket with the key of the employee\'s session', { skip: 'missing' in tools ? `no Asterisk to test against: set ${tools.missing}` : undefined }, () => {
  const { asteriskDir, pjsua } = tools as { asteriskDir: string, pjsua: string }
  const amiPort = 16_038 + (process.pid % 1000)
  const httpPort = 19_088 + (process.pid % 1000)
  let dir: string
  let t: TestApp
  let asterisk: Asterisk
  let recorder: AmiRecorder
  let publicNetwork: Phone
  let admin: Headers
  let operator: Headers
  /** the managers of the executor's dispatcher (405) and of the centre (404): each reads its own organization's figures */
  let executorManager: Headers
  let centreManager: Headers
  /** another queue of the centre's, its colleague at the desk phone its member */
  let complaintsQueue: number
  let orgId: number
  let url: string
  let operatorLogin: { email: string, password: string }
  let browser: Browser | undefined
  let page: Page
  const phones: Phone[] = []
  const agents: JsSIP.UA[] = []

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Headers = admin, payload?: object) => {
    const res = await t.app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${res.body}`)
    return res.body === '' ? undefined : res.json()
  }
  const mine = async () => await api('GET', '/api/agents/me/phones', operator) as MyPhones
  const register = async (phones: MyPhones) => {
    const result = await registration(phones.websocket_url, phones.phones[0]!)
    agents.push(result.ua)
    return result
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appeals-pbx-browser-'))
    const generated = join(dir, 'generated')
    mkdirSync(generated)
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'pbx.key'), '-out', join(dir, 'pbx.crt')], { stdio: 'ignore' })
    const database = await createTestDatabase()
    t = await buildTestApp({
      database,
      env: {
        AMI_HOST: '127.0.0.1', AMI_PORT: String(amiPort), AMI_USERNAME: AMI.username, AMI_SECRET: AMI.secret, AMI_TIMEOUT: '10s',
        PBX_CONFIG_DIR: generated, PBX_ASTERISK_LOG: join(dir, 'asterisk', 'log', 'messages.log'), PBX_SOUNDS_DIR: join(dir, 'asterisk', 'var', 'sounds'), RECORDINGS_DIR: join(dir, 'recordings'), RECORDING_SWEEP_INTERVAL: '1s',
        PBX_WEBSOCKET_URL: `ws://127.0.0.1:${httpPort}/ws`,
        // the transports where the deployment says: loopback only, TLS with its own certificate, a router's address for the world outside
        PBX_SIP_BIND: `127.0.0.1:${SIP_PORT}`, PBX_SIP_TLS_BIND: `127.0.0.1:${TLS_PORT}`, PBX_SIP_TLS_CERT: join(dir, 'pbx.crt'), PBX_SIP_TLS_KEY: join(dir, 'pbx.key'),
        PBX_EXTERNAL_ADDRESS: '198.51.100.9', PBX_LOCAL_NETS: '127.0.0.0/8,192.0.2.0/24',
      },
    })
    const org = await makeOrganization(database.db, { prefix: '404', name: 'Контакт-центр (браузер)', modules: ['call_center'] })
    orgId = org.id
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    const user = await makeUser(database.db, { role: 'operator', organization_id: org.id })
    operator = await login(t.app, user)
    operatorLogin = { email: user.email, password: 'Correct-Horse-42' }
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    await api('POST', `/api/organizations/${org.id}/endpoints/`, admin, { name: 'Оператор в браузере', extension: '001', password: 'Abcdefghij0123456789', employee_id: user.id, phone: 'browser' })
    // a colleague at a desk phone, who calls the browser; another whose phone speaks TLS
    await api('POST', `/api/organizations/${org.id}/endpoints/`, admin, { name: 'Коллега за столом', extension: '002', password: 'Abcdefghij0123456789' })
    await api('POST', `/api/organizations/${org.id}/endpoints/`, admin, { name: 'Телефон с TLS', extension: '003', password: 'Abcdefghij0123456789', transport: 'transport-tls' })
    // the public network's trunk, and the line its calls come to: straight to the organization's queue
    const network = (await api('POST', '/api/trunks/', admin, { name: 'Публичная сеть', mode: 'ip', host: TRUNK_ADDRESS, port: TRUNK_PORT })).id as number
    // calls out go through it: long-distance and mobile, the browser's terminal allowed them; the dispatcher a citizen of the references
    await api('POST', `/api/organizations/${org.id}/outbound-routes/`, admin, { name: 'Межгород и мобильные', patterns: ['8XXXXXXXXXX'], long_distance: true, trunk_ids: [network] })
    await api('PUT', `/api/organizations/${org.id}/endpoints/404001`, admin, { allow_long_distance: true })
    await api('POST', '/api/references/persons', admin, { full_name: 'Диспетчер водоканала', phone: '+77010000002' })
    const queue = (await api('GET', `/api/organizations/${org.id}/queues`))[0].id as number
    await api('POST', `/api/organizations/${org.id}/lines`, admin, { number: '109', name: 'Единый номер 109', destination: { kind: 'queue', queue_id: queue } })
    complaintsQueue = (await api('POST', `/api/organizations/${org.id}/queues`, admin, { name: 'Жалобы', members: [{ terminal_id: '404002', penalty: 0 }] })).id as number
    // another organization (the executor's dispatcher) with its own line and queue, which its terminal answers
    const executor = await makeOrganization(database.db, { prefix: '405', name: 'Водоканал (диспетчерская)', modules: ['call_center'] })
    await api('POST', `/api/organizations/${executor.id}/endpoints/`, admin, { name: 'Диспетчер', extension: '001', password: 'Abcdefghij0123456789' })
    const executorQueue = (await api('GET', `/api/organizations/${executor.id}/queues`))[0].id as number
    await api('POST', `/api/organizations/${executor.id}/lines`, admin, { number: '5105', name: 'Диспетчерская водоканала', destination: { kind: 'queue', queue_id: executorQueue } })
    executorManager = await login(t.app, await makeUser(database.db, { role: 'manager', organization_id: executor.id }))
    centreManager = await login(t.app, await makeUser(database.db, { role: 'manager', organization_id: org.id }))
    const generation = await api('POST', '/api/pbx/generate-configs?save_to_disk=true')
    assert.equal(generation.success, true, JSON.stringify(generation.errors))
    // the public network's side of the trunk, up from the start as a provider is: Asterisk dials no contact it found unreachable
    publicNetwork = citizenPhone(pjsua, '+77010000002', TRUNK_PORT, undefined, true)
    phones.push(publicNetwork)
    asterisk = await startAsterisk({ asteriskDir, generatedDir: generated, dir: join(dir, 'asterisk'), amiPort, httpPort, ami: AMI, extraAmiUsers: [RECORDER] })
    recorder = await recordAmi(amiPort, RECORDER.username, RECORDER.secret)
  })

  after(async () => {
    for (const ua of agents) ua.stop()
    await browser?.close()
    for (const p of phones) await p.close().catch(() => {})
    if (recorder) {
      recorder.close()
      if (process.env.PBX_RECORD_AMI) writeFileSync(process.env.PBX_RECORD_AMI, recorder.text(), 'latin1')
    }
    await asterisk?.stop()
    await t?.close()
    if (!process.env.PBX_KEEP) rmSync(dir, { recursive: true, force: true })
  })

  it('registers with the key its employee is given; the SIP password does not register it; Asterisk and the service see the contact over the WebSocket', async () => {
    const phones = await mine()
    const first = await register(phones)
    assert.equal(first.registered, true, first.cause)
    // qualified once Asterisk's first OPTIONS is answered (NonQual until then)
    await eventually(async () => /404001\/sip:\S+@127\.0\.0\.1:\d+;transport=\S* +\S+ +Avail/.test(await asterisk.cli('pjsip show contacts')), 30_000, 'the browser\'s contact qualified Avail')
    const status = await api('GET', `/api/organizations/${orgId}/endpoints/status`)
    assert.equal(status.endpoints[0].registered, true, JSON.stringify(status))
    assert.match(status.endpoints[0].user_agent, /appeals-test/)
    first.ua.unregister({ all: true })
    first.ua.stop()
    // a desk phone's way in, the SIP password's digest, is not a browser phone's
    const password = await register({ ...phones, phones: [{ ...phones.phones[0]!, ha1: createHash('md5').update('404001:asterisk:Abcdefghij0123456789').digest('hex') }] })
    assert.equal(password.registered, false)
  })

  it('signed out: the key given before is refused once the configuration has applied itself, the new one registers', async () => {
    const before = await mine()
    await api('DELETE', '/api/agents/me/phones', operator)
    const renewed = await mine()
    assert.notEqual(renewed.phones[0]!.ha1, before.phones[0]!.ha1)
    await eventually(async () => {
      const old = await register(before)
      old.ua.stop()
      return !old.registered
    }, 60_000, 'the old key refused by Asterisk')
    const now = await register(renewed)
    assert.equal(now.registered, true, now.cause)
    now.ua.stop()
  })

  it('the console\'s phone in Chromium: registered after sign-in, rings with the caller, answered; each side hears the other\'s tone; hung up', async () => {
    // Chromium's microphone says 440 Hz; the colleague's desk phone says 1000 Hz and keeps what it hears
    const microphone = join(dir, 'browser-440.wav')
    writeFileSync(microphone, makeWav(16_000, sine(16_000, 440, 10)))
    const colleagueSays = join(dir, 'desk-1000.wav')
    writeFileSync(colleagueSays, makeWav(8000, sine(8000, 1000, 10)))
    const heardByDesk = join(dir, 'desk-heard.wav')
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${microphone}`, '--autoplay-policy=no-user-gesture-required'],
    })
    const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1366, height: 850 }, permissions: ['microphone', 'notifications'] })
    page = await context.newPage()
    page.on('pageerror', (err) => { throw err })
    // the page's own words, printed: a refused connection (its CSP) or a media error is said there first
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') process.stdout.write(`# console: ${m.text().slice(0, 300)}\n`) })
    // the figure of issue 62: from the click on "sign in" to the phone registered, in the page (the sign-in form already loaded)
    await page.goto(`${url}/console/`)
    await page.getByLabel('Электронная почта').fill(operatorLogin.email)
    await page.getByLabel('Пароль').fill(operatorLogin.password)
    const signInToRegistered = page.evaluate(() => new Promise<number>((resolve) => {
      let clickedAt: number | undefined
      document.addEventListener('click', (e) => { if ((e.target as HTMLElement).closest('button')?.textContent?.includes('Войти')) clickedAt ??= performance.now() }, { capture: true })
      const check = () => {
        if (clickedAt !== undefined && document.querySelector('[data-testid=phone][data-status=registered]')) resolve(performance.now() - clickedAt)
        else setTimeout(check, 5)
      }
      check()
    }))
    await page.getByRole('button', { name: 'Войти' }).click()
    const dock = page.getByTestId('phone')
    await dock.and(page.locator('[data-status=registered]')).waitFor({ timeout: 30_000 }).catch(async (err: unknown) => {
      await screenshot(page, 'browser-phone-not-registered', { viewport: true })
      throw err
    })
    process.stdout.write(`# the browser phone registered ${(await signInToRegistered).toFixed(0)} ms after the click on "sign in"\n`)
    const desk = await operatorPhone(pjsua, '404002', 'Abcdefghij0123456789', 5251, colleagueSays, { recording: heardByDesk })
    phones.push(desk)
    desk.dial(`sip:001@127.0.0.1:${SIP_PORT}`)
    await dock.and(page.locator('[data-call=ringing]')).waitFor({ timeout: 30_000 })
    assert.match(await page.getByTestId('phone-caller').innerText(), /404002/)
    await screenshot(page, 'browser-phone-ringing', { viewport: true })
    // the figure of issue 62: from the click on "answer" to the caller's audio reaching the browser (printed, not asserted)
    const answerToAudio = page.evaluate(() => new Promise<number>((resolve, reject) => {
      let clickedAt: number | undefined
      document.addEventListener('click', (e) => { if ((e.target as HTMLElement).closest('button')?.textContent === 'Ответить') clickedAt ??= performance.now() }, { capture: true })
      let listening: { context: AudioContext, analyser: AnalyserNode, bins: Float32Array<ArrayBuffer> } | undefined
      const deadline = performance.now() + 30_000
      const tick = () => {
        const stream = (document.querySelector('[data-testid=phone-audio]') as HTMLAudioElement | null)?.srcObject as MediaStream | null
        if (clickedAt !== undefined && stream && stream.getAudioTracks().length > 0 && !listening) {
          const context = new AudioContext()
          const analyser = context.createAnalyser()
          analyser.fftSize = 512
          analyser.smoothingTimeConstant = 0
          context.createMediaStreamSource(stream).connect(analyser)
          listening = { context, analyser, bins: new Float32Array(analyser.frequencyBinCount) }
        }
        if (listening && clickedAt !== undefined) {
          listening.analyser.getFloatFrequencyData(listening.bins)
          if (listening.bins[Math.round(1000 * 512 / listening.context.sampleRate)]! > -60) {
            resolve(performance.now() - clickedAt)
            void listening.context.close()
            return
          }
        }
        if (performance.now() > deadline) { reject(new Error('no audio after the answer')); return }
        setTimeout(tick, 5)
      }
      tick()
    }))
    await page.getByRole('button', { name: 'Ответить' }).click()
    process.stdout.write(`# answer to audio: the caller's 1000 Hz reached the browser ${(await answerToAudio).toFixed(0)} ms after the click on "answer"\n`)
    await dock.and(page.locator('[data-call=talking]')).waitFor({ timeout: 30_000 })
    await desk.waitFor(/state changed to CONFIRMED/, 'the desk phone connected')
    // what the browser hears: the remote stream's loudest frequency
    const heard = await eventually(async () => {
      const found = await page.evaluate(async () => {
        const audio = document.querySelector('[data-testid=phone-audio]') as HTMLAudioElement | null
        const stream = audio?.srcObject as MediaStream | null
        if (!stream) return undefined
        const context = new AudioContext()
        const analyser = context.createAnalyser()
        analyser.fftSize = 8192
        context.createMediaStreamSource(stream).connect(analyser)
        await new Promise((resolve) => setTimeout(resolve, 1000))
        const bins = new Float32Array(analyser.frequencyBinCount)
        analyser.getFloatFrequencyData(bins)
        let loudest = 1
        for (let i = 1; i < bins.length; i++) if (bins[i]! > bins[loudest]!) loudest = i
        await context.close()
        return { hz: loudest * context.sampleRate / analyser.fftSize, db: bins[loudest]! }
      })
      return found && Math.abs(found.hz - 1000) < 20 && found.db > -60 ? found : undefined
    }, 30_000, 'the desk phone\'s 1000 Hz heard in the browser')
    process.stdout.write(`# the browser hears ${heard.hz.toFixed(0)} Hz at ${heard.db.toFixed(0)} dB\n`)
    assert.match(await page.getByTestId('phone-timer').innerText(), /^\d+:\d\d$/)
    await screenshot(page, 'browser-phone-talking', { viewport: true })
    // the call's keys, as Asterisk sees them: a digit of the keypad (RFC 4733), hold and back, the microphone off and on
    const pbxSaw = (event: string, match: (f: Record<string, string>) => boolean) =>
      eventually(async () => recorder.events.some((e) => e.fields.Event === event && (e.fields.Channel ?? '').startsWith('PJSIP/404001-') && match(e.fields)) || undefined, 30_000, `${event} on the browser's channel`)
    await page.getByRole('button', { name: 'Клавиатура' }).click()
    await page.getByRole('button', { name: '5', exact: true }).click()
    await pbxSaw('DTMFEnd', (f) => f.Digit === '5' && f.Direction === 'Received')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Поставить на удержание' }).click()
    await pbxSaw('Hold', () => true)
    assert.equal(await page.getByTestId('phone-timer').innerText(), 'На удержании')
    await screenshot(page, 'browser-phone-held', { viewport: true })
    await page.getByRole('button', { name: 'Снять с удержания' }).click()
    await pbxSaw('Unhold', () => true)
    await page.getByRole('button', { name: 'Выключить микрофон' }).click()
    await page.getByRole('button', { name: 'Включить микрофон' }).waitFor()
    await sleep(3000)
    await page.getByRole('button', { name: 'Включить микрофон' }).click()
    await sleep(2000)
    await page.getByRole('button', { name: 'Завершить' }).click()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await desk.waitFor(/DISCONNECTED/, 'the desk phone hung up on')
    await desk.close()
    // what the desk phone heard: the browser's 440 Hz, well above the 1000 Hz it said itself
    const { pcm } = readWav(readFileSync(heardByDesk))
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2)
    const spoken = samples.subarray(samples.length - 16_000 * 3 / 2)
    assert.ok(powerAt(spoken, 16_000, 440) > 10 * powerAt(spoken, 16_000, 1000), 'the browser\'s tone heard at the desk')
    // the 3 s the microphone was off (ending 2 s before the hang-up): the browser's tone not heard
    const muted = samples.subarray(samples.length - 16_000 * 9 / 2, samples.length - 16_000 * 5 / 2)
    assert.ok(powerAt(muted, 16_000, 440) < powerAt(spoken, 16_000, 440) / 100, `muted: ${powerAt(muted, 16_000, 440)} against ${powerAt(spoken, 16_000, 440)}`)
  })

  it('a citizen\'s call through the line\'s queue rings the browser phone; answered, the desk pops the citizen and the line\'s record names the terminal, as for a desk phone', async () => {
    await api('PUT', '/api/agents/me', operator, { state: 'ready' })
    await page.goto(`${url}/console/desk`)
    const dock = page.getByTestId('phone')
    await dock.and(page.locator('[data-status=registered]')).waitFor({ timeout: 30_000 })
    const citizen = citizenPhone(pjsua, '+77010000001', 5301)
    phones.push(citizen)
    citizen.dial(lineUri('109'))
    await dock.and(page.locator('[data-call=ringing]')).waitFor({ timeout: 30_000 })
    assert.match(await page.getByTestId('phone-caller').innerText(), /77010000001/)
    await page.getByRole('button', { name: 'Ответить' }).click()
    await dock.and(page.locator('[data-call=talking]')).waitFor({ timeout: 30_000 })
    // the desk's pop, from Asterisk's AgentConnect alone
    await page.getByTestId('caller').getByText('+77010000001').waitFor({ timeout: 30_000 })
    await screenshot(page, 'browser-phone-desk-pop', { viewport: true })
    await sleep(1500)
    citizen.hangUp()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await citizen.close()
    const call = await eventually(async () => ((await api('GET', '/api/line-calls?limit=10')).items as { outcome: string, answered_by: string | null, ended_at: string | null }[])
      .find((c) => c.ended_at !== null), 30_000, 'the call kept')
    assert.deepEqual([call.outcome, call.answered_by], ['answered', 'PJSIP/404001'])
  })

  /** a citizen's call through line 109, answered at the browser phone */
  const citizenAnswered = async (port: number, playing?: string) => {
    const dock = page.getByTestId('phone')
    const citizen = citizenPhone(pjsua, '+77010000001', port, playing)
    phones.push(citizen)
    citizen.dial(lineUri('109'))
    await dock.and(page.locator('[data-call=ringing]')).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Ответить' }).click()
    await dock.and(page.locator('[data-call=talking]')).waitFor({ timeout: 30_000 })
    return citizen
  }

  /** the line's call as the service keeps it, as far as these tests read it */
  type LineCallSeen = {
    linkedid: string, caller_number: string, line: string | null, outcome: string, ended_at: string | null, queue: string, answered_by: string | null, talk_seconds: number | null,
    earlier_queues: { queue: string, answered_by: string | null }[], legs: { interface: string, number: string | null, how: string, from: string | null, talk_seconds: number | null }[]
  }
  /** the line's latest call, once it is as `ready` says */
  const latestCall = (ready: (call: LineCallSeen) => boolean, what: string) => eventually(async () => {
    const [latest] = (await api('GET', '/api/line-calls?limit=1')).items as LineCallSeen[]
    return latest !== undefined && ready(latest) ? latest : undefined
  }, 30_000, what)
  /** the citizen passed on from the browser: the one who has them answers, they talk a moment, the citizen hangs up */
  const passedOnAndTalked = async (citizen: Phone, answerer: Phone, who: string, heardBefore: number) => {
    await page.getByTestId('phone').and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await answerer.waitFor(/state changed to CONFIRMED/, `${who} answered`, 30_000, heardBefore)
    await sleep(1000)
    citizen.hangUp()
    await answerer.waitFor(/DISCONNECTED/, `${who} hung up on`, 30_000, heardBefore)
    await citizen.close()
    await answerer.close()
  }

  /** the colleague's desk phone, registered once the browser has the call (a member of the queue too, it would take it first) */
  const colleagueAt = async (port: number) => {
    const phone = await operatorPhone(pjsua, '404002', 'Abcdefghij0123456789', port)
    phones.push(phone)
    return phone
  }

  it('passed on from the console: blind to a colleague\'s desk phone (the browser is free, the citizen talks to the colleague); the refusals in words', async () => {
    const transfer = (payload: object) => t.app.inject({ method: 'POST', url: '/api/calls/transfer', headers: operator, payload })
    const notInCall = await transfer({ mode: 'blind', to: 'terminal', extension: '002' })
    assert.deepEqual([notInCall.statusCode, notInCall.json().code], [409, 'not_in_call'], notInCall.body)
    const dock = page.getByTestId('phone')
    const citizen = citizenPhone(pjsua, '+77010000001', 5302)
    phones.push(citizen)
    citizen.dial(lineUri('109'))
    await dock.and(page.locator('[data-call=ringing]')).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Ответить' }).click()
    await dock.and(page.locator('[data-call=talking]')).waitFor({ timeout: 30_000 })
    const colleague = await colleagueAt(5271)
    for (const [payload, status, code] of [
      [{ mode: 'blind', to: 'terminal', extension: '009' }, 404, undefined],
      [{ mode: 'blind', to: 'terminal', extension: '001' }, 409, 'own_terminal'],
      [{ mode: 'blind', to: 'terminal' }, 422, undefined],
      [{ mode: 'blind', to: 'line', number: '555' }, 404, undefined],
    ] as const) {
      const res = await transfer(payload)
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`)
      if (code) assert.equal(res.json().code, code)
    }
    // from the desk: the transfer's form, at once to the colleague
    await page.getByRole('button', { name: 'Передать звонок' }).click()
    await page.getByLabel('Внутренний номер', { exact: true }).fill('002')
    await screenshot(page, 'desk-transfer-form', { viewport: true })
    const passed = page.waitForResponse((r) => r.url().endsWith('/api/calls/transfer'))
    await page.getByRole('button', { name: 'Передать', exact: true }).click()
    assert.equal((await passed).status(), 202)
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await colleague.waitFor(/state changed to CONFIRMED/, 'the colleague talks to the citizen')
    await sleep(1000)
    assert.doesNotMatch(citizen.output(), /DISCONNECTED/, 'the citizen is still on the line')
    citizen.hangUp()
    await colleague.waitFor(/DISCONNECTED/, 'the colleague hung up on')
    await citizen.close()
    await colleague.close()
  })

  it('attended from the console: the operator consults the colleague with the citizen on hold, then completes; cancelled, the citizen is back', async () => {
    const dock = page.getByTestId('phone')
    const transfer = (url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: operator, ...(payload ? { payload } : {}) })
    const call = (port: number) => citizenAnswered(port)
    // cancelled: the consultation ends, the operator has the citizen back
    const first = await call(5303)
    const colleague = await colleagueAt(5281)
    const heardBefore = colleague.output().length
    const consulting = await transfer('/api/calls/transfer', { mode: 'attended', to: 'terminal', extension: '002' })
    assert.equal(consulting.statusCode, 202, consulting.body)
    await colleague.waitFor(/state changed to CONFIRMED/, 'the colleague consulted', 30_000, heardBefore)
    const cancelled = await transfer('/api/calls/transfer/cancel')
    assert.equal(cancelled.statusCode, 202, cancelled.body)
    await colleague.waitFor(/DISCONNECTED/, 'the consultation ended', 30_000, heardBefore)
    assert.equal(await dock.getAttribute('data-call'), 'talking', 'the operator still has the citizen')
    first.hangUp()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await first.close()
    await colleague.close()
    // cancelled while the colleague's phone still rings (it says 180 and never answers): the citizen is back, and the
    // call's path is the operator's alone, their talk the whole call's
    const third = await call(5313)
    const ringing = await operatorPhone(pjsua, '404002', 'Abcdefghij0123456789', 5282, undefined, { answer: 180 })
    phones.push(ringing)
    const ringsBefore = ringing.output().length
    assert.equal((await transfer('/api/calls/transfer', { mode: 'attended', to: 'terminal', extension: '002' })).statusCode, 202)
    await ringing.waitFor(/state changed to EARLY/, 'the colleague\'s phone rings', 30_000, ringsBefore)
    await sleep(2000)
    const given = await transfer('/api/calls/transfer/cancel')
    assert.equal(given.statusCode, 202, given.body)
    await ringing.waitFor(/DISCONNECTED/, 'the ringing stopped', 30_000, ringsBefore)
    await sleep(1000)
    assert.equal(await dock.getAttribute('data-call'), 'talking', 'the operator still has the citizen')
    third.hangUp()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await third.close()
    await ringing.close()
    const unanswered = await latestCall((c) => c.ended_at !== null && c.talk_seconds !== null, 'the call kept, ended')
    assert.deepEqual(unanswered.legs.map((l) => [l.interface, l.how]), [['PJSIP/404001', 'queue']], 'no leg for a consultation never answered')
    assert.ok(unanswered.legs[0]!.talk_seconds! >= 3, `the operator's talk is the whole call's, the consultation in it: ${JSON.stringify(unanswered)}`)
    // completed: the operator leaves, the citizen and the colleague talk
    const second = await call(5304)
    const colleagueAgain = await colleagueAt(5291)
    // from the desk: consult first, then connect the two and leave
    await page.getByTestId('caller').waitFor()
    await page.getByRole('button', { name: 'Передать звонок' }).click()
    await page.getByText('С консультацией', { exact: true }).click()
    await page.getByLabel('Внутренний номер', { exact: true }).fill('002')
    await page.getByRole('button', { name: 'Передать', exact: true }).click()
    await page.getByTestId('transfer-consulting').waitFor()
    await colleagueAgain.waitFor(/state changed to CONFIRMED/, 'the colleague consulted')
    await screenshot(page, 'desk-transfer-consulting', { viewport: true })
    await page.getByRole('button', { name: 'Соединить и выйти' }).click()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await sleep(1000)
    assert.doesNotMatch(second.output(), /DISCONNECTED/, 'the citizen is still on the line, with the colleague')
    assert.doesNotMatch(colleagueAgain.output(), /DISCONNECTED/)
    second.hangUp()
    await colleagueAgain.waitFor(/DISCONNECTED/, 'the colleague hung up on')
    await second.close()
    await colleagueAgain.close()
  })

  it('joined from the console: consulted, the three talk together; the operator leaves and the citizen and the colleague go on talking', async () => {
    const dock = page.getByTestId('phone')
    // the citizen says 1300 Hz; the colleague keeps what they hear
    const citizenSays = join(dir, 'citizen-1300.wav')
    writeFileSync(citizenSays, makeWav(8000, sine(8000, 1300, 10)))
    const heardByColleague = join(dir, 'colleague-heard.wav')
    recorder.mark('citizen +77010000001 dials 109, the browser phone 404001 answers')
    const citizen = await citizenAnswered(5305, citizenSays)
    const colleague = await operatorPhone(pjsua, '404002', 'Abcdefghij0123456789', 5311, undefined, { recording: heardByColleague })
    phones.push(colleague)
    const conference = () => t.app.inject({ method: 'POST', url: '/api/calls/transfer/conference', headers: operator })
    const notConsulting = await conference()
    assert.deepEqual([notConsulting.statusCode, notConsulting.json().code], [409, 'no_transfer'], notConsulting.body)
    await page.getByTestId('caller').waitFor()
    recorder.mark('the operator consults 002 from the desk (Atxfer)')
    await page.getByRole('button', { name: 'Передать звонок' }).click()
    await page.getByText('С консультацией', { exact: true }).click()
    await page.getByLabel('Внутренний номер', { exact: true }).fill('002')
    await page.getByRole('button', { name: 'Передать', exact: true }).click()
    await colleague.waitFor(/state changed to CONFIRMED/, 'the colleague consulted')
    recorder.send({ Action: 'CoreShowChannels', ActionID: 'consulting-1' })
    // another transfer while consulting is refused; then the three, from the desk
    const again = await t.app.inject({ method: 'POST', url: '/api/calls/transfer', headers: operator, payload: { mode: 'blind', to: 'queue' } })
    assert.deepEqual([again.statusCode, again.json().code], [409, 'in_consultation'], again.body)
    recorder.mark('the operator joins the three (threeway code)')
    await page.getByRole('button', { name: 'Разговор втроём' }).click()
    await page.locator('[data-testid=transfer-consulting][data-state=three]').waitFor()
    await screenshot(page, 'desk-transfer-three', { viewport: true })
    // the colleague hears the citizen: only a join brings them together
    await sleep(3000)
    recorder.send({ Action: 'CoreShowChannels', ActionID: 'three-1' })
    recorder.mark('the operator leaves the three')
    await page.getByRole('button', { name: 'Выйти, оставив их говорить' }).click()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await sleep(3000)
    assert.doesNotMatch(citizen.output(), /DISCONNECTED/, 'the citizen is still on the line, with the colleague')
    assert.doesNotMatch(colleague.output(), /DISCONNECTED/)
    recorder.mark('citizen hangs up')
    citizen.hangUp()
    await colleague.waitFor(/DISCONNECTED/, 'the colleague hung up on')
    await citizen.close()
    await colleague.close()
    const { pcm, sampleRate } = readWav(readFileSync(heardByColleague))
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2)
    const last = samples.subarray(samples.length - sampleRate * 2)
    assert.ok(powerAt(last, sampleRate, 1300) > 10 * powerAt(last, sampleRate, 440), 'the colleague hears the citizen after the operator left')
    // the line's record of each call passed on: who talked with the citizen, how they came, for how long
    type Leg = { interface: string, how: string, from: string | null, started_at: string, ended_at: string | null, talk_seconds: number | null }
    const calls = await eventually(async () => {
      const items = (await api('GET', '/api/line-calls?limit=10')).items as { linkedid: string, legs: Leg[], ended_at: string | null }[]
      return items.length >= 6 && items.slice(0, 6).every((c) => c.ended_at !== null) ? items.slice(0, 6).reverse() : undefined
    }, 30_000, 'the six calls kept')
    assert.deepEqual(calls.map((c) => c.legs.map((l) => [l.interface, l.how, l.from])), [
      [['PJSIP/404001', 'queue', null]],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404002', 'blind', 'PJSIP/404001']],
      // consulted and back: the operator's stretch after the consultation is a leg of its own
      [['PJSIP/404001', 'queue', null], ['PJSIP/404001', 'returned', null]],
      // a consultation never answered: nothing of it in the path
      [['PJSIP/404001', 'queue', null]],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404002', 'attended', 'PJSIP/404001']],
      [['PJSIP/404001', 'queue', null], ['PJSIP/404001', 'returned', null], ['PJSIP/404002', 'three_way', 'PJSIP/404001']],
    ])
    const [, back, joined] = calls[5]!.legs
    assert.ok(joined!.started_at < back!.ended_at!, 'the three talked together')
    assert.ok(Date.parse(joined!.ended_at!) - Date.parse(back!.ended_at!) >= 2000, 'the colleague talked on after the operator left')
    // each leg recorded (the line records by default): the operator's from the queue's answer, the colleague's from the transfer's
    for (const call of [calls[1]!, calls[4]!, calls[5]!]) {
      const terminals = await eventually(async () => {
        const found = ((await api('GET', `/api/line-calls/${call.linkedid}/recordings`)) as { terminal: string | null }[]).map((r) => r.terminal).sort()
        return found.length >= 2 ? found : undefined
      }, 60_000, `the legs of ${call.linkedid} recorded`)
      assert.deepEqual(terminals, ['404001', '404002'], call.linkedid)
    }
  })

  it('passed on to a number outside through the outbound routes, as the operator may call it: the number refused in words, the permitted one answered', async () => {
    const dock = page.getByTestId('phone')
    recorder.mark('citizen +77010000001 dials 109, the browser phone 404001 answers, passes it blind to +7 701 000 00 02 outside')
    const citizen = await citizenAnswered(5306)
    await page.getByTestId('caller').waitFor()
    // the desk's form: the outside number, refused on its field for an operator when no citizen has it
    await page.getByRole('button', { name: 'Передать звонок' }).click()
    await page.getByText('Сразу', { exact: true }).click() // the form keeps the last transfer's choices
    await page.getByText('На внешний номер', { exact: true }).click()
    await page.getByLabel('Номер телефона', { exact: true }).fill('87779998877')
    await page.getByRole('button', { name: 'Передать', exact: true }).click()
    await page.getByText('Оператор звонит гражданину обращения или из справочника').waitFor()
    await screenshot(page, 'desk-transfer-outside-refused', { viewport: true })
    const heardBefore = publicNetwork.output().length
    await page.getByLabel('Номер телефона', { exact: true }).fill('+7 701 000 00 02')
    const passed = page.waitForResponse((r) => r.url().endsWith('/api/calls/transfer'))
    await page.getByRole('button', { name: 'Передать', exact: true }).click()
    assert.equal((await passed).status(), 202)
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    // the dispatcher's phone on the public network is rung through the trunk, from the operator's terminal, and talks to the citizen
    await publicNetwork.waitFor(/state changed to CONFIRMED/, 'the dispatcher answered', 30_000, heardBefore)
    // the route's form of the number, from the operator's terminal (its long-distance permission and number given to the citizen's channel, which dials)
    assert.match(publicNetwork.output().slice(heardBefore), /INVITE sip:\+77010000002@127\.0\.0\.2:\d+ SIP\/2\.0\r\n(.*\r\n)*?From: <sip:404001@/)
    await sleep(1000)
    assert.doesNotMatch(citizen.output(), /DISCONNECTED/, 'the citizen is on the line, with the dispatcher')
    citizen.hangUp()
    await publicNetwork.waitFor(/DISCONNECTED/, 'the dispatcher hung up on', 30_000, heardBefore)
    await citizen.close()
    // the path names the number the citizen was passed to, through the trunk
    const call = await latestCall((c) => c.ended_at !== null && c.legs.length === 2, 'the call kept with its path')
    assert.deepEqual(call.legs.map((l) => [l.interface, l.number, l.how, l.from]), [['PJSIP/404001', null, 'queue', null], ['PJSIP/trunk1', '+77010000002', 'blind', 'PJSIP/404001']])
  })

  it('a desk phone\'s own transfer key (SIP REFER): the citizen passed from the desk phone to the browser, the line\'s record names both', async () => {
    // the browser's operator on a break: the colleague's desk phone, a member of the queue too, answers
    await api('PUT', '/api/agents/me', operator, { state: 'break', reason: 'lunch' })
    const dock = page.getByTestId('phone')
    const desk = await colleagueAt(5321)
    const citizen = citizenPhone(pjsua, '+77010000003', 5307)
    phones.push(citizen)
    const heardBefore = desk.output().length
    citizen.dial(lineUri('109'))
    await desk.waitFor(/state changed to CONFIRMED/, 'the desk phone answered from the queue', 30_000, heardBefore)
    await sleep(1000)
    desk.transfer(`sip:001@127.0.0.1:${SIP_PORT}`)
    await dock.and(page.locator('[data-call=ringing]')).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Ответить' }).click()
    await dock.and(page.locator('[data-call=talking]')).waitFor({ timeout: 30_000 })
    await desk.waitFor(/DISCONNECTED/, 'the desk phone free', 30_000, heardBefore)
    // the desk's record followed the citizen: the browser's desk pops them as at an answer
    await page.getByTestId('caller').getByText('+77010000003').waitFor({ timeout: 30_000 })
    await screenshot(page, 'desk-passed-on-to-browser', { viewport: true })
    await sleep(3000)
    assert.equal(await dock.getAttribute('data-call'), 'talking', 'still talking before the language changes')
    // the desk in Kazakh while talking: the phone and the transfer's form
    await page.getByText('Қазақша', { exact: true }).click()
    await sleep(2000)
    assert.equal(await dock.getAttribute('data-call'), 'talking', 'still talking after the language changed')
    await page.getByRole('button', { name: 'Қоңырауды ауыстыру' }).click()
    await page.getByText('Сыртқы нөмірге', { exact: true }).click()
    await page.getByText('Консольден қоңырау шалғандағыдай').waitFor()
    await screenshot(page, 'desk-transfer-kk', { viewport: true })
    await page.getByRole('button', { name: 'Қоңырауды ауыстыру' }).click()
    await page.getByText('Русский', { exact: true }).click()
    await sleep(1000)
    await page.getByRole('button', { name: 'Завершить' }).click()
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await citizen.waitFor(/DISCONNECTED/, 'the citizen hung up on')
    await citizen.close()
    await desk.close()
    const call = await latestCall((c) => c.caller_number === '+77010000003' && c.ended_at !== null, 'the call kept')
    assert.deepEqual(call.legs.map((l) => [l.interface, l.how, l.from]), [['PJSIP/404002', 'queue', null], ['PJSIP/404001', 'blind', 'PJSIP/404002']])
    assert.equal((await api('GET', `/api/call-events/calls/${call.linkedid}`)).operator_num, '404001', 'the desk\'s record is the browser operator\'s')
    await api('PUT', '/api/agents/me', operator, { state: 'ready' })
  })

  it('passed blind to another organization\'s line (the executor\'s dispatcher): its queue rings its terminal, the path names both', async () => {
    const dispatcher = await operatorPhone(pjsua, '405001', 'Abcdefghij0123456789', 5331)
    phones.push(dispatcher)
    const dock = page.getByTestId('phone')
    recorder.mark('the passed-on calls: citizen +77010000001 dials 109, the browser phone 404001 answers, passes it blind to line 5105')
    const citizen = await citizenAnswered(5308)
    const heardBefore = dispatcher.output().length
    const passed = await t.app.inject({ method: 'POST', url: '/api/calls/transfer', headers: operator, payload: { mode: 'blind', to: 'line', number: '5105' } })
    assert.equal(passed.statusCode, 202, passed.body)
    assert.equal(passed.json().to, '5105@appeals-inbound')
    await passedOnAndTalked(citizen, dispatcher, 'the dispatcher (from their queue)', heardBefore)
    const call = await latestCall((c) => c.ended_at !== null && c.legs.length === 2, 'the call kept with its two legs')
    assert.deepEqual(call.legs.map((l) => [l.interface, l.how, l.from]), [['PJSIP/404001', 'queue', null], ['PJSIP/405001', 'blind', 'PJSIP/404001']])
    assert.deepEqual([call.earlier_queues.map((q) => [q.queue, q.answered_by]), call.queue, call.answered_by], [[['org404-queue', 'PJSIP/404001']], 'org405-queue', 'PJSIP/405001'])

    // attended: the operator consults the dispatcher, who answers from their queue, and connects the citizen to them
    const secondDispatcher = await operatorPhone(pjsua, '405001', 'Abcdefghij0123456789', 5332)
    phones.push(secondDispatcher)
    recorder.mark('citizen +77010000001 dials 109, the browser phone 404001 answers, consults line 5105 and completes')
    const consulted = await citizenAnswered(5309)
    const consulting = await t.app.inject({ method: 'POST', url: '/api/calls/transfer', headers: operator, payload: { mode: 'attended', to: 'line', number: '5105' } })
    assert.equal(consulting.statusCode, 202, consulting.body)
    await secondDispatcher.waitFor(/state changed to CONFIRMED/, 'the dispatcher answered the consultation from their queue', 30_000)
    await sleep(1000)
    const completed = await t.app.inject({ method: 'POST', url: '/api/calls/transfer/complete', headers: operator })
    assert.equal(completed.statusCode, 202, completed.body)
    await dock.and(page.locator('[data-call=none]')).waitFor({ timeout: 30_000 })
    await sleep(1000)
    consulted.hangUp()
    await secondDispatcher.waitFor(/DISCONNECTED/, 'the dispatcher hung up on', 30_000)
    await consulted.close()
    await secondDispatcher.close()
    const attended = await latestCall((c) => c.linkedid !== call.linkedid && c.ended_at !== null && c.legs.length === 2, 'the attended call kept with its two legs')
    assert.deepEqual(attended.legs.map((l) => [l.interface, l.how, l.from]), [['PJSIP/404001', 'queue', null], ['PJSIP/405001', 'attended', 'PJSIP/404001']])
    assert.deepEqual(attended.earlier_queues.map((q) => [q.queue, q.answered_by]), [['org404-queue', 'PJSIP/404001']])

    // the figures count each call once in each queue it entered, in that queue's organization: the executor's manager sees
    // its queue answer both, the centre's its own queue answer both, and the line count each call once
    recorder.mark('the passed-on calls end')
    const executorFigures = await api('GET', '/api/line-calls/kpis', executorManager)
    assert.deepEqual(executorFigures.queues.map((q: { queue: string, offered: number, answered: number }) => [q.queue, q.offered, q.answered]), [['org405-queue', 2, 2]])
    assert.deepEqual(executorFigures.operators.map((o: { interface: string, calls: number }) => [o.interface, o.calls]), [['PJSIP/405001', 2]])
    assert.deepEqual(executorFigures.lines.lines, [])
    const centreFigures = await api('GET', '/api/line-calls/kpis', centreManager)
    const centreQueue = centreFigures.queues.find((q: { queue: string }) => q.queue === 'org404-queue')
    const centreLine = centreFigures.lines.lines.find((l: { line: string }) => l.line === '109')
    const centreCalls = (await api('GET', '/api/line-calls?limit=100')).items as LineCallSeen[]
    const throughLine = centreCalls.filter((c) => c.line === '109')
    assert.equal(centreLine.calls, throughLine.length, 'the line counts each of its calls once, passed on or not')
    assert.equal(centreQueue.answered, throughLine.filter((c) => (c.queue === 'org404-queue' && c.outcome === 'answered') || c.earlier_queues.some((q) => q.queue === 'org404-queue' && q.answered_by !== null)).length)
    // the centre's managers keep both calls in their list, now the executor's queue's
    const listedByCentre = ((await api('GET', '/api/line-calls?limit=100', centreManager)).items as LineCallSeen[]).map((c) => c.linkedid)
    assert.ok(listedByCentre.includes(call.linkedid) && listedByCentre.includes(attended.linkedid), 'the centre\'s list keeps the calls it passed on')
  })

  it('passed blind to another of the organization\'s queues from the desk: the first of its operators ready (the colleague\'s desk phone) answers there', async () => {
    recorder.mark('citizen +77010000001 dials 109, the browser phone 404001 answers, passes it blind to the queue Жалобы')
    const citizen = await citizenAnswered(5312)
    const colleague = await colleagueAt(5272)
    const heardBefore = colleague.output().length
    await page.getByRole('button', { name: 'Передать звонок' }).click()
    await page.getByLabel('В очередь (первому свободному)').check()
    await page.getByLabel('Очередь', { exact: true }).click()
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Жалобы' }).click()
    const passed = page.waitForResponse((r) => r.url().endsWith('/api/calls/transfer'))
    await page.getByRole('button', { name: 'Передать', exact: true }).click()
    assert.equal((await passed).status(), 202)
    await passedOnAndTalked(citizen, colleague, 'the colleague (from the queue)', heardBefore)
    const call = await latestCall((c) => c.ended_at !== null && c.legs.length === 2, 'the call kept with its two legs')
    assert.deepEqual([call.queue, call.answered_by, call.earlier_queues.map((q) => [q.queue, q.answered_by])], [`org404-q${complaintsQueue}`, 'PJSIP/404002', [['org404-queue', 'PJSIP/404001']]])
    assert.deepEqual(call.legs.map((l) => [l.interface, l.from]), [['PJSIP/404001', null], ['PJSIP/404002', 'PJSIP/404001']])

    // attended: Asterisk takes the queue's extension (*8<id>) as DTMF after the transfer code, the colleague answers from the queue, the operator connects them
    recorder.mark('citizen +77010000001 dials 109, the browser phone 404001 answers, consults the queue Жалобы and completes')
    const consulted = await citizenAnswered(5314)
    const colleagueAgain = await colleagueAt(5273)
    const consultedBefore = colleagueAgain.output().length
    const consulting = await t.app.inject({ method: 'POST', url: '/api/calls/transfer', headers: operator, payload: { mode: 'attended', to: 'queue', queue_id: complaintsQueue } })
    assert.equal(consulting.statusCode, 202, consulting.body)
    await colleagueAgain.waitFor(/state changed to CONFIRMED/, 'the colleague answered the consultation from the queue', 30_000, consultedBefore)
    const completed = await t.app.inject({ method: 'POST', url: '/api/calls/transfer/complete', headers: operator })
    assert.equal(completed.statusCode, 202, completed.body)
    await passedOnAndTalked(consulted, colleagueAgain, 'the colleague (consulted from the queue)', consultedBefore)
    const attended = await latestCall((c) => c.linkedid !== call.linkedid && c.ended_at !== null && c.legs.length === 2, 'the attended call kept with its two legs')
    assert.deepEqual(attended.legs.map((l) => [l.interface, l.how, l.from]), [['PJSIP/404001', 'queue', null], ['PJSIP/404002', 'attended', 'PJSIP/404001']])
    assert.equal(attended.queue, `org404-q${complaintsQueue}`)
  })

  it('the transports listen where the settings say: SIP on loopback only, TLS with its certificate (a phone registers over it), the router\'s address outside the local networks', async () => {
    const transports = await asterisk.cli('pjsip show transports')
    // its columns: the name, the protocol, cos, tos, the address
    for (const [name, bind] of [['transport-udp', `127.0.0.1:${SIP_PORT}`], ['transport-tcp', `127.0.0.1:${SIP_PORT}`], ['transport-tls', `127.0.0.1:${TLS_PORT}`]] as const) {
      assert.match(transports, new RegExp(`${name} +\\S+ +\\S+ +\\S+ +${bind.replace(/\./g, '\\.')}\\n`), transports)
    }
    const udp = await asterisk.cli('pjsip show transport transport-udp')
    assert.match(udp, /external_media_address +: 198\.51\.100\.9/)
    assert.match(udp, /external_signaling_address +: 198\.51\.100\.9/)
    assert.match(udp, /local_net +: 127\.0\.0\.0\/255\.0\.0\.0\n +local_net +: 192\.0\.2\.0\/255\.255\.255\.0\n/)
    const secure = await operatorPhone(pjsua, '404003', 'Abcdefghij0123456789', 5261, undefined, { tlsPort: TLS_PORT })
    phones.push(secure)
    const contacts = await asterisk.cli('pjsip show contacts')
    // the column is cut: `transport=TL`
    assert.match(contacts, /404003\/sip:\S+;transport=tl/i, contacts)
  })
})
