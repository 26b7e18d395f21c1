// This module's part of the reference seed (DESIGN 5.8): the appeal types of the law under one
// default classifier. Idempotent: a second run adds nothing.
import { and, eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { appealTypes, classifiers } from '../../db/schema/index.js'

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

/** adds the default classifier and those of its appeal types missing; answers how many types were added */
export async function seedDefaultClassifier (db: AppDb): Promise<number> {
  await db.insert(classifiers).values(DEFAULT_CLASSIFIER).onConflictDoNothing()
  const classifierId = (await db.select({ id: classifiers.id }).from(classifiers).where(eq(classifiers.code, DEFAULT_CLASSIFIER_CODE)))[0]!.id
  let added = 0
  for (const [i, [code, name, nameKk]] of APPEAL_TYPES.entries()) {
    const exists = await db.select({ id: appealTypes.id }).from(appealTypes).where(and(eq(appealTypes.classifier_id, classifierId), eq(appealTypes.code, code)))
    if (exists.length > 0) continue
    await db.insert(appealTypes).values({ classifier_id: classifierId, code, name, name_kk: nameKk, sort_order: i })
    added++
  }
  return added
}
