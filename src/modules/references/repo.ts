import { asc, desc, eq, sql, type SQL } from 'drizzle-orm'
import { selectRows, type AppDb } from '../../db/client.js'
import { kazakhNamesOf, setKazakhNameOf } from '../../db/kazakh-names.js'
import { persons, responseMethods, sources } from '../../db/schema/index.js'
import { containsPattern, prefixPattern } from '../../lib/sql-text.js'
import { appealTypeItems, categoryItems, classifierKazakhNames, setClassifierKazakhName, subcategoryItems, type ClassifierItemKind } from '../classifiers/queries.js'
import { activeOrganizationItems } from '../organizations/queries.js'
import { regionKazakhNames, setRegionKazakhName } from '../regions/queries.js'
import { rarestTrigrams, trigramsOf } from './name-trigrams.js'

export const itemTables = { source: sources, responseMethod: responseMethods }
export type ItemKind = keyof typeof itemTables
/** what has a Kazakh name besides its name: the seeded lists' items, the regions and the classifier items */
export type NamedKind = ItemKind | 'region' | ClassifierItemKind

interface KazakhNameKeeper {
  names: (db: AppDb) => Promise<{ id: number, name_kk: string }[]>
  set: (db: AppDb, id: number, nameKk: string | null) => Promise<{ id: number, name: string, name_kk: string | null } | undefined>
}
const ownTable = (t: (typeof itemTables)[ItemKind]): KazakhNameKeeper =>
  ({ names: (db) => kazakhNamesOf(db, t), set: (db, id, nameKk) => setKazakhNameOf(db, t, id, nameKk) })
const classifierItem = (kind: ClassifierItemKind): KazakhNameKeeper =>
  ({ names: (db) => classifierKazakhNames(db, kind), set: (db, id, nameKk) => setClassifierKazakhName(db, kind, id, nameKk) })
/** where each kind's Kazakh names are kept: the seeded lists' own tables; regions and classifier items through their owners' queries */
const kazakhNameKeepers: Record<NamedKind, KazakhNameKeeper> = {
  source: ownTable(itemTables.source),
  responseMethod: ownTable(itemTables.responseMethod),
  region: { names: regionKazakhNames, set: setRegionKazakhName },
  classifier: classifierItem('classifier'),
  appealType: classifierItem('appealType'),
  category: classifierItem('category'),
  subcategory: classifierItem('subcategory'),
}
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
  /** the trigrams the index reads for a word of several typed, besides those taken by the words before it; by default its first two */
  probesOf?: (word: string, taken: ReadonlySet<string>) => string[]
}

/**
 * `value` contains `words`. Each word is its own LIKE: the trigram index then reads only the trigrams
 * inside words, not those across a space ("ов " is in half of all names), which is several times
 * faster; `strpos` (which the index does not see) then checks the words stand together as typed.
 */
function containsText (value: SQL, words: string[]): SQL {
  const each = words.map((word) => sql`${value} like ${containsPattern(word)}`)
  return words.length === 1 ? each[0]! : sql`${sql.join(each, sql` and `)} and strpos(${value}, ${words.join(' ')}) > 0`
}

const NOTHING_COUNTED: ReadonlyMap<string, number> = new Map()

/**
 * `value` contains `words`, each of which has trigrams. The trigram index reads only the probes,
 * the rarest trigrams of each word (see name-trigrams.ts); `strpos` then checks the text.
 */
function containsProbedText (value: SQL, words: string[], probesOf: NonNullable<PersonSearch['probesOf']>): SQL {
  const taken = new Set<string>()
  for (const word of words) for (const probe of probesOf(word, taken)) taken.add(probe)
  const probes = [...taken].map((probe) => sql`${value} like ${containsPattern(probe)}`)
  return sql`${sql.join(probes, sql` and `)} and strpos(${value}, ${words.join(' ')}) > 0`
}

/**
 * One statement. Each way of matching is its own bounded, indexed subquery, so each gets its own plan:
 * the exact IIN or phone (btree); names starting with the text (btree on the C-collated lower-case
 * name, in name order); substrings of the name, the e-mail (only for ASCII text: e-mails are ASCII),
 * the IIN or the phone (not when a whole IIN or phone was typed), newest first (a trigram index for
 * rare text, a backward primary-key scan that stops at the limit for common text; the planner
 * chooses from the column statistics that migration 0020 raises; several words: see below). The
 * candidates, at most `limit` of each way, are ranked: the exact match first, then the strict word
 * similarity of the text to the name (whole words first), names starting with the text, name, id.
 */
