import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { PlacedCall } from '../../src/modules/placed-calls/schemas.js'

// the console's own module (its tsconfig: its imports name no extension)
const { newerOf } = await import(`../../web/src/api/${'placed-progress.js'}`) as { newerOf: (shown: PlacedCall | undefined, told: PlacedCall) => PlacedCall }

const call = (id: number, status: PlacedCall['status'], extra: Partial<PlacedCall> = {}) => ({ id, status, ...extra }) as PlacedCall

// A call placed is told live (`call.placed`) and answered by its POST: they may reach a console in
// any order (seen on a real Asterisk: `ringing_you` after `ringing_citizen`), and the console never
// goes back to a state older than the one it shows.
describe('console: a call placed never shows an older state than it had', () => {
  it('an older state told late is kept out; a newer one, or the same with more said, is taken', () => {
    const order: PlacedCall['status'][] = ['ringing_you', 'ringing_citizen', 'connected', 'ended']
    for (const [i, later] of order.entries()) {
      for (const earlier of order.slice(0, i)) {
        assert.equal(newerOf(call(7, later), call(7, earlier)).status, later, `${earlier} after ${later}`)
        assert.equal(newerOf(call(7, earlier), call(7, later)).status, later, `${later} after ${earlier}`)
      }
    }
    for (const end of ['no_answer', 'busy', 'failed'] as const) assert.equal(newerOf(call(7, end), call(7, 'ringing_citizen')).status, end)
    const withTalk = newerOf(call(7, 'ended'), call(7, 'ended', { talk_seconds: 42 }))
    assert.equal(withTalk.talk_seconds, 42, 'the same state told again with more is taken')
  })

  it('another call, or none shown yet, is taken as told', () => {
    assert.equal(newerOf(undefined, call(8, 'ringing_you')).status, 'ringing_you')
    assert.equal(newerOf(call(7, 'ended'), call(8, 'ringing_you')).id, 8)
  })
})
