import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { psAuths } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('SIP terminals (/api/organizations/{tenant_id}/endpoints/)', () => {
  let t: TestApp
  let admin: Record<string, string>
  let org: { id: number, prefix: string }
  let other: { id: number, prefix: string }

  before(async () => {
    t = await buildTestApp()
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    org = await makeOrganization(t.database.db, { prefix: '101' })
    other = await makeOrganization(t.database.db, { prefix: '202' })
  })
  after(() => t.close())

  const base = (tenant: number) => `/api/organizations/${tenant}/endpoints`
  const create = (payload: object, tenant = org.id, headers = admin) => t.app.inject({ method: 'POST', url: `${base(tenant)}/`, headers, payload })

  it('create (201) applies the call-centre defaults; the id is prefix + extension; no password comes back', async () => {
    const res = await create({ name: 'Оператор 1', extension: '001', password: PASSWORD })
    assert.equal(res.statusCode, 201, res.body)
    const e = res.json()
    assert.deepEqual({ ...e }, {
      id: '101001', name: 'Оператор 1', tenant_id: org.id, extension: '001', context: 'org101-internal', transport: 'transport-udp',
      disallow: 'all', allow: 'alaw,ulaw', direct_media: false, rtp_symmetric: true, force_rport: true, rewrite_contact: true,
      language: 'ru', outgoing_cli: null, allow_long_distance: false, cf_unconditional_enabled: false, cf_unconditional_dest: null,
      cf_unavailable_enabled: false, cf_unavailable_dest: null, cf_noanswer_enabled: false, cf_noanswer_dest: null, cf_noanswer_timeout: 20,
      cf_busy_enabled: false, cf_busy_dest: null, aors: '101001', auth: '101001', type: 'endpoint', mailboxes: null, employee_id: null, phone: 'desk',
    })
    assert.ok(!res.body.includes(PASSWORD))
    const [auth] = await t.database.db.select().from(psAuths).where(eq(psAuths.id, '101001'))
    assert.equal(auth!.auth_type, 'digest')
    assert.equal(auth!.md5_cred, createHash('md5').update(`101001:asterisk:${PASSWORD}`).digest('hex'), 'only the digest credentials are stored')
    assert.equal(auth!.password_digest, `SHA-256:${createHash('sha256').update(`101001:asterisk:${PASSWORD}`).digest('hex')}`)
    assert.deepEqual((await t.app.inject({ url: `${base(org.id)}/101001`, headers: admin })).json(), e)
  })

  it('422: extension, password and timeout formats, forwarding without destination, bad destinations and names', async () => {
    const cases: [object, string][] = [
      [{ extension: '01' }, 'extension'], [{ extension: '1000' }, 'extension'], [{ extension: 'abc' }, 'extension'],
      [{ password: 'short' }, 'password'], [{ password: 'Abcdefghij012345678!' }, 'password'], [{ password: 'Abcdefghij01234567890' }, 'password'],
      [{ cf_noanswer_timeout: 4 }, 'cf_noanswer_timeout'], [{ cf_noanswer_timeout: 121 }, 'cf_noanswer_timeout'],
      [{ cf_busy_enabled: true }, 'cf_busy_dest'], [{ cf_busy_dest: '12ab' }, 'cf_busy_dest'],
      [{ name: 'Оператор\n[evil]' }, 'name'], [{ name: 'x;comment' }, 'name'], [{ transport: 'udp\nallow=all' }, 'transport'],
      [{ allow: 'alaw,;ulaw' }, 'allow'], [{ direct_media: 'no' }, 'direct_media'],
    ]
    for (const [patch, field] of cases) {
      const res = await create({ name: 'Проверка', extension: '050', password: PASSWORD, ...patch })
      assert.equal(res.statusCode, 422, JSON.stringify(patch))
      assert.ok(res.json().detail.some((d: { loc: string[] }) => d.loc[1] === field), `${JSON.stringify(patch)} -> ${res.body}`)
    }
    const missing = await create({})
    assert.deepEqual(missing.json().detail.map((d: { loc: string[] }) => d.loc[1]).sort(), ['extension', 'name', 'password'])
    assert.equal((await t.app.inject({ url: `${base(org.id)}/101050`, headers: admin })).statusCode, 404, 'nothing was created')
  })

  it('409 for an extension in use and beyond max_operators', async () => {
    await create({ name: 'A', extension: '010', password: PASSWORD })
    const taken = await create({ name: 'B', extension: '010', password: PASSWORD })
    assert.equal(taken.statusCode, 409)
    assert.equal(taken.json().detail, 'extension \'010\' already exists', 'said of the field sent')
    const small = await makeOrganization(t.database.db, { prefix: '303', max_operators: 1 })
    assert.equal((await create({ name: 'A', extension: '001', password: PASSWORD }, small.id)).statusCode, 201)
    const over = await create({ name: 'B', extension: '002', password: PASSWORD }, small.id)
    assert.equal(over.statusCode, 409)
    assert.match(over.json().detail, /max_operators/)
  })

  it('update is partial, refuses extension and password, checks forwarding against the stored values', async () => {
    await create({ name: 'Правка', extension: '020', password: PASSWORD })
    const url = `${base(org.id)}/101020`
    const res = await t.app.inject({ method: 'PUT', url, headers: admin, payload: { cf_noanswer_enabled: true, cf_noanswer_dest: '87011234567', cf_noanswer_timeout: 30, allow_long_distance: true, direct_media: true } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual([res.json().name, res.json().cf_noanswer_dest, res.json().cf_noanswer_timeout, res.json().direct_media, res.json().allow_long_distance], ['Правка', '87011234567', 30, true, true])
    for (const payload of [{ extension: '021' }, { password: PASSWORD }]) {
      const refused = await t.app.inject({ method: 'PUT', url, headers: admin, payload })
      assert.equal(refused.statusCode, 422, JSON.stringify(payload))
      assert.equal(refused.json().detail[0].type, 'extra_forbidden')
    }
    assert.equal((await t.app.inject({ method: 'PUT', url, headers: admin, payload: { cf_noanswer_dest: null } })).statusCode, 422)
    assert.equal((await t.app.inject({ method: 'PUT', url, headers: admin, payload: { cf_busy_enabled: true } })).statusCode, 422)
  })

  it('a terminal is given to an employee of its own organization only', async () => {
    const own = await makeUser(t.database.db, { role: 'operator', organization_id: org.id })
    const foreign = await makeUser(t.database.db, { role: 'operator', organization_id: other.id })
    const res = await create({ name: 'Сотрудник', extension: '040', password: PASSWORD, employee_id: own.id })
    assert.equal(res.json().employee_id, own.id)
    const bad = await t.app.inject({ method: 'PUT', url: `${base(org.id)}/101040`, headers: admin, payload: { employee_id: foreign.id } })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'employee_id'])
    assert.equal((await t.app.inject({ method: 'PUT', url: `${base(org.id)}/101040`, headers: admin, payload: { employee_id: null } })).json().employee_id, null)
  })

  it('password change stores a new credential; delete answers 204', async () => {
    await create({ name: 'Пароль', extension: '030', password: PASSWORD })
    // as a terminal created before SHA-256 digests were kept
    await t.database.db.update(psAuths).set({ auth_type: 'md5', password_digest: null }).where(eq(psAuths.id, '101030'))
    const url = `${base(org.id)}/101030`
    const changed = await t.app.inject({ method: 'PUT', url: `${url}/password`, headers: admin, payload: { password: 'Zyxwvutsrq9876543210' } })
    assert.equal(changed.statusCode, 200)
    const [auth] = await t.database.db.select().from(psAuths).where(eq(psAuths.id, '101030'))
    assert.equal(auth!.md5_cred, createHash('md5').update('101030:asterisk:Zyxwvutsrq9876543210').digest('hex'))
    assert.equal(auth!.password_digest, `SHA-256:${createHash('sha256').update('101030:asterisk:Zyxwvutsrq9876543210').digest('hex')}`)
    assert.equal(auth!.auth_type, 'digest')
    assert.equal((await t.app.inject({ method: 'PUT', url: `${url}/password`, headers: admin, payload: { password: 'weak' } })).statusCode, 422)
    const deleted = await t.app.inject({ method: 'DELETE', url, headers: admin })
    assert.equal(deleted.statusCode, 204)
    assert.equal(deleted.body, '')
    assert.equal((await t.app.inject({ method: 'DELETE', url, headers: admin })).statusCode, 404)
  })

  it('isolation: another tenant\'s terminal is 404 through this tenant\'s path; managers see their own tenant only', async () => {
    await create({ name: 'Чужой', extension: '001', password: PASSWORD }, other.id)
    assert.equal((await t.app.inject({ url: `${base(org.id)}/202001`, headers: admin })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'PUT', url: `${base(org.id)}/202001`, headers: admin, payload: { name: 'x' } })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'DELETE', url: `${base(org.id)}/202001`, headers: admin })).statusCode, 404)
    assert.ok(!(await t.app.inject({ url: `${base(org.id)}/`, headers: admin })).json().some((e: { id: string }) => e.id === '202001'))
    const manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: org.id }))
    assert.equal((await t.app.inject({ url: `${base(org.id)}/`, headers: manager })).statusCode, 200)
    assert.equal((await t.app.inject({ url: `${base(other.id)}/`, headers: manager })).statusCode, 403)
    const operator = await login(t.app, await makeUser(t.database.db, { role: 'operator', organization_id: org.id }))
    assert.equal((await t.app.inject({ url: `${base(org.id)}/`, headers: operator })).statusCode, 403)
    assert.equal((await t.app.inject({ url: `${base(org.id)}/` })).statusCode, 401)
    assert.equal((await t.app.inject({ url: `${base(999999)}/`, headers: admin })).statusCode, 404)
    assert.equal((await t.app.inject({ url: `${base(org.id)}/abc`, headers: admin })).statusCode, 422)
    assert.equal((await t.app.inject({ url: `${base(org.id)}`, headers: admin })).statusCode, 404, 'the collection path ends with a slash')
  })

  it('list pages with skip/limit in extension order; counts show on the organization; prefix and delete are guarded', async () => {
    const ids = async (qs: string) => ((await t.app.inject({ url: `${base(org.id)}/${qs}`, headers: admin })).json() as { id: string }[]).map((e) => e.id)
    const all = await ids('')
    assert.deepEqual(all, [...all].sort())
    assert.deepEqual(await ids('?skip=1&limit=1'), all.slice(1, 2))
    assert.equal((await t.app.inject({ url: `${base(org.id)}/?limit=0`, headers: admin })).statusCode, 422)
    const b = (await t.app.inject({ url: `/api/organizations/${org.id}`, headers: admin })).json()
    assert.equal(b.endpoints_count, all.length)
    assert.equal(b.queues_count, 1)
    const prefix = await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}`, headers: admin, payload: { org_prefix: '909' } })
    assert.equal(prefix.statusCode, 409)
    const del = await t.app.inject({ method: 'DELETE', url: `/api/organizations/${org.id}`, headers: admin })
    assert.equal(del.statusCode, 409)
    assert.match(del.json().detail, /SIP terminals/)
  })
})
