import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { calls } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { appealFixture, type AppealFixture } from '../helpers/appeals.js'
import { startLlmUpstream, type LlmUpstream, type UpstreamRequest } from '../helpers/llm-upstream.js'
import { eventually } from '../helpers/http-target.js'

const systemOf = (r: UpstreamRequest) => String(r.body.messages?.[0]?.content ?? '')
const userOf = (r: UpstreamRequest) => String(r.body.messages?.at(-1)?.content ?? '')
const REVIEW = {
  points: [{ point: 'подать горячую воду', answered: true, evidence: 'будет подана 5 марта' }],
  appeal_language: 'ru', response_language: 'ru', same_language: true, cites_legal_basis: false, legal_references: [],
  states_facts: true, explains_right_to_appeal: false, verdict: 'partial', missing: ['право на обжалование'], summary: 'Ответ по существу, без разъяснения права на обжалование',
}

describe('the LLM at the desk: suggestions for an appeal, the review of its answer', () => {
  let t: TestApp
  let f: AppealFixture
  let upstream: LlmUpstream
  let heatingLabel: string

  before(async () => {
    upstream = await startLlmUpstream()
    t = await buildTestApp({ env: { LLM_GPT_BASE_URL: upstream.url, LLM_GPT_MODEL: 'gpt-test', LLM_GPT_API_KEY: 'sk-desk', LLM_GPT_TIMEOUT: '2s', LLM_BACKOFF: '10ms', LLM_MAX_RETRIES: '0', LLM_REDACT_PII: 'false' } })
    f = await appealFixture(t.app, t.database.db)
    heatingLabel = ''
    // the model answers each task in its format, whatever order the concurrent requests arrive in
    upstream.respond = (req) => {
      const system = systemOf(req)
      if (system.includes('классификатор')) {
        heatingLabel = system.split('\n').find((l) => l.endsWith('/ Коммунальные услуги / Отопление'))!.slice(2)
        return { text: JSON.stringify({ category: heatingLabel, confidence: 'high', reasoning: 'про отопление', alternatives: [], needs_human_review: false }) }
      }
      if (system.includes('Составь резюме')) return { text: JSON.stringify({ summary: 'Нет отопления в доме 5', key_points: ['дом 5'], citizen_request: 'включить отопление', language: 'ru' }) }
      return { text: JSON.stringify(REVIEW) }
    }
  })
  after(async () => {
    await t.close()
    await upstream.close()
  })

  const register = async (over: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/appeals', headers: f.people.operator,
      payload: { citizen: { full_name: 'Абаев Марат', phone: '+77011234567' }, source_id: f.ids.source, language: 'ru', text: 'В доме 5 нет отопления', subcategory_id: f.ids.water, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id, ...over },
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json() as { id: number, number: string }
  }
  const suggest = (id: number, payload: object = {}, headers = f.people.operator) => t.app.inject({ method: 'POST', url: `/api/appeals/${id}/suggest`, headers, payload })

  it('suggest: a summary and the classifier\'s subcategory with its id, from the appeal\'s text', async () => {
    const appeal = await register()
    const res = await suggest(appeal.id)
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.source, 'text')
    assert.equal(body.truncated, false)
    assert.equal(body.summary.success, true)
    assert.equal(body.summary.result.summary, 'Нет отопления в доме 5')
    assert.equal(body.classification.success, true)
    assert.equal(body.classification.result.category, heatingLabel)
    assert.equal(body.classification.subcategory_id, f.ids.heating)
    assert.equal(body.classification.matches_current, false, 'registered under water supply, the model says heating')
    const asked = upstream.requests.slice(-2)
    assert.ok(asked.every((r) => userOf(r) === 'В доме 5 нет отопления'))
    assert.ok(asked.some((r) => systemOf(r).includes('- ' + heatingLabel)), 'the active subcategories are the labels')
  })

  it('suggest reads the call transcript when the appeal came from a call; source=transcript without one is 422', async () => {
    const [call] = await t.database.db.insert(calls).values({ operator_num: '101001', caller_phone: '+77011234567', transcript: 'Оператор: слушаю. Гражданин: у нас в доме пять нет отопления' }).returning()
    const fromCall = await register({ call_row_id: call!.id })
    const res = await suggest(fromCall.id, { source: 'auto' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().source, 'transcript')
    assert.ok(upstream.requests.slice(-2).every((r) => userOf(r).includes('в доме пять нет отопления')))
    assert.equal((await suggest(fromCall.id, { source: 'text' })).json().source, 'text')

    const plain = await register()
    const bad = await suggest(plain.id, { source: 'transcript' })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'source'])
    assert.match(bad.json().detail[0].msg, /not registered from a call/)
  })

  it('suggest: bad input and other organizations are refused', async () => {
    const appeal = await register()
    const before = upstream.requests.length
    assert.equal((await suggest(appeal.id, {}, f.people.otherManager)).statusCode, 404)
    assert.equal((await suggest(999_999)).statusCode, 404)
    const badSource = await suggest(appeal.id, { source: 'audio' })
    assert.equal(badSource.statusCode, 422)
    assert.deepEqual(badSource.json().detail[0].loc, ['body', 'source'])
    const badProvider = await suggest(appeal.id, { provider: 'nobody' })
    assert.equal(badProvider.statusCode, 422)
    assert.deepEqual(badProvider.json().detail[0].loc, ['body', 'provider'])
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/appeals/${appeal.id}/suggest`, payload: {} })).statusCode, 401)
    assert.equal(upstream.requests.length, before, 'nothing reached the model')
  })

  const answerAndWait = async (id: number, payload: object) => {
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/appeals/${id}/take`, headers: f.people.executorOperator })).statusCode, 200)
    const res = await t.app.inject({ method: 'POST', url: `/api/appeals/${id}/answer`, headers: f.people.executorOperator, payload })
    assert.equal(res.statusCode, 200, res.body)
    const kept = await eventually(async () => {
      const check = (await t.app.inject({ url: `/api/appeals/${id}`, headers: f.people.operator })).json().answer.check
      return check.status !== 'pending' && check
    }, 30_000, 'the review to finish')
    return { immediate: res.json().answer.check, kept }
  }

  it('an answer is reviewed after it is committed and the review is kept with it', async () => {
    const appeal = await register({ language: 'ru' })
    const { immediate, kept } = await answerAndWait(appeal.id, { text: 'Горячая вода будет подана 5 марта', language: 'ru' })
    assert.equal(immediate.status, 'pending', 'the answer did not wait for the model')
    assert.equal(kept.status, 'done')
    assert.equal(kept.source, 'service')
    assert.equal(kept.result.verdict, 'partial')
    assert.deepEqual(kept.result.missing, ['право на обжалование'])
    assert.equal(kept.provider, 'gpt')
    const review = upstream.requests.at(-1)!
    assert.match(userOf(review), /ОБРАЩЕНИЕ ГРАЖДАНИНА:\nВ доме 5 нет отопления\n\nОФИЦИАЛЬНЫЙ ОТВЕТ:\nГорячая вода будет подана 5 марта/)
  })

  it('a failing model never blocks the answer: the review says failed', async () => {
    const appeal = await register()
    upstream.script({ status: 500 }, { status: 500 })
    const { kept } = await answerAndWait(appeal.id, { text: 'Ответ', language: 'ru' })
    assert.equal(kept.status, 'failed')
    assert.match(kept.error, /500|status/)
  })

  it('a review the console sent is kept as it is, and the model is not asked again', async () => {
    const appeal = await register()
    const before = upstream.requests.length
    const { kept } = await answerAndWait(appeal.id, { text: 'Ответ', language: 'ru', check: { verdict: 'complete' } })
    assert.deepEqual({ status: kept.status, source: kept.source, result: kept.result }, { status: 'done', source: 'console', result: { verdict: 'complete' } })
    assert.equal(upstream.requests.length, before)
  })
})

