// The reference seed (DESIGN 5.8): sources, response methods, the regions of Kazakhstan and the
// appeal types of the law under one default classifier. Idempotent: a second run changes nothing.
import { readFileSync } from 'node:fs'
import { and, eq, isNull } from 'drizzle-orm'
import type { AppDb } from '../client.js'
import { appealTypes, classifiers, regions, responseMethods, serviceSettings, sources } from '../schema/index.js'

const SOURCES: [string, string][] = [
  ['Телефон 109', '109 телефоны'],
  ['Telegram', 'Telegram'],
  ['Веб-сайт', 'Веб-сайт'],
  ['Мобильное приложение', 'Мобильді қосымша'],
  ['Электронная почта', 'Электрондық пошта'],
  ['Социальные сети', 'Әлеуметтік желілер'],
  ['Личный приём', 'Жеке қабылдау'],
  ['e-Otinish', 'e-Otinish'],
]

/** with the channel the service tells the citizen by (DESIGN 7.4); the others are the executor's to use */
const RESPONSE_METHODS: [string, string, 'email' | 'sms' | null][] = [
  ['Телефонный звонок', 'Телефон қоңырауы', null],
  ['SMS', 'SMS', 'sms'],
  ['Электронная почта', 'Электрондық пошта', 'email'],
  ['Личный кабинет e-Otinish', 'e-Otinish жеке кабинеті', null],
  ['Бумажное письмо', 'Қағаз хат', null],
]

export const DEFAULT_CLASSIFIER_CODE = 'DEFAULT'

export const DEFAULT_CLASSIFIER = { code: DEFAULT_CLASSIFIER_CODE, name: 'Классификатор обращений', name_kk: 'Өтініштер жіктеуіші', description: 'Виды обращений по АППК РК' }

/** The kinds of appeal of the Administrative Procedural Code of Kazakhstan, named as its Russian and Kazakh texts name them. */
export const APPEAL_TYPES: [code: string, name: string, nameKk: string][] = [
  ['STATEMENT', 'Заявление', 'Арыз'],
  ['COMPLAINT', 'Жалоба', 'Шағым'],
  ['PROPOSAL', 'Предложение', 'Ұсыныс'],
  ['RESPONSE', 'Отклик', 'Ден қою'],
  ['REQUEST', 'Запрос', 'Сұрау салу'],
  ['REPORT', 'Сообщение', 'Хабарлама'],
]

interface SeedRegion {
  name_ru: string
  name_kk?: string
  kind: string
  center?: string
  phone_code?: string
  phone_zone?: string
  local_digits?: number
  kato?: string
  unsure?: boolean
  children?: SeedRegion[]
}

export function loadSeedRegions (): SeedRegion[] {
  return JSON.parse(readFileSync(new URL('./kz_regions.json', import.meta.url), 'utf8')) as SeedRegion[]
}

async function seedRegion (db: AppDb, r: SeedRegion, parentId: number | null, sortOrder: number, isCenter: boolean): Promise<number> {
  await db.insert(regions).values({
    name: r.name_ru, name_kk: r.name_kk ?? null, parent_id: parentId, phone_code: r.phone_code ?? null, phone_zone: r.phone_zone ?? null,
    local_digits: r.local_digits ?? null, kato: r.kato ?? null, is_regional_center: isCenter, sort_order: sortOrder,
  }).onConflictDoNothing()
  const parent = parentId === null ? isNull(regions.parent_id) : eq(regions.parent_id, parentId)
  return (await db.select({ id: regions.id }).from(regions).where(and(parent, eq(regions.name, r.name_ru))))[0]!.id
}

export interface SeedCounts { sources: number, response_methods: number, regions: number, appeal_types: number }

export async function seedReferenceData (db: AppDb): Promise<SeedCounts> {
  return db.transaction(async (tx) => {
    const t: AppDb = tx
    const inserted = { sources: 0, response_methods: 0, regions: 0, appeal_types: 0 }
    for (const [i, [name, kk]] of SOURCES.entries()) {
      inserted.sources += (await t.insert(sources).values({ name, name_kk: kk, sort_order: i }).onConflictDoNothing().returning()).length
    }
    for (const [i, [name, kk, channel]] of RESPONSE_METHODS.entries()) {
      inserted.response_methods += (await t.insert(responseMethods).values({ name, name_kk: kk, sort_order: i, channel }).onConflictDoNothing().returning()).length
    }
    await t.insert(classifiers).values(DEFAULT_CLASSIFIER).onConflictDoNothing()
    const classifierId = (await t.select({ id: classifiers.id }).from(classifiers).where(eq(classifiers.code, DEFAULT_CLASSIFIER_CODE)))[0]!.id
    for (const [i, [code, name, nameKk]] of APPEAL_TYPES.entries()) {
      const exists = await t.select({ id: appealTypes.id }).from(appealTypes).where(and(eq(appealTypes.classifier_id, classifierId), eq(appealTypes.code, code)))
      if (exists.length > 0) continue
      await t.insert(appealTypes).values({ classifier_id: classifierId, code, name, name_kk: nameKk, sort_order: i })
      inserted.appeal_types++
    }
    const before = (await t.select({ id: regions.id }).from(regions)).length
    for (const [i, top] of loadSeedRegions().entries()) {
      if (top.unsure) continue
      const topId = await seedRegion(t, top, null, i, false)
      // entries the source marks unsure (codes it could not confirm) are left out
      for (const [j, child] of (top.children ?? []).filter((c) => !c.unsure).entries()) {
        await seedRegion(t, child, topId, j, child.name_ru === top.center)
      }
    }
    inserted.regions = (await t.select({ id: regions.id }).from(regions)).length - before
    return inserted
  })
}

/** On the embedded database the seed loads once, at the first start; `npm run seed` runs it anywhere. */
export async function seedOnFirstStart (db: AppDb): Promise<SeedCounts | undefined> {
  const marker = await db.insert(serviceSettings).values({ key: 'reference_seed', value: new Date().toISOString() }).onConflictDoNothing().returning()
  if (marker.length === 0) return undefined
  return seedReferenceData(db)
}
