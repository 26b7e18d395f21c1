import { and, asc, eq, sql, type SQLWrapper } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { persons, responseMethods, sources } from '../../db/schema/index.js'

/* What other modules may ask of the reference tables (their owner is this module). */

/** the first active person with this phone: whom a call from it is likely to be */
export const personByPhone = async (db: AppDb, phone: string) =>
  (await db.select({ id: persons.id, full_name: persons.full_name, iin: persons.iin }).from(persons)
    .where(and(eq(persons.phone, phone), eq(persons.is_active, true))).orderBy(asc(persons.id)).limit(1))[0]

export const personById = async (db: AppDb, id: number) =>
  (await db.select({ id: persons.id, full_name: persons.full_name, iin: persons.iin, phone: persons.phone, email: persons.email, is_active: persons.is_active })
    .from(persons).where(eq(persons.id, id)))[0]

/** a new person; undefined when the IIN is known already (the existing person's id is then found with personByIin) */
export const insertPersonIfNew = async (db: AppDb, values: { full_name: string, iin: string | null, phone: string | null, email: string | null }) =>
  (await db.insert(persons).values(values).onConflictDoNothing({ target: persons.iin }).returning({ id: persons.id }))[0]?.id

export const personByIin = async (db: AppDb, iin: string) =>
  (await db.select({ id: persons.id, full_name: persons.full_name }).from(persons).where(eq(persons.iin, iin)))[0]

/** ids of the people with this IIN, correlated into the caller's filter */
export const personIdsWithIin = (iin: string) => sql`(select p.id from ${persons} p where p.iin = ${iin})`

/** the channel the service tells a citizen by for this response method (null: the executor tells them by other means) */
export const responseChannel = async (db: AppDb, id: number) =>
  (await db.select({ channel: responseMethods.channel }).from(responseMethods).where(eq(responseMethods.id, id)))[0]?.channel ?? null

/** the name of a source / response method, correlated to the caller's row */
export const itemName = (kind: 'source' | 'responseMethod', id: SQLWrapper) =>
  sql<string | null>`(select i.name from ${kind === 'source' ? sources : responseMethods} i where i.id = ${id})`

/** whether an active source / response method has this id, as a column of the caller's query */
export const activeItemFact = (kind: 'source' | 'responseMethod', id: number) =>
  sql<boolean>`exists (select 1 from ${kind === 'source' ? sources : responseMethods} i where i.id = ${id} and i.is_active)`
