import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { buildTestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

// What a phone needs to register (GET /api/organizations/{tenant_id}/endpoints/phone-settings).
describe('a phone\'s settings', () => {
  it('the server and port of PBX_SIP_SERVER, the realm, the echo test; for the organization\'s managers and admins only', async () => {
    const t = await buildTestApp({ env: { PBX_SIP_SERVER: 'pbx.centre.kz:5080', PBX_SIP_REALM: 'centre', PBX_WEBSOCKET_URL: 'wss://pbx.centre.kz:8089/ws' } })
    try {
      const db = t.database.db
      const org = await makeOrganization(db, { prefix: '101' })
      const other = await makeOrganization(db, { prefix: '202' })
      const url = `/api/organizations/${org.id}/endpoints/phone-settings`
      const as = async (headers: Record<string, string>) => t.app.inject({ url, headers })
      const manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
      const res = await as(manager)
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { server: 'pbx.centre.kz', port: 5080, realm: 'centre', echo_test: '*43', websocket_url: 'wss://pbx.centre.kz:8089/ws' })
      assert.equal((await as(await login(t.app, await makeUser(db, { role: 'operator', organization_id: org.id })))).statusCode, 403)
      assert.equal((await as(await login(t.app, await makeUser(db, { role: 'manager', organization_id: other.id })))).statusCode, 403)
      assert.equal((await t.app.inject({ url })).statusCode, 401)
    } finally {
      await t.close()
    }
  })

  it('without PBX_SIP_SERVER: no server (the console says to ask for it), port 5060; a malformed one stops the start', async () => {
    const t = await buildTestApp()
    try {
      const org = await makeOrganization(t.database.db, { prefix: '303' })
      const admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
      const res = await t.app.inject({ url: `/api/organizations/${org.id}/endpoints/phone-settings`, headers: admin })
      assert.deepEqual(res.json(), { server: null, port: 5060, realm: 'asterisk', echo_test: '*43', websocket_url: null })
    } finally {
      await t.close()
    }
    await assert.rejects(buildTestApp({ env: { PBX_SIP_SERVER: 'pbx centre;x' } }), /PBX_SIP_SERVER/)
  })
})
