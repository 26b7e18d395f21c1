import { sql } from 'drizzle-orm'
import { check, type AnyPgColumn } from 'drizzle-orm/pg-core'

/** A CHECK constraint keeping a status column to its values: the database refuses anything else. */
export const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) =>
  check(name, sql`${column} in (${sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '))})`)
