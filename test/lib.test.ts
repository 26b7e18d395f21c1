import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { iinProblem } from '../src/lib/iin.js'
import { normalizeKzPhone } from '../src/lib/phone.js'

describe('IIN', () => {
  it('accepts the valid vectors of DESIGN 5.2 and refuses the invalid one', () => {
    assert.equal(iinProblem('061211600012'), undefined)
    assert.equal(iinProblem('791028302728'), undefined)
    assert.match(iinProblem('821214240092')!, /check digit/)
  })
  it('refuses wrong lengths, letters, impossible dates and century digits', () => {
    assert.match(iinProblem('06121160001')!, /12 digits/)
    assert.match(iinProblem('06121160001a')!, /12 digits/)
    assert.match(iinProblem('061311600012')!, /birth date/)  // month 13
    assert.match(iinProblem('060230600012')!, /birth date/)  // 30 February
    assert.match(iinProblem('061211700012')!, /birth date/)  // century digit 7
  })
})

describe('Kazakhstan phone numbers', () => {
  it('normalises the usual spellings to +7XXXXXXXXXX', () => {
    for (const [input, expected] of [
      ['8 (7172) 55-44-33', '+77172554433'],
      ['+7 701 123 45 67', '+77011234567'],
      ['87011234567', '+77011234567'],
      ['77011234567', '+77011234567'],
      ['7011234567', '+77011234567'],
      ['+7(727)2-50-50-50', '+77272505050'],
    ]) assert.equal(normalizeKzPhone(input!), expected, input)
  })
  it('refuses what is not a Kazakhstan number', () => {
    for (const input of ['12345', '+1 202 555 0100', '+8 701 123 45 67', 'phone', '8701123456789', '']) {
      assert.equal(normalizeKzPhone(input), undefined, input)
    }
  })
})
