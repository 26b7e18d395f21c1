import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { trunks } from '../../src/db/schema/index.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { readConfig } from '../helpers/asterisk-config.js'
import { login, makeOrganization, makeTerminal, makeUser } from '../helpers/factories.js'

type Headers = Record<string, string>
const SECRET = 'pr0vider-S3cret!'
const md5 = (text: string) => createHash('md5').update(text).digest('hex')
const locs = (body: { detail: { loc: (string | number)[] }[] }) => body.detail.map((d) => d.loc.join('.'))

describe('trunks (/api/trunks) and outbound routes (/api/organizations/{tenant_id}/outbound-routes)', () => {
  let t: TestApp
  let dir: string
  let admin: Headers
  let manager: Headers
  let otherManager: Headers
  let operator: Headers
  let org: { id: number, prefix: string }
  let other: { id: number, prefix: string }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appeals-trunks-'))
    t = await buildTestApp({ env: { PBX_CONFIG_DIR: dir } })
    const db = t.database.db
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    const region = (await t.app.inject({ method: 'POST', url: '/api/regions', headers: admin, payload: { name: 'Астана', phone_code: '7172' } })).json()
    org = await makeOrganization(db, { prefix: '101', region_id: region.id, name: 'Акимат Астаны' })
    other = await makeOrganization(db, { prefix: '202', name: 'Акимат Алматы' })
    manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
    otherManager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: other.id }))
    operator = await login(t.app, await makeUser(db, { role: 'operator', organization_id: org.id }))
    await makeTerminal(t.app, admin, org.id, '001')
    await makeTerminal(t.app, admin, org.id, '104')
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const routesOf = (tenant: number) => `/api/organizations/${tenant}/outbound-routes`
  let registered: { id: number }
  let byAddress: { id: number }

  it('a registration trunk keeps only the digests of username:realm:password (realm: the host unless given); nothing secret comes back', async () => {
    const res = await call('POST', '/api/trunks/', { name: 'Казахтелеком', mode: 'registration', host: 'sip.telecom.kz', username: '77172550000', password: SECRET, caller_id: '+77172550000' })
    assert.equal(res.statusCode, 201, res.body)
    registered = res.json()
    const { id, created_at: _c, updated_at: _u, ...shape } = res.json()
    assert.deepEqual(shape, {
      asterisk_name: `trunk${id}`, name: 'Казахтелеком', mode: 'registration', host: 'sip.telecom.kz', port: 5060, transport: 'transport-udp',
      username: '77172550000', realm: 'sip.telecom.kz', has_password: true, match: [], codecs: 'alaw,ulaw', context: 'appeals-inbound',
      number_format: 'e164', caller_id: '+77172550000', used_by: [],
    })
    assert.ok(!res.body.includes(SECRET))
    const [row] = await t.database.db.select().from(trunks).where(eq(trunks.id, id))
    assert.equal(row!.md5_cred, md5(`77172550000:sip.telecom.kz:${SECRET}`))
    assert.equal(row!.password_digest, `SHA-256:${createHash('sha256').update(`77172550000:sip.telecom.kz:${SECRET}`).digest('hex')}`)
  })

  it('an IP trunk: its host and addresses identified, no account; the number as the provider writes it', async () => {
    const res = await call('POST', '/api/trunks/', { name: 'Резервный оператор', mode: 'ip', host: '10.20.30.40', match: ['10.20.30.0/24'], number_format: 'national', transport: 'transport-tcp', port: 5080 })
    assert.equal(res.statusCode, 201, res.body)
    byAddress = res.json()
    assert.equal(res.json().has_password, false)
    assert.equal(res.json().username, null)
  })

  it('422 on the field: no account or password for a registration, a password for an IP trunk, malformed host, address, port, codecs, context', async () => {
    const cases: [object, string][] = [
      [{ name: 'A', mode: 'registration', host: 'sip.kz', password: SECRET }, 'body.username'],
      [{ name: 'A', mode: 'registration', host: 'sip.kz', username: 'u1' }, 'body.password'],
      [{ name: 'A', mode: 'ip', host: '10.0.0.1', password: SECRET }, 'body.password'],
      [{ name: 'A', mode: 'ip', host: 'bad host\n[x]' }, 'body.host'],
      [{ name: 'A', mode: 'ip', host: '10.0.0.1', match: ['10.0.0.1;x'] }, 'body.match.0'],
      [{ name: 'A', mode: 'ip', host: '10.0.0.1', port: 0 }, 'body.port'],
      [{ name: 'A', mode: 'ip', host: '10.0.0.1', codecs: 'alaw\nallow=all' }, 'body.codecs'],
      [{ name: 'A', mode: 'ip', host: '10.0.0.1', context: 'default' }, 'body.context'],
      [{ name: 'A', mode: 'ip', host: '10.0.0.1', context: 'org999-internal' }, 'body.context'],
      [{ name: 'A [x]', mode: 'ip', host: '10.0.0.1' }, 'body.name'],
      [{ name: 'A', mode: 'sip', host: '10.0.0.1' }, 'body.mode'],
    ]
    const before = (await call('GET', '/api/trunks/')).json().length
    for (const [payload, loc] of cases) {
      const res = await call('POST', '/api/trunks/', payload)
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
      assert.ok(locs(res.json()).includes(loc), `${JSON.stringify(payload)} said on ${loc}: ${res.body}`)
    }
    assert.equal((await call('GET', '/api/trunks/')).json().length, before, 'nothing was created')
  })

  it('a new username or realm needs the password again; switching to IP drops the account', async () => {
    const res = await call('PUT', `/api/trunks/${registered.id}`, { realm: 'telecom.kz' })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(locs(res.json()), ['body.password'])
    assert.match(res.json().detail[0].msg, /needed again/)
    const renamed = await call('PUT', `/api/trunks/${registered.id}`, { name: 'Казахтелеком (основной)' })
    assert.equal(renamed.statusCode, 200, 'a change that does not touch the digests needs no password')
    const changed = await call('PUT', `/api/trunks/${registered.id}`, { realm: 'telecom.kz', password: SECRET })
    assert.equal(changed.json().realm, 'telecom.kz')
    const [row] = await t.database.db.select().from(trunks).where(eq(trunks.id, registered.id))
    assert.equal(row!.md5_cred, md5(`77172550000:telecom.kz:${SECRET}`))
    const made = (await call('POST', '/api/trunks/', { name: 'Временный', mode: 'registration', host: 'sip.example.kz', username: 'x1', password: SECRET })).json()
    const ip = await call('PUT', `/api/trunks/${made.id}`, { mode: 'ip' })
    assert.equal(ip.statusCode, 200, ip.body)
    assert.deepEqual([ip.json().username, ip.json().realm, ip.json().has_password], [null, null, false])
    assert.equal((await call('PUT', `/api/trunks/${made.id}`, { mode: 'registration', username: 'x1' })).statusCode, 422, 'back to registration needs the password')
    assert.equal((await call('DELETE', `/api/trunks/${made.id}`)).statusCode, 204)
    assert.equal((await call('GET', `/api/trunks/${made.id}`)).statusCode, 404)
    assert.equal((await call('PUT', '/api/trunks/999999', { name: 'X' })).statusCode, 404)
  })

  it('trunks are the administrator\'s: a manager reads the list (to choose a route\'s trunks), changes nothing; an operator neither', async () => {
    assert.equal((await call('GET', '/api/trunks/', undefined, manager)).statusCode, 200)
    assert.equal((await call('POST', '/api/trunks/', { name: 'M', mode: 'ip', host: '10.1.1.1' }, manager)).statusCode, 403)
    assert.equal((await call('DELETE', `/api/trunks/${byAddress.id}`, undefined, manager)).statusCode, 403)
    assert.equal((await call('GET', '/api/trunks/status', undefined, manager)).statusCode, 403)
    assert.equal((await call('GET', '/api/trunks/', undefined, operator)).statusCode, 403)
    assert.equal((await t.app.inject({ url: '/api/trunks/' })).statusCode, 401)
  })

  let mobile: { id: number }

  it('an outbound route: patterns and trunks in order; the manager of the organization makes it', async () => {
    const res = await call('POST', `${routesOf(org.id)}/`, { name: 'Межгород и мобильные', patterns: ['8XXXXXXXXXX', '+7XXXXXXXXXX'], long_distance: true, trunk_ids: [registered.id, byAddress.id] }, manager)
    assert.equal(res.statusCode, 201, res.body)
    mobile = res.json()
    assert.deepEqual(res.json().trunk_ids, [registered.id, byAddress.id])
    assert.deepEqual(res.json().trunks.map((x: { name: string }) => x.name), ['Казахтелеком (основной)', 'Резервный оператор'])
    const local = await call('POST', `${routesOf(org.id)}/`, { name: 'Город и экстренные', patterns: ['XXXXXX', '112', '10[1-3]'], trunk_ids: [byAddress.id] })
    assert.equal(local.statusCode, 201, local.body)
    assert.equal(local.json().long_distance, false)
    assert.equal((await call('GET', `${routesOf(org.id)}/`, undefined, manager)).json().length, 2)
  })

  it('422 on the pattern or the trunk: a set backwards, a pattern that takes a terminal\'s extension or the queue, one another route has, a trunk that does not exist', async () => {
    const cases: [object, string, RegExp?][] = [
      [{ name: 'R', patterns: ['1[5-1]'], trunk_ids: [byAddress.id] }, 'body.patterns.0', /set/],
      [{ name: 'R', patterns: ['112', '10[1-4]'], trunk_ids: [byAddress.id] }, 'body.patterns.1', /extension 104/],
      [{ name: 'R', patterns: ['X'], trunk_ids: [byAddress.id] }, 'body.patterns.0', /queue/],
      [{ name: 'R', patterns: ['8XXXXXXXXXX'], trunk_ids: [byAddress.id] }, 'body.patterns.0', /Межгород/],
      [{ name: 'R', patterns: ['9XXXXXXXXXX'], trunk_ids: [byAddress.id, 999999] }, 'body.trunk_ids.1'],
      [{ name: 'R', patterns: ['_9X'], trunk_ids: [byAddress.id] }, 'body.patterns.0'],
      [{ name: 'R', patterns: ['9X'], trunk_ids: [] }, 'body.trunk_ids'],
      [{ name: 'R', patterns: [], trunk_ids: [byAddress.id] }, 'body.patterns'],
    ]
    for (const [payload, loc, msg] of cases) {
      const res = await call('POST', `${routesOf(org.id)}/`, payload)
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
      const said = res.json().detail.find((d: { loc: string[] }) => d.loc.join('.') === loc)
      assert.ok(said, `${JSON.stringify(payload)} said on ${loc}: ${res.body}`)
      if (msg) assert.match(said.msg, msg)
    }
    assert.equal((await call('GET', `${routesOf(org.id)}/`)).json().length, 2, 'nothing was created')
    assert.equal((await call('PUT', `${routesOf(org.id)}/${mobile.id}`, { patterns: ['8XXXXXXXXXX'] })).statusCode, 200, 'a route may keep its own patterns')
  })

  it('another organization\'s route is not found through this path; another manager is refused', async () => {
    assert.equal((await call('PUT', `${routesOf(other.id)}/${mobile.id}`, { name: 'X' })).statusCode, 404)
    assert.equal((await call('DELETE', `${routesOf(other.id)}/${mobile.id}`)).statusCode, 404)
    assert.equal((await call('GET', `${routesOf(org.id)}/`, undefined, otherManager)).statusCode, 403)
    assert.deepEqual((await call('GET', `${routesOf(other.id)}/`)).json(), [])
  })

  it('a trunk a route uses is not deleted: 409 names the routes and their organization', async () => {
    const res = await call('DELETE', `/api/trunks/${registered.id}`)
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().code, 'still_referenced')
    assert.match(res.json().detail, /«Межгород и мобильные» of Акимат Астаны/)
    assert.deepEqual((await call('GET', `/api/trunks/${registered.id}`)).json().used_by.map((u: { route_name: string }) => u.route_name), ['Межгород и мобильные'])
  })

  it('the files: the trunks in pjsip.conf (digests masked in the preview, whole on disk), the routes dialled in order with failover', async () => {
    const sip = (await call('GET', '/api/pbx/preview/sip')).json().content as string
    const name = `trunk${registered.id}`
    assert.match(sip, new RegExp(`\\[${name}\\]\\ntype=registration\\n(.+\\n)*server_uri=sip:sip.telecom.kz:5060\\n`))
    assert.match(sip, new RegExp(`\\[${name}\\]\\ntype=auth\\nauth_type=digest\\nusername=77172550000\\nrealm=telecom.kz\\npassword_digest=MD5:\\*{32}\\n`))
    assert.match(sip, new RegExp(`\\[trunk${byAddress.id}\\]\\ntype=identify\\nendpoint=trunk${byAddress.id}\\nmatch=10.20.30.40,10.20.30.0/24\\n`))
    assert.match(sip, /contact=sip:10\.20\.30\.40:5080;transport=tcp/)
    assert.doesNotMatch(sip, new RegExp(md5(`77172550000:telecom.kz:${SECRET}`)))
    const dialplan = (await call('GET', '/api/pbx/preview/extensions')).json().content as string
    const start = dialplan.indexOf('[org101-internal]')
    const context = dialplan.slice(start, dialplan.indexOf('\n[', start + 1))
    const extension = (pattern: string) => context.slice(context.indexOf(`exten => _${pattern},1`)).split('\nexten => ')[0]!.split('\n')
    const national = extension('8XXXXXXXXXX')
    const record = ',,U(appeals-record)'
    assert.deepEqual(national.slice(1, 2), [' same => n,ExecIf($["${ALLOW_LONG_DISTANCE}" != "yes"]?Congestion(5))'], 'a long-distance route refuses a terminal without it')
    assert.deepEqual(national.filter((l) => /Dial|CALLERID\(num\)=|GotoIf/.test(l)), [
      ' same => n,Set(CALLERID(num)=${IF($["${OUTGOING_CLI}" != ""]?${OUTGOING_CLI}:+77172550000)})',
      ` same => n,Dial(PJSIP/+7\${EXTEN:1}@${name}${record})`,
      ' same => n,GotoIf($["${DIALSTATUS}" != "CHANUNAVAIL" & "${DIALSTATUS}" != "CONGESTION"]?done)',
      ' same => n,Set(CALLERID(num)=${APPEALS_CLI})',
      ` same => n,Dial(PJSIP/8\${EXTEN:1}@trunk${byAddress.id}${record})`,
      ' same => n,GotoIf($["${DIALSTATUS}" != "CHANUNAVAIL" & "${DIALSTATUS}" != "CONGESTION"]?done)',
    ], 'the first trunk with its caller id, then the second in its national form when the first is unavailable or congested')
    assert.ok(extension('XXXXXX').includes(` same => n,Dial(PJSIP/87172\${EXTEN}@trunk${byAddress.id}${record})`), 'a local number with the area code, in the provider\'s national form')
    assert.ok(extension('112').includes(` same => n,Dial(PJSIP/\${EXTEN}@trunk${byAddress.id}${record})`), 'an emergency number as dialled')
    assert.ok(!extension('112').some((l) => l.includes('ALLOW_LONG_DISTANCE')), 'emergency numbers for every terminal')
    assert.doesNotMatch(context, /@trunk\)/, 'the organization with routes no longer dials the hand-written trunk')
    const generated = await call('POST', '/api/pbx/generate-configs?save_to_disk=true&reload_pbx=false')
    assert.equal(generated.json().success, true, generated.body)
    assert.match(readConfig(dir, 'pjsip.conf'), new RegExp(`password_digest=MD5:${md5(`77172550000:telecom.kz:${SECRET}`)}`))
  })

  it('a terminal created later on a route\'s pattern: generation refuses and says which', async () => {
    await makeTerminal(t.app, admin, org.id, '112')
    const res = await call('POST', '/api/pbx/generate-configs?save_to_disk=false')
    assert.equal(res.json().success, false)
    assert.ok(res.json().errors.some((e: string) => /pattern 112 takes the extension 112/.test(e)), res.body)
    assert.equal((await call('DELETE', `/api/organizations/${org.id}/endpoints/101112`)).statusCode, 204)
  })

  it('status without AMI: every trunk listed, its registration unknown', async () => {
    const res = await call('GET', '/api/trunks/status')
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().ami_connected, false)
    assert.deepEqual(res.json().trunks.map((x: { registration: null, in_asterisk: null }) => [x.registration, x.in_asterisk]), [[null, null], [null, null]])
  })

  it('a route deleted frees its trunks', async () => {
    for (const r of (await call('GET', `${routesOf(org.id)}/`)).json()) assert.equal((await call('DELETE', `${routesOf(org.id)}/${r.id}`, undefined, manager)).statusCode, 204)
    assert.equal((await call('DELETE', `/api/trunks/${registered.id}`)).statusCode, 204)
  })
})
