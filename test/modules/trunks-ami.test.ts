import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeUser } from '../helpers/factories.js'

// The trunks' registrations as Asterisk 22.10.1 lists them (test/fixtures/asterisk-ami/trunks.txt),
// replayed by the AMI test peer: what the service says of each trunk, and what it leaves out.
describe('trunks\' registrations from Asterisk (GET /api/trunks/status, AMI test peer)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let t: TestApp
  let admin: Record<string, string>
  const ids: number[] = []

  before(async () => {
    peer = await startAmiPeer()
    t = await buildTestApp({ env: peer.env() })
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    for (const payload of [
      { name: 'Основной', mode: 'registration', host: 'sip.telecom.kz', username: '77172550000', password: 'secret-1' },
      { name: 'Резервный', mode: 'registration', host: 'sip.reserve.kz', username: '77172550001', password: 'secret-2' },
      { name: 'По адресу', mode: 'ip', host: '10.20.30.40' },
      { name: 'Новый', mode: 'registration', host: 'sip.new.kz', username: 'u3', password: 'secret-3' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/trunks/', headers: admin, payload })
      assert.equal(res.statusCode, 201, res.body)
      ids.push(res.json().id)
    }
    // Asterisk has the first three (the fourth not generated yet); the second's provider refused it
    peer.state.endpoints = ids.slice(0, 3).map((id) => `trunk${id}`)
    peer.state.registrations = [
      { name: `trunk${ids[0]}`, status: 'Registered', serverUri: 'sip:sip.telecom.kz:5060' },
      { name: `trunk${ids[1]}`, status: 'Rejected', serverUri: 'sip:sip.reserve.kz:5060' },
    ]
  })
  after(async () => {
    await t.close()
    await peer.close()
  })

  it('each trunk as Asterisk says it: registered, rejected, by address, not in Asterisk; no digest of the auth events in the answer', async () => {
    const res = await t.app.inject({ url: '/api/trunks/status', headers: admin })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().ami_connected, true)
    assert.deepEqual(res.json().trunks.map((x: Record<string, unknown>) => [x.name, x.registration, x.in_asterisk, x.server_uri]), [
      ['Основной', 'Registered', true, 'sip:sip.telecom.kz:5060'],
      ['Резервный', 'Rejected', true, 'sip:sip.reserve.kz:5060'],
      ['По адресу', null, true, null],
      ['Новый', 'Not in Asterisk', false, null],
    ])
    assert.equal(res.json().trunks[0].next_registration_seconds, 540)
    assert.doesNotMatch(res.body, /MD5|SHA-256|[0-9a-f]{32}/, 'the AuthDetail events\' digests stay out')
    assert.ok(peer.state.received.some((a) => a.Action === 'PJSIPShowRegistrationsOutbound'))
  })

  it('Asterisk not answering: every trunk listed, its state unknown, said why', async () => {
    peer.state.mode = 'silent'
    try {
      const res = await t.app.inject({ url: '/api/trunks/status', headers: admin })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().ami_connected, false)
      assert.match(res.json().message, /^Asterisk is not answering/)
      assert.deepEqual(res.json().trunks.map((x: { registration: unknown }) => x.registration), [null, null, null, null])
    } finally {
      peer.state.mode = 'normal'
    }
  })
})
