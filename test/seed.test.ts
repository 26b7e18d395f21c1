import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadSeedRegions, seedOnFirstStart, seedReferenceData } from '../src/db/seed/index.js'
import { checkPhoneFields } from '../src/modules/regions/service.js'
import { kazakhstanCalendar, SHIPPED_YEARS } from '../src/modules/calendar/kz-holidays.js'
import { appeals, calendarDays } from '../src/db/schema/index.js'
import { buildTestApp } from './helpers/app.js'

describe('reference seed', () => {
  it('loads sources, response methods, regions and appeal types once; a second run changes nothing', async () => {
    const t = await buildTestApp()
    try {
      assert.deepEqual(await seedReferenceData(t.database.db), { sources: 8, response_methods: 5, regions: 98, appeal_types: 6 })
      const snapshot = async () => Promise.all(['/api/references/sources', '/api/references/response-methods', '/api/regions?include_inactive=true', '/api/references/appeal-types']
        .map(async (url) => (await t.app.inject({ url })).json()))
      const before = await snapshot()
      assert.deepEqual(await seedReferenceData(t.database.db), { sources: 0, response_methods: 0, regions: 0, appeal_types: 0 })
      assert.deepEqual(await snapshot(), before)
      const regions = before[2] as { name: string, parent_id: number | null, is_regional_center: boolean, full_phone_code: string }[]
      assert.equal(regions.filter((r) => r.parent_id === null).length, 20)
      assert.ok(!regions.some((r) => r.name === 'Байконыр'), 'entries marked unsure are left out')
      assert.ok(regions.find((r) => r.name === 'Семей')!.is_regional_center)
      assert.equal(regions.find((r) => r.name === 'Курчатов')!.full_phone_code, '+772251')
    } finally { await t.close() }
  })

  it('every seeded region meets the phone-code rules the API enforces', () => {
    for (const top of loadSeedRegions()) {
      for (const r of [top, ...(top.children ?? [])].filter((x) => !x.unsure)) {
        assert.doesNotThrow(() => checkPhoneFields({ phone_code: r.phone_code ?? null, phone_zone: r.phone_zone ?? null, local_digits: r.local_digits ?? null }), r.name_ru)
      }
    }
  })

  it('the first start seeds; later starts do not bring back what was deleted', async () => {
    const t = await buildTestApp()
    try {
      assert.ok(await seedOnFirstStart(t.database.db))
      const [first] = (await t.app.inject({ url: '/api/references/sources' })).json()
      await t.app.inject({ method: 'DELETE', url: `/api/references/sources/${first.id}` })
      assert.equal(await seedOnFirstStart(t.database.db), undefined)
      assert.ok(!(await t.app.inject({ url: '/api/references/sources' })).json().some((s: { id: number }) => s.id === first.id))
    } finally { await t.close() }
  })

  it('the migrations ship the working calendar the holiday rules compute, and no appeals', async () => {
    const t = await buildTestApp()
    try {
      const shipped = await t.database.db.select().from(calendarDays).orderBy(calendarDays.day)
      assert.deepEqual(shipped, SHIPPED_YEARS.flatMap((y) => kazakhstanCalendar(y)))
      assert.equal(await t.database.db.$count(appeals), 0, 'a fresh start has no appeals')
    } finally {
      await t.close()
    }
  })
})
