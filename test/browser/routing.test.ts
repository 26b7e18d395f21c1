import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { makeWav } from '../../src/lib/audio/index.js'
import { eventually } from '../helpers/http-target.js'
import { ADMIN, apiToken, launchChromium, newPage, noBrowser, screenshot, serviceApi, signIn, startServiceAsReadme } from '../helpers/console.js'

interface Line { number: string, schedule_id: number | null, destination: { kind: string, menu_id: number | null }, closed_destination: { kind: string, prompt_id: number | null } }

const tone = (rate: number) => Int16Array.from({ length: rate }, (_, i) => Math.round(6000 * Math.sin(2 * Math.PI * 440 * i / rate)))

/** an Ant Design select in the open dialog: open it by its label, pick the option */
async function pick (page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click()
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click()
}

// The call routing page in a real Chromium against `npm start`: an admin builds the 109 line of an
// organization — a prompt uploaded and played back, a schedule on the centre's calendar, a language
// menu — and the service holds what the page said; then the desk's availability switch.
describe('console: call routing (Chromium)', { skip: noBrowser }, () => {
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let browser: Browser
  let page: Page
  let admin: ReturnType<typeof serviceApi>
  let org: number

  before(async () => {
    service = await startServiceAsReadme({})
    browser = await launchChromium()
    admin = serviceApi(service.url, await apiToken(service.url, ADMIN))
    org = (await admin('POST', '/api/organizations/', { org_name: 'Единый контакт-центр 109', org_prefix: '109' })).id
    await admin('POST', `/api/organizations/${org}/endpoints/`, { name: 'Оператор 1', extension: '001', password: 'Abcdefghij0123456789' })
    page = await newPage(browser)
    await signIn(page, service.url, ADMIN, `/console/admin/routing?organization=${org}&tab=prompts`)
  })
  after(async () => {
    await browser?.close()
    await service?.stop()
  })

  it('a prompt: a wrong file is refused in words, a WAV uploaded and played back in the browser', async () => {
    await page.getByRole('heading', { name: 'Маршрутизация' }).waitFor()
    await page.getByRole('button', { name: 'Новая запись' }).click()
    await page.getByRole('dialog').getByLabel('Название').fill('Выбор языка')
    await page.getByRole('dialog').getByRole('button', { name: 'Сохранить' }).click()
    await page.getByRole('dialog').waitFor({ state: 'hidden' })
    const upload = (name: string, buffer: Buffer) => page.getByRole('button', { name: 'Загрузить: Выбор языка: Русский' }).locator('xpath=ancestor::span[contains(@class, "ant-upload")][1]').locator('input[type=file]')
      .setInputFiles({ name, mimeType: 'audio/wav', buffer })
    await upload('notes.wav', Buffer.from('Текст, сохранённый с расширением wav'))
    // in the console's language, beside the button: no English from the service
    await page.getByText('Это не звуковой файл: подходят WAV, MP3, Ogg, M4A, FLAC', { exact: true }).waitFor()
    await screenshot(page, '60-routing-prompt-refused')
    await upload('privet.wav', makeWav(8000, tone(8000)))
    const audio = page.getByLabel('Выбор языка: Русский', { exact: true })
    await audio.waitFor()
    await page.getByText('1 с, 8 кГц').waitFor()
    // the browser decodes the recording the service answers (its length in samples is the file's) and plays it:
    // playback has begun once its position moves, however long a loaded machine takes to get there
    const samples = await audio.evaluate(async (el: HTMLAudioElement) => {
      el.muted = true
      await el.play()
      return Math.round(el.duration * 8000)
    })
    assert.equal(samples, 8000, 'the browser decoded the 8,000 samples uploaded')
    await page.waitForFunction((label) => (document.querySelector(`audio[aria-label="${label}"]`) as HTMLAudioElement).currentTime > 0, 'Выбор языка: Русский', { timeout: 30_000 })
    await screenshot(page, '61-routing-prompts')
  })

  it('a line with a language menu and a schedule on the centre\'s calendar; the service has what the page said', async () => {
    await page.getByRole('tab', { name: 'Расписания' }).click()
    await page.getByRole('button', { name: 'Новое расписание' }).click()
    await page.getByRole('dialog').getByLabel('Название').fill('Рабочее время центра')
    await page.getByRole('dialog').getByRole('button', { name: 'Сохранить' }).click()
    await page.getByRole('dialog').waitFor({ state: 'hidden' })

    await page.getByRole('tab', { name: 'Голосовые меню' }).click()
    await page.getByRole('button', { name: 'Новое меню' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Название').fill('Язык / Тіл')
    await pick(page, 'Запись', 'Выбор языка')
    for (const [i, digit, language] of [[0, '1', 'Казахский'], [1, '2', 'Русский']] as const) {
      await dialog.getByRole('button', { name: 'Добавить кнопку' }).click()
      await dialog.getByLabel('Кнопка').nth(i).fill(digit)
      await dialog.getByLabel('Язык звонка').nth(i).click()
      await page.locator('.ant-select-dropdown:visible').getByTitle(language, { exact: true }).click()
      await dialog.getByLabel('Куда: куда').nth(i).click()
      await page.locator('.ant-select-dropdown:visible').getByTitle('Очередь', { exact: true }).click()
      await dialog.getByLabel('Куда: Очередь').nth(i).click()
      await page.locator('.ant-select-dropdown:visible').getByTitle('Очередь организации', { exact: true }).click()
    }
    await screenshot(page, '62-routing-menu')
    // a number out of its bounds is said on its field, not changed behind the administrator's back
    await dialog.getByLabel('Повторов записи').fill('9')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.getByText('Не меньше 1 и не больше 5').waitFor()
    assert.equal(await dialog.getByLabel('Повторов записи').inputValue(), '9')
    await dialog.getByLabel('Повторов записи').fill('2')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.waitFor({ state: 'hidden' })

    await page.getByRole('tab', { name: 'Входящие линии' }).click()
    await page.getByRole('button', { name: 'Новая линия' }).click()
    await dialog.getByLabel('Номер').fill('1O9')
    await dialog.getByLabel('Название').fill('Единый номер 109')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.getByText('Цифры, можно с + в начале; от 2 до 20 знаков').waitFor()
    await dialog.getByLabel('Номер').fill('109')
    // what plays before any choice: in Kazakh
    await dialog.getByText('Казахский', { exact: true }).click()
    await pick(page, 'Расписание', 'Рабочее время центра')
    await pick(page, 'Куда идёт звонок: куда', 'Голосовое меню')
    await pick(page, 'Куда идёт звонок: Голосовое меню', 'Язык / Тіл')
    await pick(page, 'В нерабочее время: куда', 'Сообщение и отбой')
    await pick(page, 'В нерабочее время: Сообщение и отбой', 'Выбор языка')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByTestId('lines').getByText('Голосовое меню: Язык / Тіл').waitFor()
    await screenshot(page, '63-routing-lines')
    // the prompt says where it plays and in which language: the line's closed announcement in the line's, the menu's in the caller's
    await page.getByRole('tab', { name: 'Записи' }).click()
    const prompts = page.getByTestId('prompts')
    await prompts.getByText('линия 109 · Казахский').waitFor()
    await prompts.getByText('меню «Язык / Тіл» · на языке звонящего').waitFor()
    await screenshot(page, '63a-routing-prompt-uses')

    // a queue whole: a ring time out of bounds is said, not changed; a member with its penalty, the periodic announcement
    await page.getByRole('tab', { name: 'Очереди' }).click()
    await page.getByRole('button', { name: 'Новая очередь' }).click()
    await dialog.getByLabel('Название').fill('Резервная')
    await dialog.getByLabel('Звонок участнику').fill('2')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.getByText('Не меньше 5 и не больше 300').waitFor()
    assert.equal(await dialog.getByLabel('Звонок участнику').inputValue(), '2', 'what was typed stays as typed')
    await dialog.getByLabel('Звонок участнику').fill('25')
    await dialog.getByRole('button', { name: 'Добавить участника' }).click()
    await dialog.getByLabel('Участник очереди').click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('109001 · Оператор 1', { exact: true }).click()
    // the member's penalty: the dialog's last number (the members follow the queue's settings)
    await dialog.locator('input[inputmode=numeric]').last().fill('3')
    await pick(page, 'Сообщение ожидающим', 'Выбор языка')
    await dialog.getByLabel('Каждые').fill('30')
    await screenshot(page, '63b-routing-queue-form')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.waitFor({ state: 'hidden' })
    const reserve = (await admin<{ name: string, ring_timeout: number, retry: number, members: { terminal_id: string, penalty: number }[], periodic_prompt_id: number | null, periodic_announce_seconds: number }[]>('GET', `/api/organizations/${org}/queues`)).find((q) => q.name === 'Резервная')!
    assert.deepEqual([reserve.ring_timeout, reserve.retry, reserve.members, reserve.periodic_announce_seconds], [25, 5, [{ terminal_id: '109001', penalty: 3 }], 30])
    assert.notEqual(reserve.periodic_prompt_id, null)

    const [line] = await admin<Line[]>('GET', `/api/organizations/${org}/lines`)
    const [menu] = await admin<{ id: number, options: { digit: string, language: string }[] }[]>('GET', `/api/organizations/${org}/menus`)
    assert.equal(line!.number, '109')
    assert.equal((line as unknown as { language: string }).language, 'kk')
    assert.notEqual(line!.schedule_id, null)
    assert.deepEqual([line!.destination.kind, line!.destination.menu_id, line!.closed_destination.kind], ['menu', menu!.id, 'announcement'])
    assert.deepEqual(menu!.options.map((o) => [o.digit, o.language]), [['1', 'kk'], ['2', 'ru']])
    const extensions = await admin<{ content: string }>('GET', '/api/pbx/preview/extensions')
    assert.match(extensions.content, /exten => 109,1,NoOp\(line 109 of organization 109\)\n same => n,Answer\(\)\n same => n,Set\(CHANNEL\(language\)=kk\)/)
    assert.match(extensions.content, /Set\(CHANNEL\(language\)=kk\)/)
  })

  it('the desk\'s switch: a break with its reason is kept; without AMI the desk says the PBX is not connected', async () => {
    // the administrator sits at the desk too: at a terminal of the organization
    const me = await admin<{ id: number }>('GET', '/api/auth/profile')
    await admin('PUT', `/api/employees/${me.id}`, { organization_id: org })
    await admin('POST', `/api/organizations/${org}/endpoints/`, { name: 'Рабочее место администратора', extension: '002', password: 'Abcdefghij0123456789', employee_id: me.id })
    // the break reasons are the administrator's list: one added on the PBX page, its limit said on its field first
    await page.goto(`${service.url}/console/admin/pbx`)
    const reasons = page.getByTestId('break-reasons')
    await reasons.getByRole('button', { name: 'Новая причина' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Название (рус.)').fill('Намаз')
    await dialog.getByLabel('Название (каз.)').fill('Намаз')
    await dialog.getByLabel('Не дольше').fill('600')
    await dialog.getByLabel('Код для АТС').fill('prayer')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.getByText('Не меньше 1 и не больше 480').waitFor()
    await dialog.getByLabel('Не дольше').fill('20')
    await dialog.getByRole('button', { name: 'Сохранить' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await reasons.getByRole('row', { name: /Намаз\s+Намаз\s+20 мин\s+prayer/ }).waitFor()
    await screenshot(page, '64b-pbx-break-reasons')
    await page.goto(`${service.url}/console/desk`)
    const state = page.getByTestId('agent-state')
    await state.getByText('АТС не подключена').waitFor()
    assert.equal(await state.getByLabel('Причина').count(), 0, 'no reason to pick while ready')
    await state.getByText('Перерыв', { exact: true }).click()
    await state.getByLabel('Причина').click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('Намаз', { exact: true }).waitFor()
    await page.locator('.ant-select-dropdown:visible').getByTitle('Обед', { exact: true }).click()
    const chosen = await eventually(async () => {
      const c = (await admin<{ chosen: { state: string, reason: string | null } | null }>('GET', '/api/agents/me')).chosen
      return c?.reason === 'lunch' && c
    }, 10_000, 'the break for lunch kept')
    assert.equal(chosen.state, 'break')
    await screenshot(page, '65-desk-break')

    // the board says the PBX is not connected, and lists the queues configured, at zero
    await page.goto(`${service.url}/console/board`)
    await page.getByTestId('board-pbx').getByText('АТС не подключена').waitFor()
    const queues = page.getByTestId('line-queues')
    await queues.getByRole('row', { name: /^Очередь организации\s+0\s+0\s+0/ }).waitFor()
    assert.equal(await page.getByText('Операторов в очередях нет').count(), 0, 'no word that nobody works where nothing is known')
    await page.getByText('Состояние операторов неизвестно без АТС').waitFor()
    await screenshot(page, '65a-board-without-pbx')
  })

  it('the same page in Kazakh', async () => {
    await page.goto(`${service.url}/console/admin/routing?organization=${org}&tab=menus`)
    await page.getByText('Қазақша').click()
    await page.getByRole('heading', { name: 'Бағыттау' }).waitFor()
    await page.getByRole('tab', { name: 'Дауыстық мәзірлер' }).click()
    await page.getByText('Қазақ тілі').first().waitFor()
    await screenshot(page, '64-routing-kk')

    // a weekly schedule's refusals said on their rows, in Kazakh: hours ending before they open, then two rows of one day that overlap
    await page.getByRole('tab', { name: 'Кестелер' }).click()
    await page.getByRole('button', { name: 'Жаңа кесте' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Атауы').fill('Сенбі')
    await dialog.getByText('Апта күндері бойынша').click()
    await dialog.getByRole('button', { name: 'Уақыт қосу' }).click()
    await dialog.getByRole('button', { name: 'Уақыт қосу' }).click()
    // a new row is the next day with the last row's hours; the whole working week at once adds the days still missing
    await dialog.getByRole('button', { name: 'Жұмыс күндеріне уақыт (дс–жм)' }).click()
    await dialog.getByLabel('Күн', { exact: true }).nth(4).waitFor()
    const days = await Promise.all([0, 1, 2, 3, 4].map((row) => dialog.getByLabel('Күн', { exact: true }).nth(row).locator('xpath=ancestor-or-self::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]').innerText()))
    assert.deepEqual(days.map((d) => d.trim()), ['Дс', 'Сс', 'Ср', 'Бс', 'Жм'])
    for (let row = 4; row >= 2; row--) await dialog.getByRole('button', { name: 'Уақытты алып тастау' }).nth(row).click()
    // the second row made Monday again: its hours against the first's
    await dialog.getByLabel('Күн', { exact: true }).nth(1).click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('Дс', { exact: true }).click()
    await dialog.getByLabel('Басы').nth(1).fill('14:00')
    await dialog.getByLabel('Соңы').nth(1).fill('10:00')
    await dialog.getByRole('button', { name: 'Сақтау' }).click()
    await dialog.getByText('Басынан кейін болуы керек').waitFor()
    await dialog.getByLabel('Соңы').nth(1).fill('20:00')
    await dialog.getByRole('button', { name: 'Сақтау' }).click()
    // the service's "Overlaps 09:00-18:00 of the same day" on the second row's first field
    await dialog.getByText('Сол күннің 09:00-18:00 уақытымен қиылысады').waitFor()
    await screenshot(page, '66-routing-schedule-overlap-kk')
    await dialog.getByRole('button', { name: 'Болдырмау' }).click()
    await page.getByText('Русский', { exact: true }).first().click()
  })

  it('in Kazakh: a provider\'s trunk on the PBX page, an outbound route over it; a pattern that takes a terminal\'s extension is said on its field', async () => {
    await page.goto(`${service.url}/console/admin/pbx`)
    await page.getByText('Қазақша').click()
    await page.getByRole('button', { name: 'Жаңа транк' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Атауы').fill('Қазақтелеком')
    await dialog.getByLabel('Провайдер сервері').fill('sip.telecom.kz')
    await dialog.getByLabel('Тіркелгі').fill('77172550000')
    await dialog.getByLabel('Құпиясөз').fill('pr0vider-S3cret')
    await dialog.getByLabel('Қоңырау шалушы нөмірі').fill('+77172550000')
    await screenshot(page, '67-pbx-trunk-form-kk')
    await dialog.getByRole('button', { name: 'Сақтау' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByTestId('trunks').getByText('Қазақтелеком').waitFor()
    await screenshot(page, '68-pbx-trunks-kk')

    await page.goto(`${service.url}/console/admin/routing?organization=${org}&tab=outbound`)
    await page.getByRole('button', { name: 'Жаңа маршрут' }).click()
    await dialog.getByRole('button', { name: 'Шұғыл' }).click()
    const patterns = dialog.getByLabel('Нөмір үлгілері')
    await patterns.click()
    await patterns.pressSequentially('00X')
    await patterns.press('Enter')
    await pick(page, 'Транктер ретімен', 'Қазақтелеком')
    await dialog.getByRole('button', { name: 'Сақтау' }).click()
    // the service's 422 on patterns[2], said on the field in Kazakh
    await dialog.getByText('Терминалдың 001 нөмірін алады: ішкі теру маңыздырақ, маршрут жұмыс істемейді').waitFor()
    await screenshot(page, '69-routing-outbound-refused-kk')
    await dialog.locator('.ant-select-selection-item', { hasText: '00X' }).locator('.ant-select-selection-item-remove').click()
    await dialog.getByRole('button', { name: 'Сақтау' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('cell', { name: '10[1-4], 112' }).waitFor()
    await screenshot(page, '70-routing-outbound-kk')
    const [route] = await admin('GET', `/api/organizations/${org}/outbound-routes/`) as { name: string, patterns: string[], trunks: { name: string }[] }[]
    assert.deepEqual([route!.name, route!.patterns, route!.trunks.map((x) => x.name)], ['Шұғыл', ['10[1-4]', '112'], ['Қазақтелеком']])

    // a queue a menu sends callers to is not deleted: the refusal names the menu, a link to it
    const reserve = await admin('POST', `/api/organizations/${org}/queues`, { name: 'Резерв' }) as { id: number }
    const [menu] = await admin('GET', `/api/organizations/${org}/menus`) as { id: number, name: string }[]
    await admin('PUT', `/api/organizations/${org}/menus/${menu!.id}`, { timeout_destination: { kind: 'queue', queue_id: reserve.id } })
    await page.goto(`${service.url}/console/admin/routing?organization=${org}&tab=queues`)
    await page.getByRole('row', { name: /^Резерв org/ }).getByRole('button', { name: 'Жою' }).click()
    await page.getByRole('button', { name: 'Иә' }).click()
    const usedBy = page.getByTestId('used-by')
    await usedBy.getByText('Жою мүмкін емес: пайдаланылады —').waitFor()
    await screenshot(page, '70a-routing-queue-in-use-kk')
    await usedBy.getByRole('link', { name: `«${menu!.name}»` }).click()
    await page.getByRole('tab', { name: 'Дауыстық мәзірлер', selected: true }).waitFor()
    assert.ok((await admin('GET', `/api/organizations/${org}/queues`) as { id: number }[]).some((q) => q.id === reserve.id), 'the queue is still there')
    await page.getByText('Русский', { exact: true }).first().click()
  })

  it('in Kazakh: an MP3 and a 44.1 kHz stereo WAV become prompts, said as what they were, and play converted', async () => {
    await page.goto(`${service.url}/console/admin/routing?organization=${org}&tab=prompts`)
    await page.getByText('Қазақша').click()
    await page.getByRole('button', { name: 'Жаңа жазба' }).click()
    await page.getByRole('dialog').getByLabel('Атауы').fill('Сәлемдесу')
    await page.getByRole('dialog').getByRole('button', { name: 'Сақтау' }).click()
    await page.getByRole('dialog').waitFor({ state: 'hidden' })
    const input = (language: string) => page.getByRole('button', { name: `Жүктеу: Сәлемдесу: ${language}` }).locator('xpath=ancestor::span[contains(@class, "ant-upload")][1]').locator('input[type=file]')
    // half a second of silence, 1.5 s of a tone (quieter on the right), half a second of silence
    const rate = 44_100
    const stereo = Int16Array.from({ length: rate * 2.5 * 2 }, (_, i) => {
      const at = Math.floor(i / 2) / rate
      return at < 0.5 || at >= 2 ? 0 : Math.round((i % 2 === 0 ? 9000 : 3000) * Math.sin(2 * Math.PI * 700 * at))
    })
    await input('Орыс тілі').setInputFiles({ name: 'salem.mp3', mimeType: 'audio/mpeg', buffer: readFileSync(new URL('../fixtures/audio/speech.mp3', import.meta.url)) })
    await page.getByText(/^MP3 файлынан: 44,1 кГц, стерео, дыбыс деңгейі [+-]/).waitFor()
    await input('Қазақ тілі').setInputFiles({ name: 'studio.wav', mimeType: 'audio/wav', buffer: makeWav(rate, stereo, { channels: 2 }) })
    await page.getByText(/^WAV файлынан: 44,1 кГц, стерео, дыбыс деңгейі [+-]/).waitFor()
    const [prompt] = (await admin<{ id: number, name: string, recordings: { language: string, sample_rate: number, duration_ms: number }[] }[]>('GET', `/api/organizations/${org}/prompts`)).filter((p) => p.name === 'Сәлемдесу')
    const kk = prompt!.recordings.find((r) => r.language === 'kk')!
    assert.deepEqual([kk.sample_rate, Math.abs(kk.duration_ms - 1800) <= 20], [16_000, true], `1.5 s of tone and 0.3 s around it: ${kk.duration_ms} ms`)
    await page.getByTestId(`recording-about-${prompt!.id}-kk`).getByText('1,8 с, 16 кГц').waitFor()
    // and what to dial to record it by phone instead, per language
    await page.getByText(`*77*${prompt!.id}*2`, { exact: true }).waitFor()
    await screenshot(page, '70b-routing-prompts-converted-kk')
    // each plays in the browser, as long as the service says
    for (const language of ['Орыс тілі', 'Қазақ тілі']) {
      const audio = page.getByLabel(`Сәлемдесу: ${language}`, { exact: true })
      const seconds = await audio.evaluate(async (el: HTMLAudioElement) => {
        el.muted = true
        await el.play()
        return el.duration
      })
      const kept = prompt!.recordings.find((r) => r.language === (language === 'Орыс тілі' ? 'ru' : 'kk'))!
      assert.ok(Math.abs(seconds * 1000 - kept.duration_ms) < 5, `${language}: the browser plays ${seconds} s of ${kept.duration_ms} ms`)
      await page.waitForFunction((label) => (document.querySelector(`audio[aria-label="${label}"]`) as HTMLAudioElement).currentTime > 0, `Сәлемдесу: ${language}`, { timeout: 30_000 })
    }
    await page.getByText('Русский', { exact: true }).first().click()
  })
  it('on a phone (390 px) no page scrolls sideways: the routing page\'s every tab, its dialogs, the administration, the desk and the board', async () => {
    const phone = await newPage(browser, { width: 390, height: 844 })
    await signIn(phone, service.url, ADMIN, '/console/desk')
    const wide: string[] = []
    const measure = async (what: string) => {
      await phone.waitForLoadState('networkidle')
      const width = await phone.evaluate(() => document.documentElement.scrollWidth)
      if (width > 390) wide.push(`${what}: ${width} px`)
    }
    const tabs = ['lines', 'menus', 'queues', 'schedules', 'prompts', 'outbound']
    for (const tab of tabs) {
      await phone.goto(`${service.url}/console/admin/routing?organization=${org}&tab=${tab}`)
      await phone.getByRole('heading', { name: 'Маршрутизация' }).waitFor()
      await measure(`routing ${tab}`)
    }
    // the queue dialog, its number fields with their units
    await phone.goto(`${service.url}/console/admin/routing?organization=${org}&tab=queues`)
    await phone.getByRole('button', { name: 'Новая очередь' }).click()
    await phone.getByRole('dialog').waitFor()
    await measure('the queue dialog')
    await screenshot(phone, '71-routing-queue-dialog-390')
    const dialog = await phone.getByRole('dialog').boundingBox()
    assert.ok(dialog && dialog.x >= 0 && dialog.x + dialog.width <= 390, `the dialog within the screen: ${JSON.stringify(dialog)}`)
    for (const page of ['employees', 'organizations', 'terminals', 'pbx', 'classifiers', 'references', 'persons', 'regions', 'calendar', 'notifications', 'tenants']) {
      await phone.goto(`${service.url}/console/admin/${page}`)
      await phone.getByRole('heading', { level: 1 }).first().waitFor()
      await measure(`admin ${page}`)
    }
    for (const page of ['desk', 'inbox', 'appeals', 'board', 'calls', 'profile']) {
      await phone.goto(`${service.url}/console/${page}`)
      await phone.getByRole('heading', { level: 1 }).first().waitFor()
      await measure(page)
    }
    await phone.goto(`${service.url}/console/admin/routing?organization=${org}&tab=lines`)
    await phone.getByRole('heading', { name: 'Маршрутизация' }).waitFor()
    await screenshot(phone, '72-routing-lines-390')
    await phone.context().close()
    assert.deepEqual(wide, [], 'pages wider than the phone')
  })
})
