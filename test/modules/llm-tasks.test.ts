import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loadConfig, ConfigError } from '../../src/config.js'
import type { Database } from '../../src/db/client.js'
import { llmCalls } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeUser } from '../helpers/factories.js'
import { startLlmUpstream, type LlmUpstream } from '../helpers/llm-upstream.js'

describe('LLM tasks: structured answers, checked, with one repair attempt', () => {
  let database: Database
  let upstream: LlmUpstream
  let app: TestApp
  const auth: Record<string, Record<string, string>> = {}

  before(async () => {
    database = await createTestDatabase()
    upstream = await startLlmUpstream()
    app = await buildTestApp({
      database,
      env: {
        LLM_GPT_BASE_URL: upstream.url, LLM_GPT_MODEL: 'gpt-test', LLM_GPT_API_KEY: 'sk-task-key', LLM_GPT_TIMEOUT: '2s',
        LLM_BACKOFF: '10ms', LLM_LOG_PROMPTS: 'true',
      },
    })
    auth.admin = await login(app.app, await makeUser(database.db, { role: 'admin' }))
    auth.operator = await login(app.app, await makeUser(database.db, { role: 'operator' }))
  })
  after(async () => {
    await app.app.close()
    await upstream.close()
    await database.close()
  })

  const task = (name: string, payload: unknown) => app.app.inject({ method: 'POST', url: `/api/llm/tasks/${name}`, payload: payload as object })
  const sent = () => upstream.requests.at(-1)!.body as { messages: { role: string, content: string }[], temperature: number }
  const systemPrompt = () => sent().messages[0]!.content

  it('summarize: summary, key points, the citizen\'s request, worded for the role', async () => {
    upstream.script({ text: '```json\n{"summary": "Нет отопления", "key_points": ["дом 5"], "citizen_request": "включить отопление", "language": "ru"}\n```' })
    const res = await task('summarize', { text: 'В доме 5 нет отопления третий день', role: 'supervisor' })
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.equal(body.success, true)
    assert.deepEqual(body.result, { summary: 'Нет отопления', key_points: ['дом 5'], citizen_request: 'включить отопление', language: 'ru', role: 'supervisor' })
    assert.deepEqual([body.provider, body.model, body.error, typeof body.processing_time], ['gpt', 'gpt-test', null, 'number'])
    assert.match(systemPrompt(), /руководитель смены/)
    assert.equal(sent().messages[1]!.content, 'В доме 5 нет отопления третий день')

    upstream.script({ text: '{"summary": "Жылу жоқ", "key_points": [], "citizen_request": "жылуды қосу"}' })
    await task('summarize', { text: 'Үйде жылу жоқ', role: 'citizen' })
    assert.match(systemPrompt(), /өтініш тілінде/, 'a citizen-facing summary is asked in the appeal\'s language, in Kazakh too')
    assert.equal((await task('summarize', { text: 'x', role: 'minister' })).statusCode, 422)
  })

  it('translate: the four directions, the detected language, Kazakh instructions for Kazakh output', async () => {
    upstream.script({ text: '{"translation": "Үйде жылу жоқ", "source_language": "ru", "target_language": "kk"}' })
    const res = await task('translate', { text: 'В доме нет отопления', direction: 'ru-kk' })
    assert.deepEqual(res.json().result, { translation: 'Үйде жылу жоқ', source_language: 'ru', target_language: 'kk', direction: 'ru-kk' })
    assert.match(systemPrompt(), /қазақ тілінде, кирилл әліпбиімен/)
    upstream.script({ text: '{"translation": "Нет отопления", "source_language": "kk", "target_language": "ru"}' })
    await task('translate', { text: 'Жылу жоқ' })
    assert.match(systemPrompt(), /Определи язык исходного текста/, 'auto-ru by default')
    for (const direction of ['en-ru', 'kk-kk', '']) {
      const bad = await task('translate', { text: 'x', direction })
      assert.equal(bad.statusCode, 422, direction)
      assert.deepEqual(bad.json().detail[0].loc, ['body', 'direction'])
      assert.equal(bad.json().detail[0].type, 'literal_error')
      assert.equal(bad.json().detail[0].msg, "Input should be 'kk-ru', 'ru-kk', 'auto-ru' or 'auto-kk'", 'every allowed value named, as pydantic does')
      assert.equal(bad.json().detail.length, 1)
    }
  })

  it('classify from a given list: one of them, never an invented label (one repair, then success false)', async () => {
    const categories = ['Отопление', 'Водоснабжение', 'Дороги']
    upstream.script({ text: '{"category": "Отопление", "confidence": "high", "reasoning": "нет тепла", "alternatives": ["Водоснабжение", "Выдумка"], "needs_human_review": false}' })
    const res = await task('classify', { text: 'Нет отопления', categories })
    assert.deepEqual(res.json().result, { category: 'Отопление', category_id: null, confidence: 'high', reasoning: 'нет тепла', alternatives: ['Водоснабжение'], needs_human_review: false })
    for (const c of categories) assert.ok(systemPrompt().includes(`- ${c}`))
    assert.equal(sent().temperature, 0.1)

    const invented = '{"category": "ЖКХ", "confidence": "low", "reasoning": "?", "alternatives": [], "needs_human_review": true}'
    upstream.script({ text: invented }, { text: '{"category": "Дороги", "confidence": "medium", "reasoning": "яма", "alternatives": [], "needs_human_review": true}' })
    const repaired = await task('classify', { text: 'Яма на дороге', categories })
    assert.equal(repaired.json().result.category, 'Дороги')
    const repair = sent().messages
    assert.deepEqual(repair.map((m) => m.role), ['system', 'user', 'assistant', 'user'])
    assert.match(repair[3]!.content, /ЖКХ.*нет в списке/)
    assert.equal(repaired.json().usage.total_tokens, 36, 'both calls counted')

    upstream.script({ text: invented }, { text: invented })
    const failed = await task('classify', { text: 'Непонятно', categories })
    assert.deepEqual([failed.statusCode, failed.json().success, failed.json().result], [200, false, null])
    assert.match(failed.json().error, /not valid after one repair attempt/)
  })

  it('classify without categories chooses among the active subcategories of the classifiers, with the id', async () => {
    const post = async (url: string, payload: object) => {
      const r = await app.app.inject({ method: 'POST', url, headers: auth.admin, payload })
      assert.equal(r.statusCode, 201, r.body)
      return r.json()
    }
    // no active subcategory yet: nothing to choose from
    assert.equal((await task('classify', { text: 'x' })).statusCode, 422)
    const classifier = await post('/api/classifiers', { name: 'Основной', code: 'main' })
    const type = await post('/api/classifiers/appeal-types', { classifier_id: classifier.id, name: 'Жалоба' })
    const category = await post('/api/classifiers/categories', { appeal_type_id: type.id, name: 'ЖКХ' })
    const heating = await post('/api/classifiers/subcategories', { category_id: category.id, name: 'Отопление' })
    const inactive = await post('/api/classifiers/subcategories', { category_id: category.id, name: 'Лифты' })
    await app.app.inject({ method: 'PUT', url: `/api/classifiers/subcategories/${inactive.id}`, headers: auth.admin, payload: { is_active: false } })

    upstream.script({ text: '{"category": "Жалоба / ЖКХ / Отопление", "confidence": "high", "reasoning": "тепло", "alternatives": [], "needs_human_review": false}' })
    const res = await task('classify', { text: 'Холодно в квартире' })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual([res.json().result.category, res.json().result.category_id], ['Жалоба / ЖКХ / Отопление', heating.id])
    assert.ok(systemPrompt().includes('- Жалоба / ЖКХ / Отопление'))
    assert.ok(!systemPrompt().includes('Лифты'), 'inactive subcategories are not offered')
  })

  it('check-response: each point with its evidence, language, legal basis, right of appeal, verdict; broken JSON repaired once', async () => {
    const verdict = {
      points: [{ point: 'включить отопление', answered: true, evidence: 'отопление будет включено 5 ноября' }, { point: 'перерасчёт', answered: false, evidence: null }],
      appeal_language: 'ru', response_language: 'ru', same_language: true, cites_legal_basis: true, legal_references: ['ст. 91 АППК'],
      states_facts: true, explains_right_to_appeal: false, verdict: 'partial', missing: ['перерасчёт', 'порядок обжалования'], summary: 'Ответ неполный',
    }
    upstream.script({ text: '{"points": [}' }, { text: JSON.stringify(verdict) })
    const res = await task('check-response', { appeal_text: 'Включите отопление и сделайте перерасчёт', response_text: 'Согласно ст. 91 АППК отопление будет включено 5 ноября' })
    assert.equal(res.json().success, true, res.body)
    assert.deepEqual(res.json().result, verdict)
    assert.match(sent().messages[1]!.content, /ОБРАЩЕНИЕ ГРАЖДАНИНА:\nВключите отопление/)
    assert.match(sent().messages[3]!.content, /JSON не разбирается/)

    upstream.script({ text: '{"points": []}' }, { text: 'not json at all' })
    const broken = await task('check-response', { appeal_text: 'a', response_text: 'b' })
    assert.deepEqual([broken.json().success, broken.json().result], [false, null])
    assert.equal((await task('check-response', { appeal_text: 'a' })).statusCode, 422)
  })

  it('an upstream failure is success false with the error, never a 500', async () => {
    upstream.script({ status: 503 }, { status: 503 }, { status: 503 })
    const res = await task('summarize', { text: 'x' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual([res.json().success, res.json().result, res.json().provider], [false, null, 'gpt'])
    assert.match(res.json().error, /503/)
  })

  it('usage sums calls by day, provider and task for administrators; prompts are kept only with LLM_LOG_PROMPTS', async () => {
    assert.equal((await app.app.inject({ url: '/api/llm/usage' })).statusCode, 401)
    assert.equal((await app.app.inject({ url: '/api/llm/usage', headers: auth.operator })).statusCode, 403)
    const res = await app.app.inject({ url: '/api/llm/usage', headers: auth.admin })
    assert.equal(res.statusCode, 200)
    const today = new Date().toISOString().slice(0, 10)
    const classify = res.json().find((r: { task: string }) => r.task === 'classify')
    assert.deepEqual({ ...classify, avg_latency_ms: typeof classify.avg_latency_ms }, {
      day: today, provider: 'gpt', task: 'classify', calls: 6, failures: 0, prompt_tokens: 66, completion_tokens: 42, total_tokens: 108, avg_latency_ms: 'number',
    })
    const summarize = res.json().find((r: { task: string }) => r.task === 'summarize')
    assert.equal(summarize.failures, 1)
    const rows = await database.db.select().from(llmCalls)
    assert.ok(rows.some((r) => JSON.stringify(r.prompt).includes('Нет отопления')), 'LLM_LOG_PROMPTS=true keeps the prompt')

    const old = await app.app.inject({ url: '/api/llm/usage?date_from=2020-01-01&date_to=2020-01-31', headers: auth.admin })
    assert.deepEqual(old.json(), [])
    for (const q of ['date_from=2026-02-01&date_to=2026-01-01', 'date_from=2020-01-01&date_to=2026-01-01', 'date_from=yesterday']) {
      assert.equal((await app.app.inject({ url: `/api/llm/usage?${q}`, headers: auth.admin })).statusCode, 422, q)
    }
  })
})

describe('LLM configuration', () => {
  const base = { JWT_SECRET: 'x'.repeat(40) }
  it('reads providers from LLM_PROVIDERS or LLM_<NAME>_* variables, with a default and a fallback order', () => {
    const config = loadConfig({
      ...base,
      LLM_PROVIDERS: JSON.stringify([{ name: 'vllm', base_url: 'http://10.0.0.5:8000/v1/', model: 'qwen', external: false, stream_options: false }]),
      LLM_CLAUDE_KIND: 'anthropic', LLM_CLAUDE_BASE_URL: 'https://api.anthropic.com/v1', LLM_CLAUDE_API_KEY: 'sk-ant', LLM_CLAUDE_MODEL: 'claude-x', LLM_CLAUDE_MODELS: 'claude-y, claude-z',
      LLM_DEFAULT_PROVIDER: 'claude', LLM_FALLBACK: 'vllm',
    }).llm
    assert.deepEqual(config.providers.map((p) => [p.name, p.kind, p.baseUrl, p.models, p.external, p.streamOptions, p.timeoutMs]), [
      ['vllm', 'openai-compatible', 'http://10.0.0.5:8000/v1', ['qwen'], false, false, 60_000],
      ['claude', 'anthropic', 'https://api.anthropic.com/v1', ['claude-x', 'claude-y', 'claude-z'], true, false, 60_000],
    ])
    assert.deepEqual([config.defaultProvider, config.fallback, config.redactPii, config.logPrompts], ['claude', ['vllm'], undefined, false])
  })

  it('refuses a bad configuration with one line naming the variable, never the key', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ LLM_PROVIDERS: '{' }, /LLM_PROVIDERS must be a JSON array/],
      [{ LLM_PROVIDERS: '[{"name":"a","kind":"gemini","base_url":"http://x","model":"m"}]' }, /LLM_PROVIDERS\[0\]\.kind must be/],
      [{ LLM_PROVIDERS: '[{"name":"a","base_url":"ftp://x","model":"m"}]' }, /LLM_PROVIDERS\[0\]\.base_url must be a URL/],
      [{ LLM_X_BASE_URL: 'http://x' }, /LLM_X_MODEL must be set/],
      [{ LLM_X_BASE_URL: 'http://x', LLM_X_MODEL: 'm', LLM_X_TIMEOUT: 'soon' }, /LLM_X_TIMEOUT must be a duration/],
      [{ LLM_X_BASE_URL: 'http://x', LLM_X_MODEL: 'm', LLM_X_KIND: 'anthropic' }, /LLM_X_API_KEY must be set/],
      [{ LLM_X_BASE_URL: 'http://x', LLM_X_MODEL: 'm', LLM_DEFAULT_PROVIDER: 'y' }, /LLM_DEFAULT_PROVIDER must name a configured provider \(x\)/],
      [{ LLM_X_BASE_URL: 'http://x', LLM_X_MODEL: 'm', LLM_FALLBACK: 'x,z' }, /LLM_FALLBACK must name/],
      [{ LLM_REDACT_PII: 'maybe' }, /LLM_REDACT_PII must be true or false/],
    ]
    for (const [env, message] of bad) {
      assert.throws(() => loadConfig({ ...base, ...env }), (err: unknown) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env))
    }
  })
})
