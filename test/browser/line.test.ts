import assert from 'node:assert/strict'
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import type { Browser } from 'playwright-core'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { replayedEvents } from '../helpers/ami-recording.js'
import { asteriskWav, tone } from '../helpers/asterisk-wav.js'
import { eventually } from '../helpers/http-target.js'
import { ADMIN, apiToken, downloadedBytes, launchChromium, newPage, noBrowser, screenshot, serviceApi, signIn, startServiceAsReadme } from '../helpers/console.js'

// The supervisor's wallboard in a real Chromium against `npm start`, whose AMI is the test peer
// replaying the real Asterisk 22.10.1 recordings: the board follows the line live as a caller joins,
// is answered, and another hangs up waiting; in Russian and in Kazakh; and the hall's screen.
describe('console: the line\'s wallboard (Chromium)', { skip: noBrowser }, () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let browser: Browser
  let orgId = 0
  const recordings = mkdtempSync(join(tmpdir(), 'appeals-recordings-'))
  /** Asterisk's log: the peer writes what Asterisk 22.10.1 logs when it refuses an endpoint */
  const asteriskLog = join(recordings, 'asterisk-messages.log')

  before(async () => {
    peer = await startAmiPeer()
    service = await startServiceAsReadme({ ...peer.env(), RECORDINGS_DIR: recordings, RECORDING_SWEEP_INTERVAL: '1s', PBX_ASTERISK_LOG: asteriskLog })
    browser = await launchChromium()
    const admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    const [region] = await admin<{ id: number }[]>('GET', '/api/regions/tree')
    const org = await admin('POST', '/api/organizations', { name: 'Акимат города', region_id: region!.id, prefix: '101' })
    orgId = org.id
    for (const extension of ['001', '002']) await admin('POST', `/api/organizations/${org.id}/endpoints/`, { name: `Пульт ${extension}`, extension, password: 'Abcdefghij0123456789' })
  })
  after(async () => {
    await browser?.close()
    await service?.stop()
    await peer?.close()
    rmSync(recordings, { recursive: true, force: true })
  })

  it('the board follows the line live: a caller waits with the wait ticking, is answered, another abandons; in Kazakh too; the hall\'s screen', async () => {
    const page = await newPage(browser)
    await signIn(page, service.url, ADMIN, '/console/board')
    const panel = page.getByTestId('line-board')
    await panel.getByText('Никто не ждёт').waitFor({ timeout: 20_000 })
    await screenshot(page, 'line-01-quiet')

    // a citizen's call joins the queue: the caller is listed and the wait ticks
    const joined = replayedEvents('queue-answered.txt').findIndex((e) => e.message.Event === 'QueueCallerJoin') + 1
    peer.replay('queue-answered.txt', { to: joined })
    await panel.getByText('+77010000001').waitFor({ timeout: 15_000 })
    await panel.getByText('Ждут ответа: 1').waitFor()
    const wait = panel.getByTestId('wait')
    const first = await wait.textContent()
    await page.waitForFunction((before) => document.querySelector('[data-testid="wait"]')?.textContent !== before, first, { timeout: 10_000 })
    await screenshot(page, 'line-02-waiting')

    // the agent answers, talks, hangs up: nobody waits, the queue's answered call counted, the agent in wrap-up
    peer.replay('queue-answered.txt', { from: joined })
    await panel.getByText('Никто не ждёт').waitFor({ timeout: 15_000 })
    const queues = panel.getByTestId('line-queues')
    await queues.getByRole('row', { name: /Очередь организации\s+1\s+1\s+0/ }).waitFor({ timeout: 15_000 })
    await panel.getByTestId('agent-101001').getByText(/Обработка|Готов/).waitFor()

    // two callers hang up waiting (4 s and 5 s: one short abandon, one abandon)
    peer.replay('queue-abandoned.txt')
    await queues.getByRole('row', { name: /Очередь организации\s+3\s+1\s+1 \+1/ }).waitFor({ timeout: 15_000 })
    await panel.getByTestId('agent-101001').getByText(/: Перерыв ·/).waitFor({ timeout: 15_000 })
    await screenshot(page, 'line-03-abandoned')

    // in Kazakh
    await page.getByText('Қазақша').click()
    await panel.getByText('Желі: кезектер мен операторлар').waitFor()
    await panel.getByTestId('agent-101001').getByText(/: Үзілісте ·/).waitFor()
    assert.ok(await panel.getByText('Тастап кеткені').isVisible())
    await screenshot(page, 'line-04-kk')

    // today's figures by operator as a file, headed in Kazakh
    const reports = page.getByTestId('line-reports')
    await reports.getByTestId('line-report-kind').click()
    await page.getByTitle('Операторлар бойынша').click()
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), reports.getByTestId('line-report-download').click()])
    assert.match(file.suggestedFilename(), /^line-operator-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/)
    const book = new ExcelJS.Workbook()
    const bytes = await downloadedBytes(file)
    await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
    assert.equal(book.worksheets[0]!.name, 'Операторлар бойынша')
    assert.equal(book.worksheets[0]!.getRow(2).getCell(2).value, '101001')
    await screenshot(page, 'line-05-reports-kk')

    // the hall's screen, large figures
    await panel.getByTestId('hall-link').click()
    await page.getByTestId('hall').waitFor()
    assert.equal(await page.getByTestId('hall-answered').locator('.ant-statistic-content-value').textContent(), '1')
    assert.equal(await page.getByTestId('hall-abandoned').locator('.ant-statistic-content-value').textContent(), '2')
    // the hall's screen is the figures alone: no header, no menu
    assert.equal(await page.getByTestId('current-user').count(), 0, 'the console\'s header on the hall\'s screen')
    assert.equal(await page.locator('nav').count(), 0, 'the console\'s menu on the hall\'s screen')
    assert.equal(await page.getByTestId('hall-back').textContent(), 'Тақтаға оралу')
    await screenshot(page, 'line-06-hall-kk')
    await page.getByTestId('hall-back').click()
    await page.getByTestId('line-board').waitFor()

    // the line's own figures: the calls of a real Asterisk's 109 line (closed, menu paths, queues), in Kazakh
    peer.replay('line-109.txt')
    const lines = page.getByTestId('line-lines')
    await lines.getByRole('row', { name: /^109\s+7\s+1\s+1\s+1\s+1\s+2\s+1\s+3$/ }).waitFor({ timeout: 15_000 })
    assert.ok(await page.getByText('Бүгінгі желілер').isVisible())
    assert.ok(await lines.getByRole('columnheader', { name: 'Мәзірде тұтқаны қойды' }).isVisible())
    // the operators' breaks as the real Asterisk had them (lunch, meeting), their reasons in Kazakh
    await panel.getByTestId('agent-101001').getByText(/Үзілісте \(Түскі ас\)/).waitFor({ timeout: 15_000 })
    await panel.getByTestId('agent-101002').getByText(/Үзілісте \(Жиналыс\)/).waitFor()
    await screenshot(page, 'line-07-lines-kk')
    await page.close()
  })

  it('a recorded call on the appeal card: space plays it, arrows jump, 2x, the position kept on reload; its score of 2 waits on the review list until reviewed', async () => {
    const admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    // Asterisk 22's traffic of a call the citizen scored (here 2), and the leg MixMonitor left
    const RATED = '1795922610.0'
    peer.replay('queue-rated.txt', { rewrite: (m) => (m.Rating ? { ...m, Rating: '2' } : m) })
    writeFileSync(join(recordings, `${RATED}-1795922610.1-101001.wav`), asteriskWav(tone(12)))
    const call = await eventually(async () => (await admin<{ id: number, call_id: string }[]>('GET', '/api/call-events/calls?operator_num=101001')).find((c) => c.call_id === RATED), 20_000, 'the desk\'s record of the call')
    // what the transcriber heard (no SERVICE_TOKEN: an administrator's token posts it)
    await admin('POST', '/api/call-events/transcription', { call_id: RATED, operator_num: '101001', channel: 'caller', chunk_text: 'Третий день нет воды', full_text: 'Третий день нет воды' })
    const [classifier] = await admin<{ id: number }[]>('GET', '/api/classifiers')
    const tree = await admin<{ appeal_types: { id: number }[] }>('GET', `/api/classifiers/${classifier!.id}/tree`)
    const category = await admin('POST', '/api/classifiers/categories', { appeal_type_id: tree.appeal_types[0]!.id, name: 'Коммунальные услуги' })
    const water = await admin('POST', '/api/classifiers/subcategories', { category_id: category.id, name: 'Водоснабжение', priority: 3, time_to_work: 4, time_to_close: 40 })
    const [source] = await admin<{ id: number }[]>('GET', '/api/references/sources')
    const [method] = await admin<{ id: number }[]>('GET', '/api/references/response-methods')
    const appeal = await admin<{ id: number }>('POST', '/api/appeals', {
      citizen: { full_name: 'Абаев Марат', phone: '+77010000001' }, source_id: source!.id, language: 'kk', text: 'Нет воды третий день', subcategory_id: water.id,
      response_method_id: method!.id, call_row_id: call.id,
    })
    await eventually(async () => (await admin<unknown[]>('GET', `/api/line-calls/${RATED}/recordings`)).length === 1, 30_000, 'the recording taken over')

    const page = await newPage(browser)
    await signIn(page, service.url, ADMIN, `/console/appeals/${appeal.id}`)
    const player = page.getByTestId('recording-player')
    await player.waitFor({ timeout: 20_000 })
    const audio = () => page.evaluate(() => { const a = document.querySelector('audio')!; return { paused: a.paused, at: a.currentTime, duration: a.duration, rate: a.playbackRate } })
    await page.waitForFunction(() => (document.querySelector('audio')?.duration ?? 0) > 11, undefined, { timeout: 20_000 })
    await player.focus()
    await page.keyboard.press('Space')
    await page.waitForFunction(() => { const a = document.querySelector('audio')!; return !a.paused && a.currentTime > 0.3 }, undefined, { timeout: 20_000 })
    const before = (await audio()).at
    await page.keyboard.press('ArrowRight')
    assert.ok((await audio()).at >= before + 4.5, `→ jumps 5 s: ${before} → ${(await audio()).at}`)
    await player.getByText('2×').click()
    assert.equal((await audio()).rate, 2)
    await player.focus()
    await page.keyboard.press('Space')
    await page.waitForFunction(() => document.querySelector('audio')!.paused)
    const left = (await audio()).at
    assert.ok(left >= 5, `paused at ${left} s`)
    await screenshot(page, 'line-08-appeal-recording')
    // where it was left is where it starts after a reload
    await page.reload()
    await page.waitForFunction(() => (document.querySelector('audio')?.duration ?? 0) > 11, undefined, { timeout: 20_000 })
    await page.waitForFunction((at) => Math.abs(document.querySelector('audio')!.currentTime - Math.floor(at)) < 1.01, left, { timeout: 10_000 })
    // ArrowLeft goes back 5 s
    await player.focus()
    const kept = (await audio()).at
    await page.keyboard.press('ArrowLeft')
    assert.ok(Math.abs((await audio()).at - Math.max(0, kept - 5)) < 0.5)

    // the score of 2 on the supervisors' review list, with its recording; reviewed with a comment, it leaves the list
    await page.goto(`${service.url}/console/calls`)
    await page.getByTestId('review-tab').getByText('На разбор (1)').waitFor({ timeout: 20_000 })
    await page.getByTestId('review-tab').click()
    const list = page.getByTestId('review-list')
    await list.getByTestId('recording-player').waitFor({ timeout: 20_000 })
    await list.getByTestId('call-transcript').getByText('Третий день нет воды').waitFor({ timeout: 20_000 })
    // the call's path, from Asterisk's bridges: who talked with the citizen and how the call came to them
    assert.match(await list.getByTestId('call-path').getByTestId('call-leg').innerText(), /^101001 · ответил из очереди · \d\d:\d\d(:\d\d)? · \d+:\d\d$/)
    await list.getByRole('button', { name: 'Отметить разобранным' }).click()
    await list.getByText('Напишите, что выяснено при разборе').waitFor()
    await screenshot(page, 'line-09-review-empty-comment')
    await list.getByLabel('Что выяснено и что сделано').fill('Прослушано: оператор не уточнил адрес; беседа проведена')
    await list.getByRole('button', { name: 'Отметить разобранным' }).click()
    await page.getByTestId('review-tab').getByText('На разбор (0)').waitFor({ timeout: 20_000 })
    await list.getByText('Низких оценок на разбор нет').waitFor()
    const reviewed = await admin<{ review_comment: string, rating: number }>('GET', `/api/line-calls/${RATED}`)
    assert.deepEqual([reviewed.rating, reviewed.review_comment], [2, 'Прослушано: оператор не уточнил адрес; беседа проведена'])
    // in Kazakh, the calls' list with the score
    await page.getByText('Қазақша').click()
    await page.getByRole('tab', { name: 'Барлық қоңыраулар' }).click()
    await page.getByTestId('line-calls').getByTestId('call-rating').first().waitFor()
    await screenshot(page, 'line-10-calls-kk')
    // on a phone (390 px): an opened call fits the screen, not the width the table scrolls to; the pages' arrows are named in words
    const phone = await newPage(browser, { width: 390, height: 844 })
    await signIn(phone, service.url, ADMIN, '/console/calls')
    await phone.getByRole('tab', { name: 'Все звонки' }).click()
    const calls = phone.getByTestId('line-calls')
    await calls.locator('tr.ant-table-row').first().click()
    await calls.getByTestId('call-detail').getByTestId('recording-player').waitFor({ timeout: 20_000 })
    const opened = await calls.getByTestId('call-detail').boundingBox()
    assert.ok(opened && opened.x >= 0 && opened.x + opened.width <= 390, `the opened call within the screen: ${JSON.stringify(opened)}`)
    const playerBox = await calls.getByTestId('recording-player').boundingBox()
    assert.ok(playerBox && playerBox.x + playerBox.width <= 390, `the player's keys on the screen: ${JSON.stringify(playerBox)}`)
    await eventually(async () => JSON.stringify(await phone.locator('.ant-pagination-prev .anticon, .ant-pagination-next .anticon').evaluateAll((icons) => icons.map((i) => i.getAttribute('aria-label')))) === '["Назад","Вперёд"]', 10_000, 'the pages\' arrows named in Russian')
    assert.equal(await phone.locator('[aria-label="left"], [aria-label="right"]').count(), 0, 'no English name left')
    await screenshot(phone, 'line-10b-call-opened-390')
    await phone.close()
    // the board: the disk the recordings take and what arrived today (no RECORDINGS_MAX_BYTES here)
    await page.goto(`${service.url}/console/board`)
    const disk = page.getByTestId('recordings-disk')
    await disk.getByText('Бүгін түсті').waitFor({ timeout: 20_000 })
    assert.match(await disk.innerText(), /Бүгін түсті\s+[1-9][\d\s,.]* КБ/)
    assert.match(await disk.getByTestId('disk-days-left').innerText(), /шек қойылмаған/)
    await disk.scrollIntoViewIfNeeded()
    await screenshot(page, 'line-11-board-disk-kk')
    await page.close()
  })
  it('"Call" on the appeal card: the operator\'s phone, then the citizen\'s, each step said live; the call in the appeal\'s history; a refusal said in words; in Kazakh', async () => {
    const admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    // an executor's operator at terminal 101001, signed in with the invitation's link (no SMTP here)
    const operator = { email: 'executor@akimat.kz', password: 'Executor-passw0rd-1' }
    const { id: operatorId } = await admin<{ id: number }>('POST', '/api/employees', { email: operator.email, last_name: 'Омарова', first_name: 'Дана', organization_id: orgId, role: 'operator' })
    const invite = await admin<{ link: string }>('POST', `/api/auth/send-invite/${operatorId}`)
    await serviceApi(service.url)('POST', '/api/auth/invite/activate', { token: new URL(invite.link).searchParams.get('token'), password: operator.password })
    await admin('PUT', `/api/organizations/${orgId}/endpoints/101001`, { employee_id: operatorId, allow_long_distance: true })
    const [source] = await admin<{ id: number }[]>('GET', '/api/references/sources')
    const [method] = await admin<{ id: number }[]>('GET', '/api/references/response-methods')
    const [classifier] = await admin<{ id: number }[]>('GET', '/api/classifiers')
    const tree = await admin<{ appeal_types: { id: number, categories: { id: number, subcategories: { id: number }[] }[] }[] }>('GET', `/api/classifiers/${classifier!.id}/tree`)
    const subcategory = tree.appeal_types.flatMap((a) => a.categories.flatMap((c) => c.subcategories))[0]!
    const appeal = await admin<{ id: number }>('POST', '/api/appeals', {
      citizen: { full_name: 'Сейткали Нурлан', phone: '+77010000002' }, source_id: source!.id, language: 'ru', text: 'Нет отопления, прошу перезвонить',
      subcategory_id: subcategory.id, response_method_id: method!.id, executor_organization_id: orgId,
    })
    const api = serviceApi(service.url, await apiToken(service.url, operator))
    await api('POST', `/api/appeals/${appeal.id}/take`)

    const page = await newPage(browser)
    await signIn(page, service.url, operator, `/console/appeals/${appeal.id}`)
    const button = page.getByRole('button', { name: 'Позвонить +77010000002' })
    // no phone registered at the terminal: said in words, nothing placed
    peer.state.endpoints = ['101001']
    peer.state.contacts = []
    await button.click()
    await page.getByTestId('call-problem').getByText('Ваш SIP-телефон не зарегистрирован').waitFor({ timeout: 15_000 })
    await screenshot(page, 'calls-01-terminal-offline')

    peer.state.contacts = [{ endpoint: '101001', uri: 'sip:101001@127.0.0.1:5070', userAgent: 'pjsua', status: 'Reachable', roundtripUsec: '900' }]
    await button.click()
    const progress = page.getByTestId('call-progress')
    await progress.getByText('Звонит ваш телефон: снимите трубку').waitFor({ timeout: 15_000 })
    const order = await eventually(async () => peer.state.received.find((a) => a.Action === 'Originate' && a.Channel === 'PJSIP/101001'), 10_000, 'the Originate')
    assert.equal(order.Exten, '87010000002')
    await screenshot(page, 'calls-02-ringing-you')
    // Asterisk's events of the call (placed-call.txt) under the Linkedid the service gave: answered, the citizen rung, connected; then the hang-up
    const RECORDED = '1795954364.7000000001'
    const hangUp = replayedEvents('placed-call.txt').findIndex((e) => e.message.Event === 'BridgeLeave')
    const rewrite = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.replace(RECORDED, order.ChannelId!)]))
    peer.replay('placed-call.txt', { to: hangUp, rewrite })
    await progress.getByText(/Разговор · \d:\d\d/).waitFor({ timeout: 15_000 })
    await screenshot(page, 'calls-03-connected')
    peer.replay('placed-call.txt', { from: hangUp, rewrite })
    await progress.getByText(/Звонок завершён · \d:\d\d/).waitFor({ timeout: 15_000 })
    const history = page.getByTestId('history-call')
    await history.getByText(/Звонок на \+7701\*+02 · Звонок завершён · разговор \d:\d\d/).waitFor({ timeout: 15_000 })
    await screenshot(page, 'calls-04-in-history')

    // in Kazakh: the history line and the button
    await page.getByText('Қазақша').click()
    await history.getByText(/\+7701\*+02 нөміріне қоңырау · Қоңырау аяқталды/).waitFor()
    assert.ok(await page.getByRole('button', { name: '+77010000002 нөміріне қоңырау шалу' }).isVisible())
    await screenshot(page, 'calls-05-kk')
    await page.close()
  })
  it('a callback requested: beside the callers waiting on the board, in its place (ru/kk)', async () => {
    // the recorded caller who pressed 1 in org101-queue (callback.txt), up to the callback being placed
    const callbackStarts = replayedEvents('callback.txt').findIndex((e) => (e.message.Linkedid ?? e.message.Uniqueid) === '1795956636.7000000002')
    peer.replay('callback.txt', { to: callbackStarts })
    const page = await newPage(browser)
    await signIn(page, service.url, ADMIN, '/console/board')
    const list = page.getByTestId('line-callbacks')
    await list.getByText('+77010000001').waitFor({ timeout: 20_000 })
    await page.getByText('Обратные звонки: 1').waitFor()
    await list.getByText('Ждёт', { exact: true }).waitFor()
    await screenshot(page, 'calls-06-board-callbacks')
    await page.getByText('Қазақша').click()
    await page.getByText('Кері қоңыраулар: 1').waitFor()
    await list.getByText('Күтуде', { exact: true }).first().waitFor()
    await screenshot(page, 'calls-07-board-callbacks-kk')
    await page.close()
  })
  it('the PBX applies edits by itself: the time on the PBX page; an organization refused is named with the reason beside its telephony (ru/kk)', async () => {
    const admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    const page = await newPage(browser)
    await signIn(page, service.url, ADMIN, '/console/admin/pbx')
    const state = page.getByTestId('pbx-apply-state')
    await page.getByTestId('pbx-apply').getByText(/Применено в \d\d:\d\d:\d\d/).waitFor({ timeout: 20_000 })
    assert.equal(await state.getAttribute('data-state'), 'applied')
    await page.getByTestId('pbx-status').getByText(/Подключено\s*Asterisk отвечает/).waitFor()
    // a forwarding to an extension that is no terminal: the organization keeps its last good configuration
    await admin('PUT', `/api/organizations/${orgId}/endpoints/101001`, { cf_busy_enabled: true, cf_busy_dest: '555' })
    const refused = page.getByTestId('pbx-apply-refused')
    await refused.getByText(/busy forwarding to 555/).waitFor({ timeout: 20_000 })
    await refused.getByText('101 · Акимат города').waitFor()
    await screenshot(page, 'pbx-01-apply-refused')
    await page.goto(`${service.url}/console/admin/routing?organization=${orgId}`)
    await page.getByTestId('organization-apply-state').getByText('Отклонено: действует прежняя версия').waitFor({ timeout: 20_000 })
    await page.getByTestId('organization-apply-problem').getByText(/busy forwarding to 555/).waitFor()
    await screenshot(page, 'pbx-02-routing-refused')
    await page.getByText('Қазақша').click()
    await page.getByTestId('organization-apply-state').getByText('Қабылданбады: бұрынғы нұсқа әрекет етеді').waitFor()
    await screenshot(page, 'pbx-03-routing-refused-kk')
    // fixed in the terminals' page's form, its state beside it turns applied
    await admin('PUT', `/api/organizations/${orgId}/endpoints/101001`, { cf_busy_enabled: false })
    await page.goto(`${service.url}/console/admin/terminals?organization=${orgId}`)
    await page.getByTestId('organization-apply-state').getByText(/\d\d:\d\d:\d\d қолданылды/).waitFor({ timeout: 20_000 })
    await screenshot(page, 'pbx-04-terminals-applied-kk')
    // a codec Asterisk does not know: written, and refused by Asterisk in its log; said in its words
    peer.state.onAction = (action) => {
      if (action.Command === 'module reload res_pjsip.so') appendFileSync(asteriskLog, '[2026-11-29 17:33:14.910] ERROR[14790] res_sorcery_config.c: Could not create an object of type \'endpoint\' with id \'101001\' from configuration file \'pjsip.conf\'\n')
    }
    await admin('PUT', `/api/organizations/${orgId}/endpoints/101001`, { allow: 'nosuchcodec' })
    await page.getByTestId('organization-apply-problem').getByText(/Asterisk ұйым конфигурациясының/).waitFor({ timeout: 20_000 })
    await page.getByTestId('organization-apply-problem').getByText(/Could not create an object of type 'endpoint' with id '101001'/).waitFor()
    await screenshot(page, 'pbx-05-terminals-asterisk-refused-kk')
    await page.getByText('Русский').click()
    await page.goto(`${service.url}/console/admin/pbx`)
    await page.getByTestId('pbx-apply-refused').getByText('Asterisk', { exact: true }).waitFor({ timeout: 20_000 })
    await screenshot(page, 'pbx-06-asterisk-refused')
    peer.state.onAction = undefined
    await admin('PUT', `/api/organizations/${orgId}/endpoints/101001`, { allow: 'alaw,ulaw' })
    await page.getByTestId('pbx-apply-refused').waitFor({ state: 'detached', timeout: 20_000 })
    await page.close()
  })
})
