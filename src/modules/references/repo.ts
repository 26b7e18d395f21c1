import { and, asc, desc, eq, like, min, or, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { appealTypes, categories, classifiers, organizations, persons, responseMethods, sources, subcategories } from '../../db/schema/index.js'
import { containsPattern, prefixPattern } from '../../lib/sql-text.js'

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

    /** active appeal types of active classifiers */
    appealTypeItems: () => db.select({ id: appealTypes.id, name: appealTypes.name }).from(appealTypes)
      .innerJoin(classifiers, eq(classifiers.id, appealTypes.classifier_id))
      .where(and(eq(appealTypes.is_active, true), eq(classifiers.is_active, true)))
      .orderBy(asc(appealTypes.classifier_id), asc(appealTypes.sort_order), asc(appealTypes.name), asc(appealTypes.id)),

    categoryItems: (appealTypeId?: number) => db.select({
      id: categories.id, name: categories.name, appeal_type_id: categories.appeal_type_id, priority: min(subcategories.priority),
    }).from(categories)
      .leftJoin(subcategories, and(eq(subcategories.category_id, categories.id), eq(subcategories.is_active, true)))
      .where(and(eq(categories.is_active, true), appealTypeId === undefined ? undefined : eq(categories.appeal_type_id, appealTypeId)))
      .groupBy(categories.id)
      .orderBy(asc(categories.sort_order), asc(categories.name), asc(categories.id)),

    subcategoryItems: (categoryId?: number) => db.select({
      id: subcategories.id, name: subcategories.name, category_id: subcategories.category_id, priority: subcategories.priority,
    }).from(subcategories)
      .where(and(eq(subcategories.is_active, true), categoryId === undefined ? undefined : eq(subcategories.category_id, categoryId)))
      .orderBy(asc(subcategories.sort_order), asc(subcategories.name), asc(subcategories.id)),

    organizationItems: (regionId?: number) => db.select({ id: organizations.id, name: organizations.name, region_id: organizations.region_id })
      .from(organizations)
      .where(and(eq(organizations.is_active, true), regionId === undefined ? undefined : eq(organizations.region_id, regionId)))
      .orderBy(asc(organizations.name), asc(organizations.id)),

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
