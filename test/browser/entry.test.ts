import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser } from 'playwright-core'
import { activatedEmployee, ADMIN, apiToken, launchChromium, newPage as newBrowserPage, noBrowser, screenshot, serviceApi, signIn, startServiceAsReadme } from '../helpers/console.js'
import { startSmtpServer } from '../helpers/smtp.js'

// The console's entry in a real Chromium against the service started with `npm start`:
// the invitation from the mail to the first sign-in, sign-in and its errors, reload, the language,
// the profile, the forced password change, the reset link, sign-out.
describe('console: entry (Chromium)', { skip: noBrowser }, () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let browser: Browser
  let admin: Record<string, string>
  let organizationId: number
  let executorId: number

  before(async () => {
    smtp = await startSmtpServer()
    service = await startServiceAsReadme({ SMTP_URL: smtp.url })
    browser = await launchChromium()
    admin = { authorization: `Bearer ${await apiToken(service.url, ADMIN)}`, 'content-type': 'application/json' }
    // the call centre, whose operators sit at the desk, and an executor (an akimat), whose staff answer
    const [region] = await (await fetch(`${service.url}/api/regions/tree`, { headers: admin })).json() as { id: number }[]
    const organization = async (body: object) => {
      const res = await fetch(`${service.url}/api/organizations`, { method: 'POST', headers: admin, body: JSON.stringify({ region_id: region!.id, ...body }) })
      assert.equal(res.status, 200, await res.clone().text())
      return ((await res.json()) as { id: number }).id
    }
    organizationId = await organization({ name: 'Единый контакт-центр 109', prefix: '109', modules: ['call_center'] })
    executorId = await organization({ name: 'Акимат города Алматы', prefix: '271' })
  })
  after(async () => {
    await browser?.close()
    await service?.stop()
    await smtp?.close()
  })

  async function employee (email: string, extra: object = {}): Promise<number> {
    const res = await fetch(`${service.url}/api/employees`, {
      method: 'POST', headers: admin, body: JSON.stringify({ email, last_name: 'Сейткали', first_name: 'Айгерим', organization_id: organizationId, role: 'operator', ...extra }),
    })
    assert.equal(res.status, 201, await res.clone().text())
    return ((await res.json()) as { id: number }).id
  }

  /** an employee who accepted the invitation (through the API: the browser test of that is below) */
  const activated = (email: string, password: string, role = 'operator', organization = organizationId) => activatedEmployee(
    service.url, serviceApi(service.url, admin.authorization!.slice('Bearer '.length)), smtp,
    { email, last_name: 'Сейткали', first_name: 'Айгерим', organization_id: organization, role }, password
  )

  const activatedAgain = async (id: number) =>
    assert.equal((await fetch(`${service.url}/api/employees/${id}`, { method: 'PUT', headers: admin, body: JSON.stringify({ is_active: true }) })).status, 200)

  const newPage = () => newBrowserPage(browser, { width: 1280, height: 800 }, { motion: true })

  it('the invitation: the mail\'s link shows who is invited, sets the password and signs in; a reload keeps the session', async () => {
    const email = 'aigerim@akimat.kz'
    const id = await employee(email)
    assert.equal((await fetch(`${service.url}/api/auth/send-invite/${id}`, { method: 'POST', headers: { authorization: admin.authorization! } })).status, 200)
    const mail = await smtp.next(email)
    const link = /(https?:\/\/\S+\/invite\?token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
    assert.ok(link, `a link in the mail: ${mail.text}`)

    const page = await newPage()
    await page.goto(link)
    await page.getByText('Сейткали Айгерим, вас пригласили').waitFor()
    assert.ok(await page.getByText(email).first().isVisible())
    await screenshot(page, '01-invite')
    // the form checks as the service does before anything is sent
    await page.getByLabel('Новый пароль').fill('short')
    await page.getByLabel('Повторите пароль').fill('other')
    await page.getByRole('button', { name: 'Задать пароль и войти' }).click()
    await page.getByText('Не короче 10 символов', { exact: true }).waitFor()
    await page.getByText('Пароли не совпадают').waitFor()
    await screenshot(page, '02-invite-errors')
    await page.getByLabel('Новый пароль').fill('Aigerim-passw0rd-2026')
    await page.getByLabel('Повторите пароль').fill('Aigerim-passw0rd-2026')
    await page.getByRole('button', { name: 'Задать пароль и войти' }).click()
    // the first sign-in: an operator lands at the desk; the profile is one click away
    await page.getByRole('heading', { name: 'Рабочее место оператора' }).waitFor()
    assert.equal(await page.getByTestId('current-user').textContent(), 'Сейткали Айгерим')
    await page.getByRole('menuitem', { name: 'Профиль' }).click()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor()
    await page.getByText('Единый контакт-центр 109').waitFor()
    await screenshot(page, '03-profile')
    await page.reload()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor()

    // the link is used: opening it again says so
    await page.goto(link)
    await page.getByText('Приглашение уже использовано').waitFor()
    await page.context().close()
  })

  it('a browser set to Kazakh opens the console in Kazakh, its title and lang too; the console has its icon', async () => {
    const page = await newBrowserPage(browser, { width: 1280, height: 800 }, { locale: 'kk-KZ' })
    await page.goto(`${service.url}/console/`)
    await page.getByRole('heading', { name: 'Кіру' }).waitFor()
    assert.equal(await page.title(), '109 консолі')
    assert.equal(await page.locator('html').getAttribute('lang'), 'kk')
    const icon = await page.locator('link[rel=icon]').getAttribute('href')
    const res = await fetch(new URL(icon!, service.url))
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /svg/)
    // a choice made in the console wins over the browser's
    await page.getByText('Русский').click()
    await page.getByRole('heading', { name: 'Вход' }).waitFor()
    assert.equal(await page.title(), 'Консоль 109')
    await page.reload()
    await page.getByRole('heading', { name: 'Вход' }).waitFor()
    await page.close()
  })

  it('an outage: a page whose code cannot be fetched says so and opens itself when the network is back; a new build\'s missing chunk reloads the page once', async () => {
    const page = await newPage()
    await signIn(page, service.url, ADMIN, '/console/desk')
    await page.getByRole('heading', { name: 'Рабочее место оператора' }).waitFor()
    // a fresh service's classifier has no subcategories yet: the desk says why nothing can be registered
    await page.getByTestId('no-subcategories').getByText('В классификаторе нет ни одной подкатегории').waitFor()

    await page.context().setOffline(true)
    await page.getByRole('menuitem', { name: 'Обращения' }).click()
    const failed = page.getByTestId('page-failed')
    await failed.getByText('Страница не загрузилась').waitFor()
    await failed.getByText('Страница откроется сама, как только связь вернётся').waitFor()
    await page.getByTestId('live-lost').waitFor()
    assert.ok(await page.getByRole('menuitem', { name: 'Рабочее место' }).isVisible(), 'the menu stays')
    // asked to try again while still offline: said so, no browser error page
    await failed.getByRole('button', { name: 'Повторить' }).click()
    await failed.getByText('Сервис всё ещё недоступен').waitFor()
    await screenshot(page, '04-outage-page-failed')

    await page.context().setOffline(false)
    await page.getByRole('heading', { name: 'Обращения', level: 1 }).waitFor({ timeout: 30_000 })
    await page.getByTestId('live-lost').waitFor({ state: 'detached', timeout: 30_000 })

    // a deployment replaced the build: the old chunk is gone (404); the page reloads and opens
    let loads = 0
    page.on('load', () => { loads++ })
    let refused = 0
    await page.route(/\/assets\/Board-[^/]*\.js$/, async (route) => {
      if (refused++ === 0) await route.fulfill({ status: 404, body: 'gone' })
      else await route.continue()
    })
    await page.getByRole('menuitem', { name: 'Мониторинг' }).click()
    await page.getByRole('heading', { name: 'Мониторинг', level: 1 }).waitFor({ timeout: 30_000 })
    assert.equal(refused >= 2, true, 'the chunk was fetched again')
    assert.equal(loads, 1, 'one reload')
    await page.context().close()
  })

  it('the sign-in page works without the console\'s code (which loads behind it); that code not fetched is said in words, and the console opens once it is', async () => {
    const email = 'light@akimat.kz'
    await activated(email, 'Operator-passw0rd-1')
    const page = await newPage()
    // the console proper (Ant Design, the pages) cannot be fetched: the sign-in page needs none of it
    const consoleCode = /\/assets\/console-[^/]*\.js$/
    let asked = 0
    await page.route(consoleCode, async (route) => { asked++; await route.fulfill({ status: 503, body: 'unavailable' }) })
    let loads = 0
    page.on('load', () => { loads++ })
    await page.goto(`${service.url}/console/profile`)
    await page.getByRole('heading', { name: 'Вход' }).waitFor()
    assert.match(page.url(), /\/console\/signin\?next=%2Fprofile$/, 'a page of the console asks for sign-in first, and returns there')
    // the console's code, fetched ahead while the form is filled in, failed: that reloads nothing
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => /\/assets\/console-[^/]*\.js$/.test(r.name)), undefined, { timeout: 30_000 })
    assert.equal(await page.locator('.ant-btn, .ant-input').count(), 0, 'no Ant Design on the sign-in page')
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByText('Заполните поле').nth(1).waitFor()
    assert.equal(await page.getByText('Заполните поле').count(), 2, 'both fields are required')
    await page.getByLabel('Электронная почта').fill(email)
    await page.getByLabel('Пароль', { exact: true }).fill('Operator-passw0rd-1')
    await page.getByRole('button', { name: 'Показать введённое' }).click()
    assert.equal(await page.getByLabel('Пароль', { exact: true }).getAttribute('type'), 'text', 'the password shown when asked')
    assert.equal(loads, 1, 'the form being filled in was not reloaded away')
    await page.getByRole('button', { name: 'Войти' }).click()
    const failed = page.getByTestId('page-failed')
    await failed.getByText('Страница не загрузилась').waitFor({ timeout: 30_000 })
    assert.ok(asked > 0, 'the console\'s code was asked for')
    await screenshot(page, '04-console-not-loaded')

    await page.unroute(consoleCode)
    await failed.getByRole('button', { name: 'Повторить' }).click()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor({ timeout: 30_000 })
    assert.match(page.url(), /\/console\/profile$/)
    await page.context().close()
  })

  it('an executor\'s operator lands in the inbox, has no desk in the menu, and the desk says in words where the work is (ru/kk)', async () => {
    await activated('executor-operator@akimat.kz', 'Executor-passw0rd-1', 'operator', executorId)
    const page = await newPage()
    await signIn(page, service.url, { email: 'executor-operator@akimat.kz', password: 'Executor-passw0rd-1' })
    await page.getByRole('heading', { name: 'Входящие обращения', level: 1 }).waitFor()
    assert.match(page.url(), /\/console\/inbox/)
    assert.equal(await page.getByRole('menuitem', { name: 'Рабочее место' }).count(), 0, 'no desk in the menu')

    await page.goto(`${service.url}/console/desk`)
    await page.getByText('Рабочее место оператора — для сотрудников контакт-центра').waitFor()
    await page.getByText('Қазақша').click()
    await page.getByText('Оператордың жұмыс орны байланыс орталығының қызметкерлеріне арналған').waitFor()
    await screenshot(page, '05-executor-at-the-desk-kk')
    await page.getByRole('button', { name: 'Өтініштерге' }).click()
    await page.getByRole('heading', { name: 'Өтініштер', level: 1 }).waitFor()
    await page.context().close()
  })

  it('sign-in: wrong password said in words; the Kazakh switch changes every text and is remembered for the user; sign-out', async () => {
    const email = 'operator@akimat.kz'
    await activated(email, 'Operator-passw0rd-1')
    const page = await newPage()
    await page.goto(`${service.url}/console/`)
    await page.getByRole('heading', { name: 'Вход' }).waitFor()
    await screenshot(page, '04-sign-in')
    await page.getByRole('button', { name: 'Войти' }).click()
    // the form's checks answer after the click: a loaded machine shows them later
    await page.getByText('Заполните поле').nth(1).waitFor({ timeout: 15_000 })
    assert.equal(await page.getByText('Заполните поле').count(), 2, 'both fields are required')
    await page.getByLabel('Электронная почта').fill(email)
    await page.getByLabel('Пароль').fill('Wrong-passw0rd-1')
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByRole('alert').getByText('Неверная почта или пароль').waitFor()
    await screenshot(page, '05-sign-in-error')
    await page.getByLabel('Пароль').fill('Operator-passw0rd-1')
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByRole('heading', { name: 'Рабочее место оператора' }).waitFor()
    await page.getByRole('menuitem', { name: 'Профиль' }).click()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor()

    await page.getByText('Қазақша').click()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor()
    await page.getByRole('menuitem', { name: 'Өтініштер' }).waitFor()
    await page.getByRole('button', { name: 'Шығу' }).waitFor()
    await page.getByText('Аты-жөні').waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'kk')
    await screenshot(page, '06-profile-kk')
    await page.getByRole('button', { name: 'Шығу' }).click()
    await page.getByRole('heading', { name: 'Кіру' }).waitFor()
    await screenshot(page, '07-sign-in-kk')
    // the next sign-in of the same user is in Kazakh from the start
    await page.getByText('Русский').click()
    await page.getByLabel('Электронная почта').fill(email)
    await page.getByLabel('Пароль').fill('Operator-passw0rd-1')
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByRole('button', { name: 'Шығу' }).waitFor()
    await page.context().close()
  })

  it('a 401 (the token revoked elsewhere) returns to sign-in and says why; the profile saves and shows the API\'s 422 on its field', async () => {
    const email = 'manager@akimat.kz'
    const id = await activated(email, 'Manager-passw0rd-1', 'manager')
    const page = await newPage()
    await page.goto(`${service.url}/console/profile`)
    await page.getByLabel('Электронная почта').fill(email)
    await page.getByLabel('Пароль').fill('Manager-passw0rd-1')
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor()

    await page.getByLabel('Должность').fill('Руководитель отдела')
    await page.getByLabel('Телефон').fill('8 701 123 45 67')
    await page.getByRole('button', { name: 'Сохранить' }).click()
    await page.getByText('Сохранено').waitFor()
    await page.getByLabel('Телефон').fill('12')
    await page.getByRole('button', { name: 'Сохранить' }).click()
    // the service's 422 for the phone, under the phone field
    await page.getByText('Неверный номер телефона Казахстана').waitFor()
    await screenshot(page, '08-profile-phone-error')

    // deactivated by the admin: the next request is a 401 and the console goes back to sign-in
    assert.equal((await fetch(`${service.url}/api/employees/${id}`, { method: 'PUT', headers: admin, body: JSON.stringify({ is_active: false }) })).status, 200)
    await page.reload()
    await page.getByText('Сеанс завершён. Войдите снова.').waitFor()
    await screenshot(page, '09-session-expired')
    // signed in again, the console returns to the page it was on
    await activatedAgain(id)
    await page.getByLabel('Электронная почта').fill(email)
    await page.getByLabel('Пароль').fill('Manager-passw0rd-1')
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByRole('heading', { name: 'Профиль' }).waitFor()
    await page.context().close()
  })

  it('forgotten password: the mail\'s reset link sets a new one; the old one stops working', async () => {
    const page = await newPage()
    await page.goto(`${service.url}/console/signin`)
    await page.getByText('Забыли пароль?').click()
    await page.getByRole('heading', { name: 'Восстановление пароля' }).waitFor()
    await page.getByLabel('Электронная почта').fill('aigerim@akimat.kz')
    await page.getByRole('button', { name: 'Отправить ссылку' }).click()
    await page.getByText('Если адрес зарегистрирован').waitFor()
    await screenshot(page, '10-forgot-password')
    const link = /(https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec((await smtp.next('aigerim@akimat.kz')).text)?.[1]
    assert.ok(link)
    await page.goto(link)
    await page.getByLabel('Новый пароль').fill('Aigerim-new-passw0rd-1')
    await page.getByLabel('Повторите пароль').fill('Aigerim-new-passw0rd-1')
    await screenshot(page, '11-reset-password')
    await page.getByRole('button', { name: 'Сменить пароль' }).click()
    await page.getByText('Пароль изменён. Войдите с новым паролем.').waitFor()
    assert.equal((await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'aigerim@akimat.kz', password: 'Aigerim-passw0rd-2026' }) })).status, 401)
    assert.ok(await apiToken(service.url, { email: 'aigerim@akimat.kz', password: 'Aigerim-new-passw0rd-1' }))
    await page.context().close()
  })
})

