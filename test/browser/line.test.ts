import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import ExcelJS from 'exceljs'
import type { Browser } from 'playwright-core'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { replayedEvents } from '../helpers/ami-recording.js'
import { ADMIN, apiToken, downloadedBytes, launchChromium, newPage, noBrowser, screenshot, serviceApi, signIn, startServiceAsReadme } from '../helpers/console.js'

// The supervisor's wallboard in a real Chromium against `npm start`, whose AMI is the test peer
// replaying the real Asterisk 22.10.1 recordings: the board follows the line live as a caller joins,
// is answered, and another hangs up waiting; in Russian and in Kazakh; and the hall's screen.
describe('console: the line\'s wallboard (Chromium)', { skip: noBrowser }, () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let browser: Browser

  before(async () => {
    peer = await startAmiPeer()
    service = await startServiceAsReadme(peer.env())
    browser = await launchChromium()
    const admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    const [region] = await admin<{ id: number }[]>('GET', '/api/regions/tree')
    const org = await admin('POST', '/api/organizations', { name: 'Акимат города', region_id: region!.id, prefix: '101' })
    for (const extension of ['001', '002']) await admin('POST', `/api/organizations/${org.id}/endpoints/`, { name: `Пульт ${extension}`, extension, password: 'Abcdefghij0123456789' })
  })
  after(async () => {
    await browser?.close()
    await service?.stop()
    await peer?.close()
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
    await queues.getByRole('row', { name: /org101-queue\s+1\s+1\s+0/ }).waitFor({ timeout: 15_000 })
    await panel.getByTestId('agent-101001').getByText(/Обработка|Готов/).waitFor()

    // two callers hang up waiting (4 s and 5 s: one short abandon, one abandon)
    peer.replay('queue-abandoned.txt')
    await queues.getByRole('row', { name: /org101-queue\s+3\s+1\s+1 \+1/ }).waitFor({ timeout: 15_000 })
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
})
