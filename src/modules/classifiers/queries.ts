import { and, asc, eq, min, sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { kazakhNamesOf, setKazakhNameOf } from '../../db/kazakh-names.js'
import { appealTypes, categories, classifiers, subcategories } from '../../db/schema/index.js'
import { levels, type LevelName } from './repo.js'

/* What other modules may ask of the classifier tables (their owner is this module): picker items. */

/** active appeal types of active classifiers */
export const appealTypeItems = (db: AppDb) => db.select({ id: appealTypes.id, name: appealTypes.name }).from(appealTypes)
  .innerJoin(classifiers, eq(classifiers.id, appealTypes.classifier_id))
  .where(and(eq(appealTypes.is_active, true), eq(classifiers.is_active, true)))
  .orderBy(asc(appealTypes.classifier_id), asc(appealTypes.sort_order), asc(appealTypes.name), asc(appealTypes.id))

export const categoryItems = (db: AppDb, appealTypeId?: number) => db.select({
  id: categories.id, name: categories.name, appeal_type_id: categories.appeal_type_id, priority: min(subcategories.priority),
}).from(categories)
  .leftJoin(subcategories, and(eq(subcategories.category_id, categories.id), eq(subcategories.is_active, true)))
  .where(and(eq(categories.is_active, true), appealTypeId === undefined ? undefined : eq(categories.appeal_type_id, appealTypeId)))
  .groupBy(categories.id)
  .orderBy(asc(categories.sort_order), asc(categories.name), asc(categories.id))

export const subcategoryItems = (db: AppDb, categoryId?: number) => db.select({
  id: subcategories.id, name: subcategories.name, category_id: subcategories.category_id, priority: subcategories.priority,
}).from(subcategories)
  .where(and(eq(subcategories.is_active, true), categoryId === undefined ? undefined : eq(subcategories.category_id, categoryId)))
  .orderBy(asc(subcategories.sort_order), asc(subcategories.name), asc(subcategories.id))

export interface SubcategoryForAppeal {
  subcategory_id: number, category_id: number, appeal_type_id: number, classifier_id: number,
  priority: number, time_to_work: number | null, time_to_close: number | null, is_active: boolean,
}

/** subcategoryForAppeal as a JSON column of the caller's query (null: no such subcategory) */
export const subcategoryForAppealFact = (id: number) => sql<SubcategoryForAppeal | null>`(select json_build_object(
    'subcategory_id', s.id, 'category_id', c.id, 'appeal_type_id', t.id, 'classifier_id', t.classifier_id,
    'priority', s.priority, 'time_to_work', s.time_to_work, 'time_to_close', s.time_to_close, 'is_active', s.is_active)
  from ${subcategories} s join ${categories} c on c.id = s.category_id join ${appealTypes} t on t.id = c.appeal_type_id where s.id = ${id})`

/** a subcategory with its place in the tree and its terms: what an appeal copies at registration */
export const subcategoryForAppeal = async (db: AppDb, id: number) => (await db.select({
  subcategory_id: subcategories.id, category_id: categories.id, appeal_type_id: appealTypes.id, classifier_id: appealTypes.classifier_id,
  priority: subcategories.priority, time_to_work: subcategories.time_to_work, time_to_close: subcategories.time_to_close, is_active: subcategories.is_active,
}).from(subcategories)
  .innerJoin(categories, eq(categories.id, subcategories.category_id))
  .innerJoin(appealTypes, eq(appealTypes.id, categories.appeal_type_id))
  .where(eq(subcategories.id, id)))[0]

const levelTables = { appeal_type: appealTypes, category: categories, subcategory: subcategories } as const
export type ClassificationLevel = keyof typeof levelTables

/** the name of a classification item at this level, correlated to the caller's row */
export const classificationName = (level: ClassificationLevel, id: SQLWrapper) =>
  sql<string | null>`(select c.name from ${levelTables[level]} c where c.id = ${id})`

/** the classifier items, each level named in Kazakh too (the console's names) */
export type ClassifierItemKind = LevelName
/** each level's name in the service's messages ("Category not found") */
export const classifierItemLabels: Record<ClassifierItemKind, string> = { classifier: 'Classifier', appealType: 'Appeal type', category: 'Category', subcategory: 'Subcategory' }
export const classifierKazakhNames = (db: AppDb, kind: ClassifierItemKind) => kazakhNamesOf(db, levels[kind].table)
export const setClassifierKazakhName = (db: AppDb, kind: ClassifierItemKind, id: number, nameKk: string | null) => setKazakhNameOf(db, levels[kind].table, id, nameKk)
