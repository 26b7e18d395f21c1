import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance } from 'i18next'
import type { TFunction } from 'i18next'

// the console's own modules (its tsconfig, not the service's: their imports name no extension)
const consoleModule = (path: string) => import(`../../web/src/${path}`)
const { problemText } = await consoleModule('forms/problems.js') as { problemText: (t: TFunction, problem: { status: number, detail: unknown, code?: string }) => string }
const { ru } = await consoleModule('i18n/ru.js') as { ru: { errors: { codes: Record<string, string> } } }
const { kk } = await consoleModule('i18n/kk.js') as { kk: { errors: { codes: Record<string, string> } } }

// A refusal is said in the console's words by its code, never as the service's English or a
// generic "try later" when the service knows why.
describe('console: refusals in words', () => {
  const translators = async () => {
    const i18n = createInstance()
    await i18n.init({ resources: { ru: { translation: ru }, kk: { translation: kk } }, lng: 'ru' })
    return { ru: i18n.getFixedT('ru'), kk: i18n.getFixedT('kk') }
  }

  it('closing a line without AMI (503 pbx_not_configured): the PBX is said not to be connected, as the PBX page says it, in Russian and Kazakh', async () => {
    const say = await translators()
    const problem = { status: 503, detail: 'Asterisk Manager Interface is not configured: a line is closed in Asterisk itself', code: 'pbx_not_configured' }
    assert.match(problemText(say.ru, problem), /^АТС не подключена/)
    assert.match(problemText(say.kk, problem), /^АТС .*қосылмаған/)
    assert.notEqual(problemText(say.ru, problem), ru.errors.codes.service_unavailable)
  })

  it('the gate\'s refusals and the PBX\'s each have their words in both languages', async () => {
    const say = await translators()
    for (const code of ['own_organization_only', 'role_not_allowed', 'administrators_only', 'pbx_not_configured', 'pbx_unreachable']) {
      assert.ok(ru.errors.codes[code] && kk.errors.codes[code], `${code}: words of its own in both languages, not the generic refusal`)
      for (const lang of ['ru', 'kk'] as const) {
        const text = problemText(say[lang], { status: 403, detail: 'English words', code })
        assert.doesNotMatch(text, /English|[A-Za-z]{4,}/, `${lang} ${code}: ${text}`)
      }
    }
  })
})
