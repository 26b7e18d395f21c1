import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { seedReferenceData } from '../../src/db/seed/index.js'
import { regionOfPhone, type CodedRegion } from '../../web/src/references/area-code.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'

// The desk's guess of a landline caller's region, on the seeded regions as GET /api/regions answers them.
describe('console: a caller\'s region by the area code', () => {
  let t: TestApp
  let regions: (CodedRegion & { name: string })[]
  const guess = (phone: string | null) => {
    const found = regionOfPhone(phone, regions)
    return found && `${regions.find((r) => r.id === found.id)!.name} ${found.code}`
  }

  before(async () => {
    t = await buildTestApp()
    await seedReferenceData(t.database.db)
    regions = (await t.app.inject({ url: '/api/regions?include_inactive=true' })).json()
  })
  after(() => t.close())

  it('the longest code wins; an oblast and its centre share one: the centre; a city and its districts: the city', () => {
    assert.equal(guess('+77172551234'), 'город Астана 7172')
    assert.equal(guess('8 727 255 12 34'), 'город Алматы 727')
    assert.equal(guess('8 (72772) 4-12-34'), 'Конаев 72772', 'not Almaty\'s 727')
    assert.equal(guess('+7 7222 52 12 34'), 'Семей 7222')
    assert.equal(guess('87225112345'), 'Курчатов 72251')
  })

  it('none for a mobile, a foreign, a malformed number or an unknown code', () => {
    for (const phone of ['+77012345678', '+77471234567', '+77781234567', '+1 202 555 0100', '7172', '+7717255123', null, '+77199999999']) {
      assert.equal(guess(phone), undefined, String(phone))
    }
  })

  it('a region taken out of use is not guessed: its oblast is', async () => {
    const semey = regions.find((r) => r.name === 'Семей')!
    semey.is_active = false
    assert.equal(guess('+77222521234'), 'область Абай 7222')
    semey.is_active = true
  })
})
