import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { CONSOLE_BUILD } from '../src/modules/console/routes.js'
import { buildTestApp, type TestApp } from './helpers/app.js'

describe('HTTP conventions shared by every route', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp() })
  after(() => t.close())

  const post = (payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({ method: 'POST', url: '/api/shared/groups', payload, headers })

  it('invalid JSON is 422 json_invalid', async () => {
    const res = await post('{"name": ')
    assert.equal(res.statusCode, 422)
    const [error] = res.json().detail
    assert.equal(error.type, 'json_invalid')
    assert.deepEqual(error.loc.slice(0, 1), ['body'])
  })

  it('a missing body is 422 missing at loc [body]', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/shared/groups' })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json().detail[0], { type: 'missing', loc: ['body'], msg: 'Field required', input: null })
    const empty = await post('')
    assert.equal(empty.statusCode, 422)
    assert.deepEqual(empty.json().detail[0].loc, ['body'])
  })

  it('a 422 echoes the input as sent: no defaults filled in, no strings trimmed', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/api/call-events/transcription', payload: { call_id: 'c-1', chunk_text: ' Алло ' } })
    assert.equal(missing.statusCode, 422)
    assert.deepEqual(missing.json().detail.map((d: { loc: string[], input: unknown }) => [d.loc.at(-1), d.input]), [
      ['operator_num', { call_id: 'c-1', chunk_text: ' Алло ' }], ['channel', { call_id: 'c-1', chunk_text: ' Алло ' }], ['full_text', { call_id: 'c-1', chunk_text: ' Алло ' }],
    ])
    const blank = await post(JSON.stringify({ name: '   ' }))
    assert.equal(blank.statusCode, 422)
    assert.deepEqual(blank.json().detail, [{ type: 'string_too_short', loc: ['body', 'name'], msg: 'String should have at least 1 character', input: '   ', ctx: { min_length: 1 } }])
    const nested = await t.app.inject({ method: 'PUT', url: '/api/regions/reorder', payload: { region_ids: [1, ' 2'] } })
    assert.deepEqual(nested.json().detail.map((d: { loc: unknown[], input: unknown }) => [d.loc, d.input]), [[['body', 'region_ids', 1], ' 2']])
  })

  it('a body that is not an object is 422 at loc [body]', async () => {
    for (const payload of ['[1,2]', '"name"', '42']) {
      const res = await post(payload)
      assert.equal(res.statusCode, 422, payload)
      assert.equal(res.json().detail[0].type, 'model_attributes_type')
      assert.deepEqual(res.json().detail[0].loc, ['body'])
    }
  })

  it('a body over 1 MiB is 413 with a detail and changes nothing', async () => {
    const before = (await t.app.inject({ url: '/api/shared/groups' })).json()
    const res = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }))
    assert.equal(res.statusCode, 413)
    assert.equal(typeof res.json().detail, 'string')
    assert.deepEqual((await t.app.inject({ url: '/api/shared/groups' })).json(), before)
  })

  it('Node\'s fetch in another process reads the 413 of a 5 MB body, sized or streamed; the service goes on', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    // a client of its own process: in this one the service read each chunk as it was sent, and the
    // race (the answer and the close while the upload goes on: EPIPE) never showed
    const client = `
      const post = (body, extra = {}) => fetch(process.argv[1] + '/api/shared/groups', { method: 'POST', headers: { 'content-type': 'application/json' }, body, ...extra })
        .then(async (r) => [r.status, await r.text()], (e) => ['failed', e.message + ' ' + (e.cause?.code ?? '')])
      const outcomes = []
      for (let i = 0; i < 5; i++) outcomes.push(await post(Buffer.alloc(5 * 1024 * 1024, 'x')))
      const chunks = Array.from({ length: 80 }, () => Buffer.alloc(64 * 1024, 'y'))
      outcomes.push(await post(new ReadableStream({ pull (c) { const n = chunks.pop(); if (n) c.enqueue(n); else c.close() } }), { duplex: 'half' }))
      process.stdout.write(JSON.stringify(outcomes))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', client, url])
    const outcomes = JSON.parse(stdout) as [number | string, string][]
    assert.deepEqual(outcomes.map(([status]) => status), [413, 413, 413, 413, 413, 413], JSON.stringify(outcomes))
    for (const [, body] of outcomes) assert.deepEqual(JSON.parse(body), { detail: 'Request body too large' })
    assert.equal((await fetch(`${url}/health`)).status, 200)
  })

  it('JSON nested deeper than 64 levels is 422 json_invalid saying so, wherever it nests, and reaches nothing', async () => {
    const deep = (d: number) => `${'[{"a":'.repeat(d)}1${'}]'.repeat(d)}`
    for (const payload of [deep(40), deep(5000), `{"name": "x", "extra": ${deep(20_000)}}`, `[${'['.repeat(100)}${']'.repeat(100)}]`]) {
      const res = await post(payload)
      assert.equal(res.statusCode, 422, res.body.slice(0, 200))
      const [error] = res.json().detail
      assert.equal(error.type, 'json_invalid')
      assert.match(error.ctx.error, /nested deeper than 64 levels/)
    }
    // 64 levels are decoded, and answered as the schema sees them
    const deepest = await post(`{"name": ${'['.repeat(63)}${']'.repeat(63)}}`)
    assert.equal(deepest.statusCode, 422)
    assert.equal(deepest.json().detail[0].type, 'string_type')
    // a bracket inside a string does not count
    const inString = await post(JSON.stringify({ name: `${'['.repeat(100)}группа` }))
    assert.equal(inString.statusCode, 200, inString.body)
  })

  it('unknown paths are 404 {"detail":"Not Found"}; a known path with another method is 405 with Allow', async () => {
    const missing = await t.app.inject({ url: '/api/nothing-here' })
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(missing.json(), { detail: 'Not Found' })
    const wrong = await t.app.inject({ method: 'PATCH', url: '/api/shared/groups/1' })
    assert.equal(wrong.statusCode, 405)
    assert.deepEqual(wrong.json(), { detail: 'Method Not Allowed' })
    assert.match(String(wrong.headers.allow), /PUT/)
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/shared/groups' })).statusCode, 405)
  })

  it('every answer carries x-request-id; a safe incoming id is kept, an unsafe one replaced', async () => {
    const generated = await t.app.inject({ url: '/health' })
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    const kept = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'lb-1234.abc' } })
    assert.equal(kept.headers['x-request-id'], 'lb-1234.abc')
    const replaced = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\nwith newline' } })
    assert.notEqual(replaced.headers['x-request-id'], 'bad id\nwith newline')
    const failing = await t.app.inject({ url: '/api/shared/groups/abc' })
    assert.ok(failing.headers['x-request-id'])
  })

  it('GET / names the service and links the docs; /docs and /openapi.json are served', async () => {
    const root = await t.app.inject({ url: '/' })
    assert.equal(root.statusCode, 200)
    assert.equal(root.json().docs, '/docs')
    assert.equal(root.json().openapi, '/openapi.json')
    const docs = await t.app.inject({ url: '/docs' })
    assert.ok([200, 302].includes(docs.statusCode))
    assert.equal((await t.app.inject({ url: '/openapi.json' })).json().openapi, '3.1.0')
  })
})

describe('GET /health', () => {
  it('is 200 with a database round trip, 503 with a detail when the database is gone', async () => {
    const t = await buildTestApp()
    const ok = await t.app.inject({ url: '/health' })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.json().status, 'ok')
    await t.database.close()
    const down = await t.app.inject({ url: '/health' })
    assert.equal(down.statusCode, 503)
    assert.deepEqual(down.json(), { detail: 'Database is not answering', code: 'service_unavailable' })
    await t.app.close()
  })
})

describe('the console\'s page names the centre\'s zone', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp({ env: { TIME_ZONE: 'Asia/Aqtobe' } }) })
  after(() => t.close())

  it('TIME_ZONE is written into every page of the console, which counts its days in it', async () => {
    for (const url of ['/console/', '/console/board', '/console/appeals?status=closed']) {
      const res = await t.app.inject({ url })
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`)
      assert.match(res.body, /<meta name="centre-time-zone" content="Asia\/Aqtobe"/)
    }
  })
})

