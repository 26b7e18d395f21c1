import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { APPEAL_TYPES, DEFAULT_CLASSIFIER, loadSeedRegions, seedOnFirstStart, seedReferenceData } from '../src/db/seed/index.js'
import { checkPhoneFields } from '../src/modules/regions/service.js'
import { kazakhstanCalendar, SHIPPED_YEARS } from '../src/modules/calendar/kz-holidays.js'
import { appeals, appealTypes, calendarDays, classifiers } from '../src/db/schema/index.js'
import { buildTestApp } from './helpers/app.js'
import { startServiceAsReadme } from './helpers/console.js'

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
      assert.deepEqual(await seedOnFirstStart(t.database.db), { seeded: { sources: 8, response_methods: 5, regions: 98, appeal_types: 6 } })
      const [first] = (await t.app.inject({ url: '/api/references/sources' })).json()
      await t.app.inject({ method: 'DELETE', url: `/api/references/sources/${first.id}` })
      assert.equal(await seedOnFirstStart(t.database.db), undefined)
      assert.ok(!(await t.app.inject({ url: '/api/references/sources' })).json().some((s: { id: number }) => s.id === first.id))
    } finally { await t.close() }
  })

  it('a first start on a database that has reference data already (seeded by hand before) leaves it as it is', async () => {
    const t = await buildTestApp()
    try {
      await seedReferenceData(t.database.db)
      assert.deepEqual(await seedOnFirstStart(t.database.db), { present: true })
      assert.equal(await seedOnFirstStart(t.database.db), undefined)
    } finally { await t.close() }
  })

  it('npm start seeds a new database on its first start, PostgreSQL as well as embedded, and says so; SEED_ON_FIRST_START=false seeds nothing', async () => {
    const fresh = await startServiceAsReadme({ LOG_LEVEL: 'info' })
    try {
      const tree = await (await fetch(`${fresh.url}/api/regions/tree`)).json() as unknown[]
      assert.equal(tree.length, 20, 'the regions of Kazakhstan')
      assert.equal((await (await fetch(`${fresh.url}/api/references/sources`)).json() as unknown[]).length, 8)
      assert.match(fresh.output(), /first start: reference data loaded into the new database/)
    } finally { await fresh.stop() }
    const bare = await startServiceAsReadme({ LOG_LEVEL: 'info', SEED_ON_FIRST_START: 'false' })
    try {
      assert.deepEqual(await (await fetch(`${bare.url}/api/regions/tree`)).json(), [])
      assert.doesNotMatch(bare.output(), /reference data loaded/)
    } finally { await bare.stop() }
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

  it('the law\'s appeal types are named in Kazakh by the seed, and by migration 0025 in a database seeded before it (a renamed one is left alone)', async () => {
    const t = await buildTestApp()
    try {
      await seedReferenceData(t.database.db)
      const kazakhNames = async () => ({
        classifier: (await t.database.db.select({ name_kk: classifiers.name_kk }).from(classifiers).where(eq(classifiers.code, DEFAULT_CLASSIFIER.code)))[0]!.name_kk,
        types: await t.database.db.select({ code: appealTypes.code, name_kk: appealTypes.name_kk }).from(appealTypes).orderBy(appealTypes.sort_order),
      })
      const seeded = { classifier: DEFAULT_CLASSIFIER.name_kk, types: APPEAL_TYPES.map(([code, , nameKk]) => ({ code, name_kk: nameKk })) }
      assert.deepEqual(await kazakhNames(), seeded)

      // as a database seeded before the Kazakh names: none, and one type renamed by its centre
      await t.database.db.update(classifiers).set({ name_kk: null })
      await t.database.db.update(appealTypes).set({ name_kk: null })
      await t.database.db.update(appealTypes).set({ name: 'Жалоба гражданина' }).where(eq(appealTypes.code, 'COMPLAINT'))
      const migration = readFileSync(new URL('../drizzle/0025_classifier_kazakh_names.sql', import.meta.url), 'utf8')
      for (const statement of migration.split('--> statement-breakpoint').filter((s) => /^\s*(--.*\n\s*)*UPDATE/.test(s))) {
        await t.database.db.execute(sql.raw(statement))
      }
      assert.deepEqual(await kazakhNames(), { ...seeded, types: seeded.types.map((s) => (s.code === 'COMPLAINT' ? { ...s, name_kk: null } : s)) })
    } finally {
      await t.close()
    }
  })
})
