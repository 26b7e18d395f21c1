import { asc, eq, isNotNull, sql } from 'drizzle-orm'
import type { AppDb } from './client.js'
import type { appealTypes, categories, classifiers, regions, responseMethods, sources, subcategories } from './schema/index.js'

/** a table whose rows are named in Russian (`name`) and may be named in Kazakh too (`name_kk`) */
type KazakhNamed = typeof sources | typeof responseMethods | typeof regions | typeof classifiers | typeof appealTypes | typeof categories | typeof subcategories

/** the rows that have a Kazakh name, with it */
export const kazakhNamesOf = (db: AppDb, t: KazakhNamed) =>
  db.select({ id: t.id, name_kk: sql<string>`${t.name_kk}` }).from(t).where(isNotNull(t.name_kk)).orderBy(asc(t.id))

/** names a row in Kazakh, or (null) no longer; undefined when there is no such row */
export const setKazakhNameOf = async (db: AppDb, t: KazakhNamed, id: number, nameKk: string | null) =>
  (await db.update(t).set({ name_kk: nameKk }).where(eq(t.id, id)).returning({ id: t.id, name: t.name, name_kk: t.name_kk }))[0]
