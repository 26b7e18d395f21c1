// The AMI client against the AMI test peer (a TCP server speaking Asterisk's wire format): what a
// streaming connection hands on.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { askAsterisk } from '../src/integrations/ami/ask.js'
import { AmiError, createAmiClient } from '../src/integrations/ami/client.js'
import { ServiceUnavailableError } from '../src/lib/errors.js'
import { field, type AmiMessage } from '../src/integrations/ami/protocol.js'
import { startAmiPeer } from './helpers/ami-peer.js'
import { eventually } from './helpers/http-target.js'

describe('the AMI client\'s event stream', () => {
  it('hands on an event that names an action nobody waits for (an async Originate\'s OriginateResponse), and drops a late answer', async () => {
    const peer = await startAmiPeer()
    const client = createAmiClient({ host: '127.0.0.1', port: peer.port, username: peer.username, secret: peer.secret, timeoutMs: 2000, events: 'call,agent,user,originate' })
    const heard: AmiMessage[] = []
    const stop = client.stream({ event: (m) => heard.push(m) })
    try {
      await eventually(async () => peer.streaming() === 1, 10_000, 'streaming')
      peer.sendEvent({ Event: 'OriginateResponse', Privilege: 'call,all', ActionID: 'appeals-call-7', Response: 'Success', Channel: 'PJSIP/101001-00000001', Uniqueid: '1795900000.3' })
      peer.sendEvent({ Response: 'Success', ActionID: 'appeals-999', Message: 'an answer to an action already timed out' } as Record<string, string>)
      peer.sendEvent({ Event: 'Hangup', Privilege: 'call,all', Uniqueid: '1795900000.3', Linkedid: '1795900000.3' })
      await eventually(async () => heard.some((m) => field(m, 'Event') === 'Hangup'), 10_000, 'the events heard')
      assert.deepEqual(heard.map((m) => [field(m, 'Event'), field(m, 'ActionID')]), [['OriginateResponse', 'appeals-call-7'], ['Hangup', undefined]])
    } finally {
      stop()
      client.close()
      await peer.close()
    }
  })
})

describe('asking Asterisk for an answer', () => {
  it('an AMI failure is a 503 keeping its cause; no AMI is pbx_not_configured; a bug of the service is not dressed as Asterisk\'s silence', async () => {
    const peer = await startAmiPeer()
    const client = createAmiClient({ host: '127.0.0.1', port: peer.port, username: peer.username, secret: peer.secret, timeoutMs: 300 })
    try {
      await client.action({ Action: 'Ping' })
      peer.state.mode = 'silent'
      const silent = await askAsterisk(client, (c) => c.action({ Action: 'Ping' }), { failed: 'Asterisk did not take it' }).then(() => undefined, (err: unknown) => err)
      assert.ok(silent instanceof ServiceUnavailableError)
      assert.equal(silent.code, 'pbx_unreachable')
      assert.match(silent.message, /^Asterisk did not take it: AMI Ping got no answer within 300 ms/)
      assert.ok(silent.cause instanceof AmiError)
      const none = await askAsterisk(undefined, async () => 1).then(() => undefined, (err: unknown) => err)
      assert.ok(none instanceof ServiceUnavailableError)
      assert.equal(none.code, 'pbx_not_configured')
      const bug = await askAsterisk(client, async () => { throw new TypeError('x is undefined') }).then(() => undefined, (err: unknown) => err)
      assert.ok(bug instanceof TypeError)
    } finally {
      client.close()
      await peer.close()
    }
  })
})