export function personSearchStatement (s: PersonSearch): SQL {
  const active = s.includeInactive ? sql`true` : sql`${persons.is_active}`
  const name = sql`lower(${persons.full_name})`
  const nameKey = sql`(${name} collate "C")`
  const way = (tier: number, match: SQL, order: SQL) =>
    sql`(select ${persons.id}, ${persons.full_name}, ${persons.iin}, ${persons.phone}, ${persons.email}, ${persons.is_active}, ${sql.raw(String(tier))} as tier
      from ${persons} where ${active} and ${match} order by ${order} limit ${s.limit})`
  const newest = (match: SQL) => way(2, match, sql`${persons.id} desc`)
  const allMatchesNewest = sql`${persons.id} + 0 desc`
  const ways: SQL[] = []
  let prelude = sql``
  if (s.exact) ways.push(way(0, sql`(${persons.iin} = ${s.exact} or ${persons.phone} = ${s.exact})`, sql`${persons.id}`))
  if (s.text) {
    ways.push(way(1, sql`${nameKey} like ${prefixPattern(s.text)}`, sql`${nameKey}, ${persons.id}`))
    // Several words with three letters or digits each rarely match many persons: read all their
    // matches through an index, newest first. "id + 0" hides the primary key's order from the
    // planner, which would otherwise walk it backwards hoping to meet the limit early, and when its
    // estimate is wrong read most of the table. Whole words first (short lists: a name, not "ович");
    // substrings only when those are fewer than the limit (the gate is a one-time filter, so the
    // trigram search does not run otherwise), as a whole-word match outranks any other.
    const words = s.text.split(' ')
    if (words.length > 1 && words.every((w) => trigramsOf(w).length > 0)) {
      const wholeWords = sql`to_tsvector('simple', ${name}) @@ plainto_tsquery('simple', ${s.text}) and strpos(${name}, ${s.text}) > 0`
      prelude = sql`whole_word as ${way(2, wholeWords, allMatchesNewest)},`
      ways.push(sql`(select * from whole_word)`)
      const probesOf = s.probesOf ?? ((word, taken) => rarestTrigrams(word, NOTHING_COUNTED, taken))
      ways.push(way(2, sql`(select count(*) from whole_word) < ${s.limit} and ${containsProbedText(name, words, probesOf)}`, allMatchesNewest))
    } else {
      ways.push(newest(containsText(name, words)))
    }
    if (/^[\x20-\x7e]+$/.test(s.text)) ways.push(newest(sql`lower(${persons.email}) like ${containsPattern(s.text)}`))
  }
  if (s.digits && !s.exact) {
    const digits = sql`(${persons.iin} like ${containsPattern(s.digits)} or ${persons.phone} like ${containsPattern(s.digits)})`
    ways.push(s.digits.length >= 6 ? way(2, digits, allMatchesNewest) : newest(digits)) // six digits are in few IINs and phones
  }
  if (ways.length === 0) ways.push(newest(sql`true`))
  const similarity = s.text ? sql`strict_word_similarity(${s.text}, lower(full_name)) desc,` : sql``
  return sql`with ${prelude} candidate as (${sql.join(ways, sql` union all `)})
    select id, full_name, iin, phone, email, is_active from (select distinct on (id) * from candidate order by id, tier) c
    order by tier = 0 desc, ${similarity} tier, (lower(full_name) collate "C"), id
    limit ${s.limit}`
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

    kazakhNames: (kind: NamedKind) => kazakhNameKeepers[kind].names(db),
    setKazakhName: (kind: NamedKind, id: number, nameKk: string | null) => kazakhNameKeepers[kind].set(db, id, nameKk),

    appealTypeItems: () => appealTypeItems(db),
    categoryItems: (appealTypeId?: number) => categoryItems(db, appealTypeId),
    subcategoryItems: (categoryId?: number) => subcategoryItems(db, categoryId),
    organizationItems: (regionId?: number) => activeOrganizationItems(db, regionId),

    /** the lower-case names of the newest persons, for the trigram counts */
    newestNames: async (count: number) => (await db.select({ name: sql<string>`lower(${persons.full_name})` }).from(persons).orderBy(desc(persons.id)).limit(count)).map((r) => r.name),
    searchPersons: async (s: PersonSearch): Promise<PersonRow[]> => selectRows<PersonRow>(db, personSearchStatement(s)),
    findPerson: async (id: number) => (await db.select(personColumns).from(persons).where(eq(persons.id, id)))[0],
    insertPerson: async (values: typeof persons.$inferInsert) => (await db.insert(persons).values(values).returning(personColumns))[0]!,
    updatePerson: async (id: number, values: Partial<typeof persons.$inferInsert>) =>
      (await db.update(persons).set(values).where(eq(persons.id, id)).returning(personColumns))[0],
    removePerson: async (id: number) => (await db.delete(persons).where(eq(persons.id, id)).returning({ id: persons.id })).length > 0,
  }
}

export type ReferenceRepo = ReturnType<typeof createReferenceRepo>
