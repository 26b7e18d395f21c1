import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ensureFirstAdmin, resolveJwtSecret } from '../src/modules/auth/bootstrap.js'
import { loadConfig } from '../src/config.js'
import { buildTestApp, testEnv } from './helpers/app.js'
import { login, makeUser } from './helpers/factories.js'

describe('AUTH_MODE', () => {
  it('interface (chosen explicitly): unmarked routes are open; a token that is sent is still verified', async () => {
    const t = await buildTestApp({ env: { AUTH_MODE: 'interface' } })
    try {
      assert.equal((await t.app.inject({ url: '/api/references/persons?q=1' })).statusCode, 200, 'the persons search is open, as the interface has it')
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name: 'Open' } })).statusCode, 200)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name: 'Open 2' }, headers: { authorization: 'Bearer bad.token.here' } })).statusCode, 401)
    } finally { await t.close() }
  })

  it('strict: unmarked writes need a user token (the service token is not one); reads and login stay open', async () => {
    const serviceToken = 'service-token-0123456789abcdef'
    const t = await buildTestApp({ env: { AUTH_MODE: 'strict', SERVICE_TOKEN: serviceToken } })
    try {
      const post = (headers: Record<string, string> = {}, name = 'Strict') => t.app.inject({ method: 'POST', url: '/api/shared/groups', payload: { name }, headers })
      const refused = await post()
      assert.equal(refused.statusCode, 401)
      assert.equal(refused.headers['www-authenticate'], 'Bearer')
      assert.equal((await t.app.inject({ url: '/api/shared/groups' })).statusCode, 200)
      const user = await makeUser(t.database.db, { role: 'admin' })
      const headers = await login(t.app, user)
      assert.equal((await post(headers, 'Strict A')).statusCode, 200)
      assert.equal((await post({ authorization: `Bearer ${serviceToken}` }, 'Strict B')).statusCode, 401)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'x@y.kz' } })).statusCode, 200)
      // the LLM gateway's calls are writes: a user token in strict mode
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/llm/simple', payload: { prompt: 'x' } })).statusCode, 401)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/llm/simple', payload: { prompt: 'x' }, headers })).statusCode, 503, 'through to the gateway (no provider configured)')
      // machine routes take the service token and a platform administrator's, no other user's
      const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator' }))
      assert.equal((await t.app.inject({ url: '/platform/tenants/x', headers: operator })).statusCode, 401)
      assert.equal((await t.app.inject({ url: '/platform/tenants/x', headers })).statusCode, 404, 'a platform administrator passes')
      assert.equal((await t.app.inject({ url: '/platform/tenants/x', headers: { authorization: `Bearer ${serviceToken}` } })).statusCode, 404)
      // PBX routes are an administrator's in strict mode, reads too
      assert.equal((await t.app.inject({ url: '/api/pbx/status' })).statusCode, 401)
      assert.equal((await t.app.inject({ url: '/api/pbx/preview/sip' })).statusCode, 401)
      assert.equal((await t.app.inject({ url: '/api/pbx/status', headers: operator })).json().code, 'administrators_only')
      assert.equal((await t.app.inject({ url: '/api/pbx/status', headers })).statusCode, 200)
      // so does the list of online operators, which carries callers' numbers
      assert.equal((await t.app.inject({ url: '/api/call-events/online-operators' })).statusCode, 401)
      assert.equal((await t.app.inject({ url: '/api/call-events/online-operators', headers })).statusCode, 200)
      // and the persons search, which answers citizens' IINs and phones
      assert.equal((await t.app.inject({ url: '/api/references/persons?q=1' })).statusCode, 401)
      assert.equal((await t.app.inject({ url: '/api/references/persons?q=1', headers })).statusCode, 200)
    } finally { await t.close() }
  })

  it('strict without SERVICE_TOKEN: machine routes take administrators\' tokens (the platform control its platform administrators\'), nobody else', async () => {
    const t = await buildTestApp({ env: { AUTH_MODE: 'strict' } })
    try {
      const event = { operator_num: '101001', caller_phone: '+77011234567', call_datetime: new Date().toISOString() }
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: event })).statusCode, 401)
      const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator' }))
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: event, headers: operator })).json().code, 'administrators_only')
      const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      assert.notEqual((await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: event, headers: admin })).statusCode, 401)
      assert.equal((await t.app.inject({ url: '/platform/tenants' })).statusCode, 401)
      const staffAdmin = await login(t.app, await makeUser(t.database.db, { role: 'admin', user_type: 'staff' }))
      assert.equal((await t.app.inject({ url: '/platform/tenants', headers: staffAdmin })).json().code, 'platform_administrators_only')
      assert.equal((await t.app.inject({ url: '/platform/tenants', headers: admin })).statusCode, 200)
    } finally { await t.close() }
  })
})

describe('start-up bootstrap', () => {
  it('creates the first administrator once, from ADMIN_EMAIL/ADMIN_PASSWORD', async () => {
    const t = await buildTestApp()
    try {
      const config = loadConfig({ ...testEnv, ADMIN_EMAIL: 'Chief@Akimat.kz', ADMIN_PASSWORD: 'Chief-password-1' })
      assert.deepEqual(await ensureFirstAdmin(config, t.database.db, false), { created: true, email: 'chief@akimat.kz', generatedPassword: undefined })
      assert.equal((await ensureFirstAdmin(config, t.database.db, false)).created, false)
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'chief@akimat.kz', password: 'Chief-password-1' } })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().user.role, 'admin')
      assert.equal(res.json().must_change_password, false)
    } finally { await t.close() }
  })

  it('on the embedded database without ADMIN_PASSWORD generates one that must be changed', async () => {
    const t = await buildTestApp()
    try {
      const result = await ensureFirstAdmin(loadConfig(testEnv), t.database.db, true)
      assert.ok(result.generatedPassword && result.generatedPassword.length >= 16)
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@localhost', password: result.generatedPassword } })
      assert.equal(res.json().must_change_password, true)
    } finally { await t.close() }
  })

  it('on a server database without ADMIN_PASSWORD creates nobody; a generated JWT key is kept and shared', async () => {
    const t = await buildTestApp()
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent' })
      assert.equal((await ensureFirstAdmin(config, t.database.db, false)).created, false)
      const first = await resolveJwtSecret(config, t.database.db)
      assert.ok(first.length >= 32)
      assert.equal(await resolveJwtSecret(config, t.database.db), first)
    } finally { await t.close() }
  })
})
