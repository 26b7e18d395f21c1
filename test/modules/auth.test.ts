import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { SignJWT } from 'jose'
import { buildTestApp, testEnv, type TestApp } from '../helpers/app.js'
import { manualClock } from '../helpers/clock.js'
import { login, makeOrganization, makeUser, type MadeUser } from '../helpers/factories.js'

const prefixes = ['/api/auth', '/api/shared/auth']

describe('auth: login, tokens, profile', () => {
  let t: TestApp
  let admin: MadeUser
  const clock = manualClock()
  before(async () => {
    t = await buildTestApp({ deps: { clock } })
    admin = await makeUser(t.database.db, { role: 'admin' })
  })
  after(() => t.close())

  for (const prefix of prefixes) {
    it(`${prefix}/login answers LoginResponse; the token opens the profile`, async () => {
      const res = await t.app.inject({ method: 'POST', url: `${prefix}/login`, payload: { email: `  ${admin.email.toUpperCase()} `, password: admin.password } })
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.equal(body.token_type, 'bearer')
      assert.equal(body.must_change_password, false)
      assert.deepEqual(Object.keys(body.user).sort(), ['email', 'full_name', 'id', 'modules', 'organization_id', 'role', 'user_type'])
      assert.equal(body.user.email, admin.email)
      assert.equal(body.user.full_name, 'Иванов Иван')
      const [, payload] = body.access_token.split('.')
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
      assert.equal(claims.sub, String(admin.id))
      assert.equal(claims.role, 'admin')
      assert.ok(claims.exp > claims.iat)
      const profile = await t.app.inject({ url: `${prefix}/profile`, headers: { authorization: `Bearer ${body.access_token}` } })
      assert.equal(profile.statusCode, 200)
      assert.equal(profile.json().email, admin.email)
      assert.equal(profile.json().organization_name, null)
    })
  }

  it('a wrong password and an unknown e-mail get the same 401; no secret in the answer', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: 'not-the-password' }, remoteAddress: '10.0.0.1' })
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@test.kz', password: 'not-the-password' }, remoteAddress: '10.0.0.1' })
    assert.equal(wrong.statusCode, 401)
    assert.equal(unknown.statusCode, 401)
    assert.equal(wrong.body, unknown.body)
    assert.equal(wrong.headers['www-authenticate'], 'Bearer')
    assert.ok(!wrong.body.includes('not-the-password'))
  })

  it('inactive employees and invited ones without a password cannot log in', async () => {
    const inactive = await makeUser(t.database.db, { is_active: false })
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: inactive.email, password: inactive.password }, remoteAddress: '10.0.0.2' })
    assert.equal(res.statusCode, 401)
    const invited = await makeUser(t.database.db, { password: null })
    const res2 = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: invited.email, password: '' }, remoteAddress: '10.0.0.2' })
    assert.equal(res2.statusCode, 422)
  })

  it('login validates its body (422 for every missing field)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json().detail.map((d: { loc: string[] }) => d.loc), [['body', 'email'], ['body', 'password']])
  })

  describe('token attacks on a Bearer route', () => {
    const profile = (authorization?: string) => t.app.inject({ url: '/api/auth/profile', headers: authorization ? { authorization } : {} })
    const key = new TextEncoder().encode(testEnv.JWT_SECRET!)
    const claimsOf = (user: MadeUser, tv = 0) => ({ role: user.role, organization_id: null, tv })

    it('no token, a malformed header, garbage: 401 with WWW-Authenticate', async () => {
      for (const header of [undefined, 'Basic abc', 'Bearer', 'Bearer a b', 'Bearer not.a.jwt']) {
        const res = await profile(header)
        assert.equal(res.statusCode, 401, String(header))
        assert.equal(res.headers['www-authenticate'], 'Bearer')
        assert.equal(typeof res.json().detail, 'string')
      }
    })

    it('a token signed with another key is refused', async () => {
      const forged = await new SignJWT(claimsOf(admin)).setProtectedHeader({ alg: 'HS256' }).setSubject(String(admin.id))
        .setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret-another-secret'))
      assert.equal((await profile(`Bearer ${forged}`)).statusCode, 401)
    })

    it('alg none and a tampered payload are refused', async () => {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
      const exp = Math.floor(clock().getTime() / 1000) + 3600
      const none = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub: String(admin.id), ...claimsOf(admin), exp })}.`
      assert.equal((await profile(`Bearer ${none}`)).statusCode, 401)
      const { authorization } = await login(t.app, admin)
      const [h, , s] = authorization.slice(7).split('.')
      const tampered = `${h}.${enc({ sub: String(admin.id), role: 'admin', organization_id: 5, tv: 0, exp })}.${s}`
      assert.equal((await profile(`Bearer ${tampered}`)).statusCode, 401)
      // a correctly signed HS256 token is accepted, proving the refusals above are about the attack
      const header = enc({ alg: 'HS256', typ: 'JWT' })
      const body = enc({ sub: String(admin.id), ...claimsOf(admin), exp })
      const sig = createHmac('sha256', testEnv.JWT_SECRET!).update(`${header}.${body}`).digest('base64url')
      assert.equal((await profile(`Bearer ${header}.${body}.${sig}`)).statusCode, 200)
    })

    it('an expired token is refused', async () => {
      const { authorization } = await login(t.app, admin)
      assert.equal((await profile(authorization)).statusCode, 200)
      clock.advance(12 * 3600_000 + 1000)
      assert.equal((await profile(authorization)).statusCode, 401)
      const fresh = await new SignJWT(claimsOf(admin)).setProtectedHeader({ alg: 'HS256' }).setSubject(String(admin.id))
        .setIssuedAt(Math.floor(clock().getTime() / 1000) - 7200).setExpirationTime(Math.floor(clock().getTime() / 1000) - 60).sign(key)
      assert.equal((await profile(`Bearer ${fresh}`)).statusCode, 401)
    })

    it('tokens issued before a password change are revoked; the answer carries a new one', async () => {
      const user = await makeUser(t.database.db, { role: 'operator', organization_id: (await makeOrganization(t.database.db)).id })
      const old = await login(t.app, user)
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/change-password', headers: old, payload: { current_password: user.password, new_password: 'A-new-password-2026' } })
      assert.equal(res.statusCode, 200)
      assert.equal((await profile(old.authorization)).statusCode, 401)
      assert.equal((await profile(`Bearer ${res.json().access_token}`)).statusCode, 200)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } })).statusCode, 401)
      await login(t.app, { email: user.email, password: 'A-new-password-2026' })
    })

    it('the token of a deactivated employee is refused', async () => {
      const user = await makeUser(t.database.db, { role: 'admin' })
      const token = await login(t.app, user)
      const headers = await login(t.app, admin)
      const res = await t.app.inject({ method: 'PUT', url: `/api/employees/${user.id}`, headers, payload: { is_active: false } })
      assert.equal(res.statusCode, 200)
      assert.equal((await profile(token.authorization)).statusCode, 401)
    })

    it('an invalid token is refused on open routes too', async () => {
      const res = await t.app.inject({ url: '/api/shared/groups', headers: { authorization: 'Bearer not.a.jwt' } })
      assert.equal(res.statusCode, 401)
    })
  })

  describe('change-password rules', () => {
    it('wrong current password, too short, same as current, equal to the e-mail: 422 with a message', async () => {
      const user = await makeUser(t.database.db)
      const headers = await login(t.app, user)
      const change = (current_password: string, new_password: string) =>
        t.app.inject({ method: 'POST', url: '/api/shared/auth/change-password', headers, payload: { current_password, new_password } })
      const cases: [string, string, string, RegExp][] = [
        ['wrong-current-1', 'Long-enough-pass-1', 'current_password', /incorrect/],
        [user.password, 'short', 'new_password', /at least 10/],
        [user.password, user.password, 'new_password', /differ/],
        [user.password, user.email, 'new_password', /e-mail/],
      ]
      for (const [current, next, field, msg] of cases) {
        const res = await change(current, next)
        assert.equal(res.statusCode, 422, `${field} ${next}`)
        assert.deepEqual(res.json().detail[0].loc, ['body', field])
        assert.match(res.json().detail[0].msg, msg)
        assert.ok(!res.body.includes(next) || next === user.email)
      }
      assert.equal((await change(user.password, '')).statusCode, 422)
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/change-password', payload: { current_password: 'a', new_password: 'b' } })).statusCode, 401)
    })

    it('clears must_change_password', async () => {
      const user = await makeUser(t.database.db, { must_change_password: true })
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } })
      assert.equal(res.json().must_change_password, true)
      const headers = { authorization: `Bearer ${res.json().access_token}` }
      await t.app.inject({ method: 'POST', url: '/api/auth/change-password', headers, payload: { current_password: user.password, new_password: 'Brand-new-pass-1' } })
      const again = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Brand-new-pass-1' } })
      assert.equal(again.json().must_change_password, false)
    })
  })

  describe('profile', () => {
    it('GET answers the Profile fields with the organization name', async () => {
      const org = await makeOrganization(t.database.db, { name: 'Акимат города Астаны' })
      const user = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
      const res = await t.app.inject({ url: '/api/auth/profile', headers: await login(t.app, user) })
      assert.equal(res.statusCode, 200)
      const p = res.json()
      for (const field of ['id', 'email', 'last_name', 'first_name', 'middle_name', 'full_name', 'organization_id', 'organization_name', 'position', 'phone', 'modules', 'user_type', 'role']) {
        assert.ok(field in p, field)
      }
      assert.equal(p.organization_name, 'Акимат города Астаны')
      assert.equal(p.role, 'operator')
      assert.ok(!('password_hash' in p))
    })

    it('PUT updates only the query parameters given; the phone is normalised; a bad phone is 422', async () => {
      const user = await makeUser(t.database.db)
      const headers = await login(t.app, user)
      const put = (qs: string) => t.app.inject({ method: 'PUT', url: `/api/auth/profile${qs}`, headers })
      assert.equal((await put('?phone=8%20(701)%20123-45-67&position=Оператор')).statusCode, 200)
      let p = (await t.app.inject({ url: '/api/auth/profile', headers })).json()
      assert.equal(p.phone, '+77011234567')
      assert.equal(p.position, 'Оператор')
      assert.equal((await put('?position=Старший%20оператор')).statusCode, 200)
      p = (await t.app.inject({ url: '/api/auth/profile', headers })).json()
      assert.equal(p.phone, '+77011234567')
      assert.equal(p.position, 'Старший оператор')
      const bad = await put('?phone=12345')
      assert.equal(bad.statusCode, 422)
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'phone'])
      assert.equal((await t.app.inject({ method: 'PUT', url: '/api/auth/profile?phone=87011234567' })).statusCode, 401)
    })
  })

  describe('verify-docs', () => {
    it('200 with an admin token in the header or the access_token cookie; 401 otherwise', async () => {
      const adminAuth = await login(t.app, admin)
      const operator = await makeUser(t.database.db, { role: 'operator', organization_id: (await makeOrganization(t.database.db)).id })
      const operatorAuth = await login(t.app, operator)
      for (const prefix of prefixes) {
        const url = `${prefix}/verify-docs`
        assert.equal((await t.app.inject({ url, headers: adminAuth })).statusCode, 200)
        assert.equal((await t.app.inject({ url, headers: { cookie: `theme=dark; access_token=${adminAuth.authorization.slice(7)}` } })).statusCode, 200)
        assert.equal((await t.app.inject({ url })).statusCode, 401)
        assert.equal((await t.app.inject({ url, headers: operatorAuth })).statusCode, 401)
        assert.equal((await t.app.inject({ url, headers: { cookie: 'access_token=forged' } })).statusCode, 401)
      }
    })
  })
})

describe('auth: login throttling', () => {
  it('behind a trusted proxy (TRUST_PROXY), callers are told apart by X-Forwarded-For', async () => {
    const t = await buildTestApp({ env: { TRUST_PROXY: '127.0.0.1' } })
    try {
      const attempt = (forwardedFor: string, email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login',
        payload: { email, password }, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwardedFor } })
      for (let i = 0; i < 10; i++) await attempt('203.0.113.7', `nobody${i}@test.kz`, 'wrong-password')
      assert.equal((await attempt('203.0.113.7', 'nobody@test.kz', 'wrong-password')).statusCode, 429)
      const user = await makeUser(t.database.db)
      assert.equal((await attempt('198.51.100.20', user.email, user.password)).statusCode, 200, 'another client behind the same proxy is not blocked')
    } finally {
      await t.close()
    }
  })

  it('10 failures in 15 minutes answer 429 with Retry-After, per account and per address, and recover after the window', async () => {
    const clock = manualClock()
    const t = await buildTestApp({ deps: { clock } })
    try {
      const user = await makeUser(t.database.db)
      const attempt = (password: string, remoteAddress = '192.0.2.10', email = user.email) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress })
      for (let i = 0; i < 10; i++) assert.equal((await attempt('wrong-password')).statusCode, 401)
      const blocked = await attempt(user.password)
      assert.equal(blocked.statusCode, 429)
      const retryAfter = Number(blocked.headers['retry-after'])
      assert.ok(retryAfter > 0 && retryAfter <= 900, String(retryAfter))
      assert.equal(typeof blocked.json().detail, 'string')
      // the account is blocked from another address too
      assert.equal((await attempt(user.password, '192.0.2.99')).statusCode, 429)
      // and the address is blocked for other accounts
      const other = await makeUser(t.database.db)
      assert.equal((await attempt(other.password, '192.0.2.10', other.email)).statusCode, 429)
      clock.advance(15 * 60_000 + 1000)
      assert.equal((await attempt(user.password)).statusCode, 200)
    } finally {
      await t.close()
    }
  })
})
