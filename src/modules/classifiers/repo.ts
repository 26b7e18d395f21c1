import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { AppDb } from '../../db/client.js'
import { appealTypes, categories, classifiers, subcategories } from '../../db/schema/index.js'

/** One level of the hierarchy: its table, the column naming its parent, the level below it. */
export interface Level {
  table: PgTable & { id: PgColumn, is_active: PgColumn, name: PgColumn }
  parent?: { column: PgColumn, field: string, table: PgTable & { id: PgColumn } }
  child?: { table: PgTable, column: PgColumn, label: string }
  order: PgColumn[]
}

export const levels = {
  classifier: {
    table: classifiers,
    child: { table: appealTypes, column: appealTypes.classifier_id, label: 'appeal types' },
    order: [classifiers.id],
  },
  appealType: {
    table: appealTypes,
    parent: { column: appealTypes.classifier_id, field: 'classifier_id', table: classifiers },
    child: { table: categories, column: categories.appeal_type_id, label: 'categories' },
    order: [appealTypes.sort_order, appealTypes.name, appealTypes.id],
  },
  category: {
    table: categories,
    parent: { column: categories.appeal_type_id, field: 'appeal_type_id', table: appealTypes },
    child: { table: subcategories, column: subcategories.category_id, label: 'subcategories' },
    order: [categories.sort_order, categories.name, categories.id],
  },
  subcategory: {
    table: subcategories,
    parent: { column: subcategories.category_id, field: 'category_id', table: categories },
    order: [subcategories.sort_order, subcategories.name, subcategories.id],
  },
} satisfies Record<string, Level>

export type LevelName = keyof typeof levels
export const levelOf = (name: LevelName): Level => levels[name]
export type Row = Record<string, unknown> & { id: number }

/** a row of any level: each has a serial id */
function asRow (row: Record<string, unknown>): Row {
  if (typeof row.id !== 'number') throw new Error('a classifier row without an id')
  return { ...row, id: row.id }
}

export function createClassifierRepo (db: AppDb) {
  const level = levelOf
  return {
    async list (name: LevelName, filter: { parentId?: number, includeInactive: boolean }): Promise<Row[]> {
      const l = level(name)
      const where: (SQL | undefined)[] = [
        filter.includeInactive ? undefined : eq(l.table.is_active, true),
        filter.parentId === undefined || !l.parent ? undefined : eq(l.parent.column, filter.parentId),
      ]
      return (await db.select().from(l.table).where(and(...where)).orderBy(...l.order.map((c) => asc(c)))).map(asRow)
    },
    findById: async (name: LevelName, id: number): Promise<Row | undefined> =>
      (await db.select().from(level(name).table).where(eq(level(name).table.id, id))).map(asRow)[0],
    parentExists: async (name: LevelName, parentId: number): Promise<boolean> => {
      const parent = level(name).parent!
      return (await db.select({ id: parent.table.id }).from(parent.table).where(eq(parent.table.id, parentId))).length > 0
    },
    childCount: async (name: LevelName, id: number): Promise<number> => {
      const child = level(name).child
      if (!child) return 0
      return (await db.select({ n: count() }).from(child.table).where(eq(child.column, id)))[0]!.n
    },
    insert: async (name: LevelName, values: Record<string, unknown>): Promise<Row> =>
      ((await db.insert(level(name).table).values(values as never).returning()) as Row[])[0]!,
    update: async (name: LevelName, id: number, values: Record<string, unknown>): Promise<Row | undefined> =>
      ((await db.update(level(name).table).set(values as never).where(eq(level(name).table.id, id)).returning()) as Row[])[0],
    remove: async (name: LevelName, id: number): Promise<boolean> =>
      (await db.delete(level(name).table).where(eq(level(name).table.id, id)).returning({ id: level(name).table.id })).length > 0,

    /** the active levels below one classifier, in three indexed queries whatever the size of the tree */
    async activeTree (classifierId: number) {
      const types = await db.select().from(appealTypes)
        .where(and(eq(appealTypes.classifier_id, classifierId), eq(appealTypes.is_active, true)))
        .orderBy(asc(appealTypes.sort_order), asc(appealTypes.name), asc(appealTypes.id))
      const cats = types.length === 0
        ? []
        : await db.select().from(categories)
          .where(and(inArray(categories.appeal_type_id, types.map((t) => t.id)), eq(categories.is_active, true)))
          .orderBy(asc(categories.sort_order), asc(categories.name), asc(categories.id))
      const subs = cats.length === 0
        ? []
        : await db.select().from(subcategories)
          .where(and(inArray(subcategories.category_id, cats.map((c) => c.id)), eq(subcategories.is_active, true)))
          .orderBy(asc(subcategories.sort_order), asc(subcategories.name), asc(subcategories.id))
      return { types, cats, subs }
    },

    /** every active subcategory under active parents, with its path, for choosing one (LLM classify) */
    activeSubcategoryPaths: async (limit: number) => db
      .select({ id: subcategories.id, subcategory: subcategories.name, category: categories.name, appeal_type: appealTypes.name, classifier: classifiers.name })
      .from(subcategories)
      .innerJoin(categories, and(eq(categories.id, subcategories.category_id), eq(categories.is_active, true)))
      .innerJoin(appealTypes, and(eq(appealTypes.id, categories.appeal_type_id), eq(appealTypes.is_active, true)))
      .innerJoin(classifiers, and(eq(classifiers.id, appealTypes.classifier_id), eq(classifiers.is_active, true)))
      .where(eq(subcategories.is_active, true))
      .orderBy(asc(classifiers.id), asc(appealTypes.sort_order), asc(appealTypes.id), asc(categories.sort_order), asc(categories.id), asc(subcategories.sort_order), asc(subcategories.id))
      .limit(limit),
  }
}

export type ClassifierRepo = ReturnType<typeof createClassifierRepo>
