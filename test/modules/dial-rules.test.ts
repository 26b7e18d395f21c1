// The outbound dial rules are one description (trunks/dial-patterns.ts builtInDialRules): the
// dialplan is written from it and a number placed from the console is checked against it.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { diallingOf } from '../../src/modules/placed-calls/dialling.js'
import { isLongDistance } from '../../src/modules/pbx/generators.js'
import { builtInDialRules, patternRegExp } from '../../src/modules/trunks/dial-patterns.js'

const astana = { areaCode: '7172', localDigits: 6 }
const rulesFor = (allowLongDistance: boolean) => ({ ...astana, routes: undefined, allowLongDistance })

describe('the built-in outbound dial rules', () => {
  it('a local number is dialled in its local form by any terminal; another is long distance, refused without the permission', () => {
    assert.deepEqual(diallingOf('+77172123456', rulesFor(false)), { exten: '123456' })
    assert.deepEqual(diallingOf('+77011234567', rulesFor(true)), { exten: '87011234567' })
    assert.deepEqual(diallingOf('+77011234567', rulesFor(false)), { refused: 'Long-distance and mobile calls are not allowed from your terminal' })
    // without a known area every number is long distance
    assert.deepEqual(diallingOf('+77172123456', { areaCode: null, localDigits: null, routes: undefined, allowLongDistance: false }), { refused: 'Long-distance and mobile calls are not allowed from your terminal' })
  })

  it('what the check gives is what a rule of the dialplan takes, with the same permission', () => {
    const rules = builtInDialRules(astana)
    assert.deepEqual(rules.map((r) => [r.pattern, r.longDistance]), [['XXXXXX', false], ['8XXXXXXXXXX', true], ['+7XXXXXXXXXX', true]])
    for (const number of ['+77172123456', '+77011234567', '+77252123456']) {
      const dialled = diallingOf(number, rulesFor(true))
      assert.ok('exten' in dialled)
      const rule = rules.find((r) => patternRegExp(r.pattern).test(dialled.exten))
      assert.ok(rule, `${dialled.exten}: a rule of the dialplan takes it`)
      assert.equal(rule.longDistance, isLongDistance({ ...astana } as Parameters<typeof isLongDistance>[0], dialled.exten), dialled.exten)
    }
  })

  it('a forwarding needs the permission unless it goes to an extension or a local number', () => {
    const org = { ...astana } as Parameters<typeof isLongDistance>[0]
    assert.equal(isLongDistance(org, '101'), false)
    assert.equal(isLongDistance(org, '123456'), false)
    assert.equal(isLongDistance(org, '87011234567'), true)
    assert.equal(isLongDistance(org, '+77011234567'), true)
  })
})