// The first start of the embedded database without ADMIN_PASSWORD: the administrator's generated
// password is in the log once, and the console makes them change it before anything else. (On
// PostgreSQL no administrator is made without ADMIN_PASSWORD, so there is nothing to test there.)
describe('console: the forced password change of the first administrator (Chromium)', { skip: noBrowser ?? (process.env.TEST_DATABASE_URL ? 'PostgreSQL makes no administrator without ADMIN_PASSWORD' : undefined) }, () => {
  let service: Awaited<ReturnType<typeof startServiceAsReadme>>
  let browser: Browser
  before(async () => {
    service = await startServiceAsReadme({ ADMIN_PASSWORD: undefined })
    browser = await launchChromium()
  })
  after(async () => {
    await browser?.close()
    await service?.stop()
  })

  it('signs in with the logged password, is held on the change page, and works after the change', async () => {
    const generated = /"generated_password":"([^"]+)"/.exec(service.output())?.[1]
    assert.ok(generated, `the generated password is logged: ${service.output().slice(0, 500)}`)
    const page = await newBrowserPage(browser)
    await page.goto(`${service.url}/console/appeals`)
    await page.getByLabel('Электронная почта').fill(ADMIN.email)
    await page.getByLabel('Пароль').fill(generated)
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.getByText('Перед началом работы смените пароль, выданный администратором.').waitFor()
    // every other page leads back here until the password is changed
    await page.goto(`${service.url}/console/admin/employees`)
    await page.getByText('Перед началом работы смените пароль, выданный администратором.').waitFor()
    await page.getByLabel('Текущий пароль').fill(generated)
    await page.getByLabel('Новый пароль').fill(generated)
    await page.getByLabel('Повторите пароль').fill(generated)
    await page.getByRole('button', { name: 'Сменить пароль' }).click()
    await page.getByText('Новый пароль должен отличаться от текущего').waitFor()
    await screenshot(page, '12-forced-password-change')
    await page.getByLabel('Новый пароль').fill('First-admin-passw0rd-1')
    await page.getByLabel('Повторите пароль').fill('First-admin-passw0rd-1')
    await page.getByRole('button', { name: 'Сменить пароль' }).click()
    await page.getByRole('heading', { name: 'Обращения' }).waitFor()
    await page.getByRole('menuitem', { name: 'Сотрудники' }).click()
    await page.getByRole('heading', { name: 'Сотрудники' }).waitFor()
    assert.ok(await apiToken(service.url, { email: ADMIN.email, password: 'First-admin-passw0rd-1' }))
    await page.context().close()
  })
})
