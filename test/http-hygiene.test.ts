// What the service writes to its log and how it reads bodies: no secret of a URL in a log line,
// an empty JSON body where an operation takes none.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { loggerOptions } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { buildTestApp, testEnv, type TestApp } from './helpers/app.js'
import { login, makeUser } from './helpers/factories.js'

describe('request hygiene', () => {
  let t: TestApp
  const lines: string[] = []
  before(async () => {
    const stream = new Writable({ write (chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done() } })
    const config = loadConfig({ ...testEnv, LOG_LEVEL: 'info' })
    t = await buildTestApp({ env: { LOG_LEVEL: 'info' }, deps: { logger: { ...(loggerOptions(config) as object), stream } } })
  })
  after(() => t.close())

  it('no token of a URL reaches a log line: ?token= of the WebSocket, other secret query values, invitation tokens', async () => {
    const secrets = ['wsTokenSECRET0123456789', 'accessSECRET0123456789', 'inviteSECRET0123456789']
    await t.app.inject({ url: `/api/call-events/ws?token=${secrets[0]}&x=1` })
    await t.app.inject({ url: `/api/call-events/calls?access_token=${secrets[1]}` })
    await t.app.inject({ url: `/api/auth/invite/${secrets[2]}` })
    const log = lines.join('')
    assert.ok(log.includes('/api/call-events/ws?token=[redacted]&x=1'), 'the request line is still logged')
    assert.ok(log.includes('/api/auth/invite/[redacted]'))
    for (const secret of secrets) assert.ok(!log.includes(secret), `${secret} is in the log`)
  })

  it('an operation without a body takes Content-Type: application/json with an empty body; one with a body still needs it', async () => {
    const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    const json = { 'content-type': 'application/json' }
    const retry = await t.app.inject({ method: 'POST', url: '/api/organizations/retry-all-failed-ext', headers: json, payload: '' })
    assert.equal(retry.statusCode, 200, retry.body)
    const generate = await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs', headers: { ...json, ...admin }, payload: '' })
    assert.equal(generate.statusCode, 200, generate.body)
    const missing = await t.app.inject({ method: 'POST', url: '/api/shared/groups', headers: json, payload: '' })
    assert.equal(missing.statusCode, 422)
    assert.deepEqual(missing.json().detail[0].loc, ['body'])
    assert.equal(missing.json().detail[0].type, 'missing')
    const broken = await t.app.inject({ method: 'POST', url: '/api/shared/groups', headers: json, payload: '{"name":' })
    assert.equal(broken.json().detail[0].type, 'json_invalid')
  })

  it('a path Fastify cannot route still answers with a detail', async () => {
    const badUtf8 = await t.app.inject({ url: '/api/regions/%C0%AF' })
    assert.equal(badUtf8.statusCode, 400)
    assert.match(badUtf8.json().detail, /percent-encoded/)
    const long = await t.app.inject({ url: `/api/auth/invite/${'a'.repeat(101)}` })
    assert.equal(long.statusCode, 414)
    assert.match(long.json().detail, /too long/)
  })

  it('text PostgreSQL cannot store is a 422 naming the field, keys of JSON objects included', async () => {
    const nul = await t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name: 'a\u0000b' } })
    assert.equal(nul.statusCode, 422)
    assert.deepEqual(nul.json().detail.map((d: { loc: unknown[], type: string }) => [d.loc, d.type]), [[['body', 'name'], 'string_unicode']])
    const surrogate = await t.app.inject({ method: 'POST', url: '/api/shared/groups', headers: { 'content-type': 'application/json' }, payload: '{"name":"x\\ud800"}' })
    assert.equal(surrogate.statusCode, 422)
    const key = await t.app.inject({ method: 'POST', url: '/platform/tenants', payload: { tenant_id: 'nul', name: 'N', cell_id: 'c', metadata: { 'k\u0000': 1 } } })
    assert.equal(key.statusCode, 422)
    assert.deepEqual(key.json().detail[0].loc, ['body', 'metadata', 'k\u0000'])
    const query = await t.app.inject({ url: '/api/references/persons?q=%00' })
    assert.equal(query.statusCode, 422)
    assert.deepEqual(query.json().detail[0].loc, ['query', 'q'])
    const path = await t.app.inject({ url: '/platform/tenants/%00' })
    assert.ok(path.statusCode === 422 || path.statusCode === 404, String(path.statusCode))
    assert.equal((await t.app.inject({ url: '/api/shared/groups' })).json().length, 0, 'nothing was stored')
  })

  it('numbers past the int4 columns are a 422 with the limit, in path, query and body', async () => {
    const path = await t.app.inject({ url: '/api/regions/2147483648' })
    assert.equal(path.statusCode, 422)
    assert.deepEqual(path.json().detail[0].ctx, { le: 2147483647 })
    assert.equal((await t.app.inject({ url: '/api/regions/2147483647' })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/api/references/subcategories?category_id=1e308' })).statusCode, 422)
    const body = await t.app.inject({ method: 'POST', url: '/api/regions', payload: { name: 'X', parent_id: 9007199254740993 } })
    assert.equal(body.statusCode, 422)
    assert.deepEqual(body.json().detail[0].loc, ['body', 'parent_id'])
  })
})
