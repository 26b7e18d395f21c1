import { and, asc, eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { persons } from '../../db/schema/index.js'

/* What other modules may ask of the reference tables (their owner is this module). */

/** the first active person with this phone: whom a call from it is likely to be */
export const personByPhone = async (db: AppDb, phone: string) =>
  (await db.select({ id: persons.id, full_name: persons.full_name, iin: persons.iin }).from(persons)
    .where(and(eq(persons.phone, phone), eq(persons.is_active, true))).orderBy(asc(persons.id)).limit(1))[0]
