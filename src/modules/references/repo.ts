import { and, asc, desc, eq, like, or, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { persons, responseMethods, sources } from '../../db/schema/index.js'
import { containsPattern, prefixPattern } from '../../lib/sql-text.js'
import { appealTypeItems, categoryItems, subcategoryItems } from '../classifiers/queries.js'
import { activeOrganizationItems } from '../organizations/queries.js'

export const itemTables = { source: sources, responseMethod: responseMethods }
export type ItemKind = keyof typeof itemTables
const personColumns = {
  id: persons.id, full_name: persons.full_name, iin: persons.iin, phone: persons.phone, email: persons.email, is_active: persons.is_active,
}
export type PersonRow = Pick<typeof persons.$inferSelect, keyof typeof personColumns>

export interface PersonSearch {
  /** lower-cased text matched against name and e-mail */
  text?: string
  /** digits matched against IIN and phone */
  digits?: string
  /** a full IIN or normalised phone ranked first on an exact match */
  exact?: string
  includeInactive: boolean
  limit: number
}

export function createReferenceRepo (db: AppDb) {
  return {
    listItems: (kind: ItemKind, includeInactive: boolean) => {
      const t = itemTables[kind]
      return db.select({ id: t.id, name: t.name, is_active: t.is_active }).from(t)
        .where(includeInactive ? undefined : eq(t.is_active, true)).orderBy(asc(t.sort_order), asc(t.name), asc(t.id))
    },
    updateItem: async (kind: ItemKind, id: number, values: { name?: string, is_active?: boolean }) => {
      const t = itemTables[kind]
      return (await db.update(t).set(values).where(eq(t.id, id)).returning({ id: t.id, name: t.name, is_active: t.is_active }))[0]
    },
    findItem: async (kind: ItemKind, id: number) => {
      const t = itemTables[kind]
      return (await db.select({ id: t.id, name: t.name, is_active: t.is_active }).from(t).where(eq(t.id, id)))[0]
    },
    removeItem: async (kind: ItemKind, id: number) => {
      const t = itemTables[kind]
      return (await db.delete(t).where(eq(t.id, id)).returning({ id: t.id })).length > 0
    },

    appealTypeItems: () => appealTypeItems(db),
    categoryItems: (appealTypeId?: number) => categoryItems(db, appealTypeId),
    subcategoryItems: (categoryId?: number) => subcategoryItems(db, categoryId),
    organizationItems: (regionId?: number) => activeOrganizationItems(db, regionId),

    /**
     * Three indexed queries, each bounded: exact IIN or phone; names starting with the text, in name
     * order (btree on the C-collated lower-case name); other substrings of name, e-mail, IIN or phone,
     * newest first (trigram indexes, or a backward primary-key scan that stops at the limit).
     */
    async searchPersons (s: PersonSearch): Promise<PersonRow[]> {
      const active = s.includeInactive ? undefined : eq(persons.is_active, true)
      const nameKey = sql`(lower(${persons.full_name}) collate "C")`
      const substring: SQL[] = []
      if (s.text) substring.push(like(sql`lower(${persons.full_name})`, containsPattern(s.text)), like(sql`lower(${persons.email})`, containsPattern(s.text)))
      if (s.digits) substring.push(like(persons.iin, containsPattern(s.digits)), like(persons.phone, containsPattern(s.digits)))
      const [exact, prefix, others] = await Promise.all([
        s.exact ? db.select(personColumns).from(persons).where(and(active, or(eq(persons.iin, s.exact), eq(persons.phone, s.exact)))).limit(s.limit) : [],
        s.text ? db.select(personColumns).from(persons).where(and(active, like(nameKey, prefixPattern(s.text)))).orderBy(nameKey, asc(persons.id)).limit(s.limit) : [],
        db.select(personColumns).from(persons).where(and(active, substring.length > 0 ? or(...substring) : undefined)).orderBy(desc(persons.id)).limit(s.limit),
      ])
      const seen = new Set<number>()
      return [...exact, ...prefix, ...others].filter((p) => !seen.has(p.id) && seen.add(p.id)).slice(0, s.limit)
    },
    findPerson: async (id: number) => (await db.select(personColumns).from(persons).where(eq(persons.id, id)))[0],
    insertPerson: async (values: typeof persons.$inferInsert) => (await db.insert(persons).values(values).returning(personColumns))[0]!,
    updatePerson: async (id: number, values: Partial<typeof persons.$inferInsert>) =>
      (await db.update(persons).set(values).where(eq(persons.id, id)).returning(personColumns))[0],
    removePerson: async (id: number) => (await db.delete(persons).where(eq(persons.id, id)).returning({ id: persons.id })).length > 0,
  }
}

export type ReferenceRepo = ReturnType<typeof createReferenceRepo>