describe('the LLM at the desk without a provider', () => {
  it('suggest is 503 in words; an answer is kept with the review unavailable', async () => {
    const t = await buildTestApp()
    try {
      const f = await appealFixture(t.app, t.database.db)
      const res = await t.app.inject({
        method: 'POST', url: '/api/appeals', headers: f.people.operator,
        payload: { citizen: { full_name: 'Абаев Марат', phone: '+77011234567' }, source_id: f.ids.source, language: 'ru', text: 'Текст', subcategory_id: f.ids.water, response_method_id: f.ids.methods.call, executor_organization_id: f.executor.id },
      })
      const id = res.json().id as number
      const suggested = await t.app.inject({ method: 'POST', url: `/api/appeals/${id}/suggest`, headers: f.people.operator, payload: {} })
      assert.equal(suggested.statusCode, 503)
      assert.match(suggested.json().detail, /No LLM provider is configured/)
      await t.app.inject({ method: 'POST', url: `/api/appeals/${id}/take`, headers: f.people.executorOperator })
      assert.equal((await t.app.inject({ method: 'POST', url: `/api/appeals/${id}/answer`, headers: f.people.executorOperator, payload: { text: 'Ответ', language: 'ru' } })).statusCode, 200)
      const check = await eventually(async () => {
        const c = (await t.app.inject({ url: `/api/appeals/${id}`, headers: f.people.operator })).json().answer.check as { status: string, error: string }
        return c.status !== 'pending' && c
      }, 30_000, 'the review to give up')
      assert.equal(check.status, 'unavailable')
      assert.match(check.error, /No LLM provider/)
    } finally {
      await t.close()
    }
  })
})
