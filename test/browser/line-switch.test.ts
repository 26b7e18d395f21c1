import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { makeWav } from '../../src/lib/audio/index.js'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { ADMIN, apiToken, launchChromium, newPage, noBrowser, screenshot, serviceApi, signIn, startServiceAsReadme } from '../helpers/console.js'
import { eventually } from '../helpers/http-target.js'

// A supervisor closes the 109 line at its switch and opens it again, in Kazakh, in a real Chromium
// against `npm start`, whose AMI is the test peer: the closing reaches Asterisk's database (DBPut),
// shows on the line and on the board, and opening removes it (DBDel).
describe('console: a line closed at the switch (Chromium, AMI test peer)', { skip: noBrowser }, () => {
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let browser: Browser
  let page: Page
  let org: number
  let prompt: number

  before(async () => {
    peer = await startAmiPeer()
    service = await startServiceAsReadme(peer.env({ AMI_TIMEOUT: '5s' }))
    browser = await launchChromium()
    const token = await apiToken(service.url, ADMIN)
    const admin = serviceApi(service.url, token)
    org = (await admin('POST', '/api/organizations/', { org_name: 'Единый контакт-центр 109', org_prefix: '109' })).id
    prompt = (await admin('POST', `/api/organizations/${org}/prompts`, { name: 'Желі жабық / Линия закрыта' })).id
    const wav = makeWav(8000, Int16Array.from({ length: 8000 }, (_, i) => Math.round(6000 * Math.sin(i / 3))))
    const put = await fetch(`${service.url}/api/organizations/${org}/prompts/${prompt}/recordings/kk`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'audio/wav' }, body: new Uint8Array(wav) })
    assert.equal(put.status, 200, await put.text())
    await admin('POST', `/api/organizations/${org}/lines`, { number: '109', name: 'Бірыңғай нөмір', destination: { kind: 'hangup' } })
    page = await newPage(browser)
    await signIn(page, service.url, ADMIN, `/console/admin/routing?organization=${org}&tab=lines`)
  })
  after(async () => {
    await browser?.close()
    await service?.stop()
    await peer?.close()
  })

  it('closed now with its announcement, said on the line and on the board; opened again', async () => {
    await page.getByText('Қазақша').click()
    await page.getByRole('tab', { name: 'Кіріс желілер' }).waitFor()
    await page.getByRole('button', { name: 'Қазір жабу' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Себебі').fill('Апат')
    await dialog.getByLabel('Қоңырау шалушыларға хабарлама').click()
    await page.locator('.ant-select-dropdown:visible').getByTitle('Желі жабық / Линия закрыта', { exact: true }).click()
    await screenshot(page, '71-line-switch-close-kk')
    await dialog.getByRole('button', { name: 'Қазір жабу' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByTestId('line-closed-109').getByText('Ашылғанша жабық').waitFor()
    assert.equal(peer.state.db.get('appeals-closed/109'), `4102444800:appeals/org109/${prompt}`)
    await screenshot(page, '72-line-switch-closed-kk')

    await page.goto(`${service.url}/console/board`)
    const board = page.getByTestId('closed-lines')
    await board.getByText('Жабық желілер: 1').waitFor()
    await board.getByText('109 «Бірыңғай нөмір»: Апат — Ашылғанша жабық').waitFor()
    await screenshot(page, '73-board-closed-line-kk')

    await page.goto(`${service.url}/console/admin/routing?organization=${org}&tab=lines`)
    await page.getByRole('button', { name: 'Ашу' }).click()
    await page.getByRole('button', { name: 'Иә' }).click()
    await page.getByRole('button', { name: 'Қазір жабу' }).waitFor()
    await eventually(async () => !peer.state.db.has('appeals-closed/109'), 10_000, 'the key removed from Asterisk\'s database')
    await page.getByText('Русский', { exact: true }).first().click()
  })
})
