import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/client.js'
import { llmCalls } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { eventually } from '../helpers/http-target.js'
import { startLlmUpstream, type LlmUpstream } from '../helpers/llm-upstream.js'
import { openSse } from '../helpers/sse.js'

const OPENAI_KEY = 'sk-test-openai-key-never-shown'
const ANTHROPIC_KEY = 'sk-ant-test-key-never-shown'

describe('LLM gateway against a real upstream speaking the providers\' wire formats', () => {
  let database: Database
  let upstream: LlmUpstream
  let app: TestApp
  let url: string
  const logs: string[] = []

  /** an openai-compatible primary, an anthropic fallback, and a local provider trusted with personal data */
  const providers = (base: string) => JSON.stringify([
    { name: 'openai', kind: 'openai-compatible', base_url: base, api_key: OPENAI_KEY, model: 'gpt-test', models: ['gpt-test', 'gpt-big'], timeout: '800ms' },
    { name: 'claude', kind: 'anthropic', base_url: base, api_key: ANTHROPIC_KEY, model: 'claude-test', models: ['claude-test', 'claude-sonnet-5'], timeout: '800ms' },
    { name: 'local', kind: 'openai-compatible', base_url: base, model: 'qwen-local', external: false, stream_options: false, timeout: '800ms' },
  ])

  before(async () => {
    database = await createTestDatabase()
    upstream = await startLlmUpstream()
    app = await buildTestApp({
      database,
      env: { LLM_PROVIDERS: providers(upstream.url), LLM_DEFAULT_PROVIDER: 'openai', LLM_FALLBACK: 'claude', LLM_BACKOFF: '10ms', LLM_RETRY_AFTER_CAP: '3s', LLM_MAX_RETRIES: '2' },
      deps: { logger: { level: 'debug', stream: new Writable({ write (chunk, _enc, done) { logs.push(String(chunk)); done() } }) } },
    })
    url = await app.app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(async () => {
    await app.app.close()
    await upstream.close()
    await database.close()
  })

  const post = (path: string, payload: unknown) => app.app.inject({ method: 'POST', url: `/api/llm${path}`, payload: payload as object })
  const lastRequests = (n: number) => upstream.requests.slice(-n)

  it('lists the providers and their models, never their keys', async () => {
    const res = await app.app.inject({ url: '/api/llm/models' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json().map((p: { provider: string }) => p.provider), ['openai', 'claude', 'local'])
    assert.deepEqual(res.json()[0], { provider: 'openai', kind: 'openai-compatible', default_model: 'gpt-test', models: ['gpt-test', 'gpt-big'], is_default: true, external: true, redacts_pii: true })
    assert.equal(res.json()[2].redacts_pii, false)
    assert.ok(!res.body.includes('sk-'), 'no key in the answer')
  })

  it('complete over OpenAI chat completions: the system prompt first, temperature, max_tokens, usage', async () => {
    upstream.script({ text: 'Здравствуйте!', usage: { prompt: 21, completion: 4 } })
    const res = await post('/complete', { messages: [{ role: 'user', content: 'Привет' }], system_prompt: 'Ты оператор 109', temperature: 0.3, max_tokens: 50 })
    assert.equal(res.statusCode, 200, res.body)
    const body = res.json()
    assert.deepEqual({ ...body, processing_time: typeof body.processing_time }, {
      success: true, text: 'Здравствуйте!', provider: 'openai', model: 'gpt-test', usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 },
      processing_time: 'number', finish_reason: 'stop', error: null,
    })
    const [sent] = lastRequests(1)
    assert.equal(sent!.path, '/v1/chat/completions')
    assert.equal(sent!.headers.authorization, `Bearer ${OPENAI_KEY}`)
    assert.deepEqual(sent!.body.messages, [{ role: 'system', content: 'Ты оператор 109' }, { role: 'user', content: 'Привет' }])
    assert.deepEqual([sent!.body.model, sent!.body.temperature, sent!.body.max_tokens], ['gpt-test', 0.3, 50])
  })

  it('complete over Anthropic messages, with a model the request names', async () => {
    upstream.script({ text: 'Сәлеметсіз бе!', usage: { prompt: 9, completion: 3 } })
    const res = await post('/complete', { provider: 'claude', messages: [{ role: 'system', content: 'Қысқа жауап бер' }, { role: 'user', content: 'Сәлем' }] })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual([res.json().text, res.json().provider, res.json().model, res.json().usage.total_tokens], ['Сәлеметсіз бе!', 'claude', 'claude-test', 12])
    const [sent] = lastRequests(1)
    assert.equal(sent!.path, '/v1/messages')
    assert.equal(sent!.headers['x-api-key'], ANTHROPIC_KEY)
    assert.deepEqual(sent!.body.system, [{ type: 'text', text: 'Қысқа жауап бер' }])
    assert.deepEqual(sent!.body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Сәлем' }] }])

    upstream.script({ text: 'big' })
    const big = await post('/complete', { model: 'gpt-big', messages: [{ role: 'user', content: 'x' }] })
    assert.equal(big.json().model, 'gpt-big')
    assert.equal(lastRequests(1)[0]!.body.model, 'gpt-big')
  })

  it('Anthropic: neighbouring messages of one role are one turn, max_tokens the route default; a model that refuses temperature is not sent it', async () => {
    const messages = [{ role: 'user', content: 'раз' }, { role: 'user', content: 'два' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'үш' }]
    upstream.script({ text: 'a' }, { text: 'b' })
    await post('/complete', { provider: 'claude', temperature: 0.3, messages })
    const [sent] = lastRequests(1)
    const text = (t: string) => ({ type: 'text', text: t })
    assert.deepEqual(sent!.body.messages, [{ role: 'user', content: [text('раз'), text('два')] }, { role: 'assistant', content: [text('ok')] }, { role: 'user', content: [text('үш')] }])
    assert.deepEqual([sent!.body.temperature, sent!.body.max_tokens, sent!.headers['anthropic-version']], [0.3, 2048, '2023-06-01'])
    const newer = await post('/complete', { provider: 'claude', model: 'claude-sonnet-5', temperature: 0.3, max_tokens: 100, messages })
    assert.equal(newer.json().text, 'b')
    assert.deepEqual([lastRequests(1)[0]!.body.temperature, lastRequests(1)[0]!.body.max_tokens], [undefined, 100])
  })

  it('a 200 that is not the provider\'s format is not asked again: the fallback answers, or the error says so; errors in their own words', async () => {
    const page = { raw: { contentType: 'text/html', body: '<html>Вход в прокси</html>' } }
    upstream.script(page, { text: 'Claude answers' })
    const res = await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    assert.deepEqual([res.json().success, res.json().provider, res.json().text], [true, 'claude', 'Claude answers'])
    assert.deepEqual(lastRequests(2).map((r) => r.path), ['/v1/chat/completions', '/v1/messages'])

    upstream.script(page)
    const before = upstream.requests.length
    const alone = await post('/complete', { provider: 'openai', messages: [{ role: 'user', content: 'x' }] })
    assert.equal(alone.json().success, false)
    assert.match(alone.json().error, /not understood: not JSON/)
    assert.equal(upstream.requests.length - before, 1, 'not retried')

    // an error in Ollama's shape (`error` a string) is said in its own words
    upstream.script({ status: 404, body: { error: 'model "qwen-local" not found, try pulling it first' } })
    const ollama = await post('/complete', { provider: 'local', messages: [{ role: 'user', content: 'x' }] })
    assert.equal(ollama.json().error, 'upstream answered 404: model "qwen-local" not found, try pulling it first')
  })

  it('simple answers the text only', async () => {
    upstream.script({ text: 'Астана' })
    const res = await post('/simple', { prompt: 'Столица Казахстана?', system_prompt: 'Одно слово' })
    assert.deepEqual(res.json(), { text: 'Астана' })
    assert.deepEqual(lastRequests(1)[0]!.body.messages.map((m: { role: string }) => m.role), ['system', 'user'])
  })

  it('bad input is a 422 in FastAPI\'s shape and reaches no upstream', async () => {
    const before = upstream.requests.length
    const cases: [string, unknown, (string | number)[]][] = [
      ['/complete', { messages: [] }, ['body', 'messages']],
      ['/complete', {}, ['body', 'messages']],
      ['/complete', { messages: [{ role: 'robot', content: 'x' }] }, ['body', 'messages', 0, 'role']],
      ['/complete', { messages: [{ role: 'user', content: 'x' }], temperature: 2.5 }, ['body', 'temperature']],
      ['/complete', { messages: [{ role: 'user', content: 'x' }], max_tokens: 0 }, ['body', 'max_tokens']],
      ['/complete', { messages: [{ role: 'user', content: 'x' }], provider: 'gigachat' }, ['body', 'provider']],
      ['/complete', { messages: [{ role: 'user', content: 'x' }], provider: 'claude', model: 'gpt-big' }, ['body', 'model']],
      ['/simple', { prompt: 'x'.repeat(30_001) }, ['body', 'prompt']],
      ['/stream', { messages: [{ role: 'user', content: 'x' }], provider: 'nope' }, ['body', 'provider']],
    ]
    for (const [path, payload, loc] of cases) {
      const res = await post(path, payload)
      assert.equal(res.statusCode, 422, `${path} ${JSON.stringify(payload).slice(0, 80)}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc.slice(0, loc.length), loc, res.body)
    }
    assert.equal(upstream.requests.length, before)
  })

  it('retries a 503 and a connection reset before the first byte, then answers', async () => {
    upstream.script({ status: 503 }, { reset: true }, { text: 'после повторов' })
    const res = await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    assert.equal(res.json().text, 'после повторов')
    assert.deepEqual(lastRequests(3).map((r) => r.body.model), ['gpt-test', 'gpt-test', 'gpt-test'])
  })

  it('waits as long as a 429\'s Retry-After asks (up to the cap)', async () => {
    upstream.script({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit', type: 'rate_limit' } } }, { text: 'ok after wait' })
    const res = await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    assert.equal(res.json().text, 'ok after wait')
    const [first, second] = lastRequests(2)
    assert.ok(second!.receivedAt - first!.receivedAt >= 950, `waited ${second!.receivedAt - first!.receivedAt} ms`)
  })

  it('falls back to the next provider with its own model; a Retry-After beyond the cap is not waited for', async () => {
    upstream.script({ status: 429, headers: { 'retry-after': '120' } }, { text: 'Claude answers' })
    const started = Date.now()
    const res = await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    assert.ok(Date.now() - started < 60_000, 'the 120 s Retry-After was not waited for')
    assert.deepEqual([res.json().success, res.json().provider, res.json().model, res.json().text], [true, 'claude', 'claude-test', 'Claude answers'])
    assert.deepEqual(lastRequests(2).map((r) => r.path), ['/v1/chat/completions', '/v1/messages'])
  })

  it('a 400 is not retried; every provider failing is success false with the error, simple is 502, never a 500', async () => {
    upstream.script({ status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error' } } }, { status: 500 }, { status: 500 }, { status: 500 })
    const before = upstream.requests.length
    const res = await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().success, false)
    assert.equal(res.json().provider, 'claude')
    assert.match(res.json().error, /500/)
    assert.equal(upstream.requests.length - before, 4, 'openai once (400), claude three times (500)')

    upstream.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 })
    const simple = await post('/simple', { prompt: 'x' })
    assert.equal(simple.statusCode, 502)
    assert.match(simple.json().detail, /LLM provider failed/)
  })

  it('a first byte slower than the provider\'s time-out is given up and retried', async () => {
    upstream.script({ delayMs: 1500, text: 'too late' }, { text: 'in time' })
    const res = await post('/complete', { provider: 'local', messages: [{ role: 'user', content: 'x' }] })
    assert.equal(res.json().text, 'in time')
    await eventually(async () => lastRequests(2)[0]!.aborted, 30_000, 'the slow request was aborted')
  })

  const streamOf = async (payload: unknown) => {
    const s = await openSse(`${url}/api/llm/stream`, {}, undefined, payload)
    await s.ended
    return s
  }

  it('streams OpenAI deltas as they come, then done with usage, then [DONE]', async () => {
    upstream.script({ chunks: ['Сәлем', ', ', 'әлем'], chunkDelayMs: 400, usage: { prompt: 5, completion: 3 } })
    const s = await streamOf({ messages: [{ role: 'user', content: 'x' }] })
    assert.equal(s.status, 200)
    assert.match(s.contentType ?? '', /text\/event-stream/)
    const deltas = s.events.filter((e) => e.data.type === 'delta')
    assert.deepEqual(deltas.map((e) => e.data.text), ['Сәлем', ', ', 'әлем'])
    const done = s.events.find((e) => e.data.type === 'done')!
    assert.ok(done.at - deltas[0]!.at > 700, 'the first delta was forwarded at once, not buffered')
    assert.deepEqual(done.data.usage, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 })
    assert.deepEqual([done.data.finish_reason, done.data.provider, done.data.model], ['stop', 'openai', 'gpt-test'])
    assert.equal(s.events.at(-1)!.raw, '[DONE]')
    const sent = lastRequests(1)[0]!.body
    assert.deepEqual([sent.stream, sent.stream_options], [true, { include_usage: true }])
  })

  it('streams Anthropic\'s event sequence the same way', async () => {
    upstream.script({ chunks: ['Бір', 'екі'], usage: { prompt: 8, completion: 2 } })
    const s = await streamOf({ provider: 'claude', messages: [{ role: 'user', content: 'x' }] })
    assert.deepEqual(s.events.map((e) => e.data.type ?? e.raw), ['delta', 'delta', 'done', '[DONE]'])
    assert.deepEqual(s.events[2]!.data.usage, { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 })
  })

  it('a provider without stream_options is not sent them', async () => {
    upstream.script({ text: 'local' })
    const s = await streamOf({ provider: 'local', messages: [{ role: 'user', content: 'x' }] })
    assert.equal(s.events.find((e) => e.data.type === 'done')!.data.provider, 'local')
    assert.equal(lastRequests(1)[0]!.body.stream_options, undefined)
  })

  it('retries before the first byte when streaming too: a 503, a first byte slower than the time-out', async () => {
    upstream.script({ status: 503 }, { chunks: ['ok'] })
    const s = await streamOf({ messages: [{ role: 'user', content: 'x' }] })
    assert.deepEqual(s.events.map((e) => e.data.type ?? e.raw), ['delta', 'done', '[DONE]'])

    upstream.script({ delayMs: 1500, chunks: ['late'] }, { chunks: ['on time'] })
    const slow = await streamOf({ provider: 'local', messages: [{ role: 'user', content: 'x' }] })
    assert.deepEqual(slow.events.map((e) => e.data.text ?? e.data.type ?? e.raw), ['on time', 'done', '[DONE]'])
    assert.equal(lastRequests(2)[0]!.aborted, true)
  })

  for (const [kind, provider] of [['OpenAI', 'openai'], ['Anthropic', 'claude']] as const) {
    it(`${kind}: a stream cut mid-way, one ended without a finish signal and an in-band error each end in an error event, without retry`, async () => {
      for (const ending of ['cut', 'no-finish', 'error'] as const) {
        const before = upstream.requests.length
        upstream.script({ chunks: ['часть '], chunkDelayMs: 100, ending })
        const s = await streamOf({ provider, messages: [{ role: 'user', content: 'x' }] })
        assert.deepEqual(s.events.map((e) => e.data.type ?? e.raw), ['delta', 'error', '[DONE]'], `${ending}: ${JSON.stringify(s.events)}`)
        assert.equal(typeof s.events[1]!.data.error, 'string')
        assert.equal(upstream.requests.length - before, 1, `${ending}: no retry after the first byte`)
      }
    })
  }

  it('reads streams whose lines end in CRLF, with comment lines, in both formats', async () => {
    upstream.script({ chunks: ['Сәлем', ', әлем'], crlf: true }, { chunks: ['Бір', 'екі'], crlf: true })
    for (const provider of ['openai', 'claude']) {
      const s = await streamOf({ provider, messages: [{ role: 'user', content: 'x' }] })
      assert.deepEqual(s.events.map((e) => e.data.text ?? e.data.type ?? e.raw), provider === 'openai' ? ['Сәлем', ', әлем', 'done', '[DONE]'] : ['Бір', 'екі', 'done', '[DONE]'])
    }
  })

  it('a finished call leaves its connection to the upstream open for the next one', async () => {
    upstream.script({ text: 'один' }, { chunks: ['два'] }, { chunks: ['три'] }, { text: 'четыре' })
    await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    await streamOf({ messages: [{ role: 'user', content: 'x' }] })
    await streamOf({ messages: [{ role: 'user', content: 'x' }] })
    await post('/complete', { messages: [{ role: 'user', content: 'x' }] })
    assert.equal(new Set(lastRequests(4).map((r) => r.remotePort)).size, 1, JSON.stringify(lastRequests(4).map((r) => r.remotePort)))
  })

  it('a client that disconnects aborts the upstream request', async () => {
    upstream.script({ chunks: ['a'], ending: 'hold' })
    const s = await openSse(`${url}/api/llm/stream`, {}, undefined, { messages: [{ role: 'user', content: 'x' }] })
    await eventually(async () => s.events.length > 0, 30_000, 'first delta')
    const held = lastRequests(1)[0]!
    assert.equal(held.aborted, false)
    await s.close()
    await eventually(async () => held.aborted, 30_000, 'the upstream saw the abort')
  })

  it('personal data is redacted before it leaves for an external provider and restored in the answer', async () => {
    const text = 'Иванов, ИИН 061211600012, тел. +7 (701) 123-45-67, почта ivanov@mail.kz'
    upstream.respond = (req) => {
      const content = JSON.stringify(req.body.messages)
      return { text: `Принято: ${content.includes('[IIN_1]') ? '[IIN_1]' : 'нет'} / [PHONE_1] / [EMAIL_1]`, chunks: ['Принято: [II', 'N_1] / [PH', 'ONE_1] / [EMAIL_1]'] }
    }
    try {
      const res = await post('/complete', { messages: [{ role: 'user', content: text }] })
      const sent = JSON.stringify(lastRequests(1)[0]!.body.messages)
      assert.ok(!sent.includes('061211600012') && !sent.includes('123-45-67') && !sent.includes('ivanov@mail.kz'), sent)
      assert.match(sent, /\[IIN_1\].*\[PHONE_1\].*\[EMAIL_1\]/)
      assert.equal(res.json().text, 'Принято: 061211600012 / +7 (701) 123-45-67 / ivanov@mail.kz')

      const s = await streamOf({ messages: [{ role: 'user', content: text }] })
      const streamed = s.events.filter((e) => e.data.type === 'delta').map((e) => e.data.text).join('')
      assert.equal(streamed, 'Принято: 061211600012 / +7 (701) 123-45-67 / ivanov@mail.kz', 'placeholders split across deltas are restored')

      await post('/complete', { provider: 'local', messages: [{ role: 'user', content: text }] })
      assert.match(JSON.stringify(lastRequests(1)[0]!.body.messages), /061211600012/, 'a local provider gets the text as it is')
    } finally {
      upstream.respond = () => ({ text: 'ok' })
    }
  })

  it('every call is recorded without its text, and no key or personal data reaches the log', async () => {
    // the rows are written together, about a second after the calls: the last ones come with a later write
    const recorded = async () => {
      const rows = await database.db.select().from(llmCalls)
      return rows.length >= 10 && rows.some((r) => r.task === 'stream' && r.outcome === 'error') && rows.some((r) => r.task === 'stream' && r.outcome === 'aborted') &&
        rows.some((r) => r.task === 'complete' && r.outcome === 'ok' && r.total_tokens === 25 && r.provider === 'openai') && rows.some((r) => r.redacted)
    }
    await eventually(recorded, 15_000, 'every kind of call recorded')
    const rows = await database.db.select().from(llmCalls)
    assert.ok(rows.every((r) => r.prompt === null && r.answer === null), 'no prompt text without LLM_LOG_PROMPTS')
    const log = logs.join('')
    assert.ok(log.length > 0)
    for (const secret of [OPENAI_KEY, ANTHROPIC_KEY, '061211600012', 'ivanov@mail.kz']) assert.ok(!log.includes(secret), `${secret} not in the log`)
  })
})

describe('LLM gateway without providers', () => {
  let app: TestApp
  before(async () => { app = await buildTestApp() })
  after(async () => { await app.close() })

  it('lists no models and answers 503 with a clear detail', async () => {
    assert.deepEqual((await app.app.inject({ url: '/api/llm/models' })).json(), [])
    for (const [path, payload] of [['/complete', { messages: [{ role: 'user', content: 'x' }] }], ['/stream', { messages: [{ role: 'user', content: 'x' }] }], ['/tasks/summarize', { text: 'x' }]] as const) {
      const res = await app.app.inject({ method: 'POST', url: `/api/llm${path}`, payload })
      assert.equal(res.statusCode, 503, path)
      assert.match(res.json().detail, /No LLM provider is configured/)
    }
  })
})
