import { asc, isNotNull, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { selectRows, type AppDb } from './client.js'

/**
 * A table whose rows are named in Russian (`name`) and may be named in Kazakh too (`name_kk`). The
 * helpers below name no table: each owner passes its own (ownership test).
 */
export type KazakhNamed = PgTable & { id: PgColumn, name: PgColumn, name_kk: PgColumn }

/** the rows that have a Kazakh name, with it */
export const kazakhNamesOf = (db: AppDb, t: KazakhNamed) =>
  db.select({ id: sql<number>`${t.id}`, name_kk: sql<string>`${t.name_kk}` }).from(t).where(isNotNull(t.name_kk)).orderBy(asc(t.id))

/** names a row in Kazakh, or (null) no longer; undefined when there is no such row */
export const setKazakhNameOf = async (db: AppDb, t: KazakhNamed, id: number, nameKk: string | null) =>
  (await selectRows<{ id: number, name: string, name_kk: string | null }>(db,
    sql`update ${t} set ${sql.identifier(t.name_kk.name)} = ${nameKk} where ${t.id} = ${id} returning ${t.id} as id, ${t.name} as name, ${t.name_kk} as name_kk`))[0]