describe('the console\'s files are sent as the build compressed them', () => {
  let t: TestApp
  let script: string
  before(async () => {
    t = await buildTestApp()
    script = /src="(\/console\/assets\/index-[^"]+\.js)"/.exec((await t.app.inject({ url: '/console/' })).body)![1]!
  })
  after(() => t.close())

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } })
  const built = (url: string) => readFileSync(`${CONSOLE_BUILD}${url.slice('/console/'.length)}`)

  it('brotli when the browser takes it, gzip when only that, the same bytes once decoded, cached for good', async () => {
    const original = built(script)
    for (const [accepted, encoding, decode] of [['gzip, deflate, br, zstd', 'br', brotliDecompressSync], ['gzip', 'gzip', gunzipSync]] as const) {
      const res = await get(script, accepted)
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['content-encoding'], encoding, accepted)
      assert.match(String(res.headers['content-type']), /javascript/)
      assert.match(String(res.headers.vary), /accept-encoding/i)
      assert.match(String(res.headers['cache-control']), /immutable/)
      assert.ok(res.rawPayload.length < original.length / 2, `${encoding}: ${res.rawPayload.length} of ${original.length} bytes`)
      assert.ok(decode(res.rawPayload).equals(original), `${encoding} decodes to the built file`)
    }
  })

  it('as built to a client that takes no encoding, and to any for a file too small to be worth compressing', async () => {
    const plain = await get(script, 'identity')
    assert.equal(plain.headers['content-encoding'], undefined)
    assert.ok(plain.rawPayload.equals(built(script)))
    const icon = await get('/console/favicon.svg', 'br')
    assert.equal(icon.statusCode, 200)
    assert.equal(icon.headers['content-encoding'], undefined)
    assert.ok(icon.rawPayload.equals(built('/console/favicon.svg')))
  })

  it('a file the build does not have is a 404, compressed copy or not', async () => {
    for (const accepted of ['br', 'gzip', 'identity']) {
      const res = await get('/console/assets/index-missing.js', accepted)
      assert.equal(res.statusCode, 404, accepted)
      assert.deepEqual(res.json(), { detail: 'Not Found' })
    }
  })
})
