import { NotFoundError } from '../../lib/errors.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import type { Clock } from '../../lib/clock.js'
import { classifierItemLabels } from '../classifiers/queries.js'
import type { RegionService } from '../regions/service.js'
import { createNameTrigrams } from './name-trigrams.js'
import { cleanPersonContact, type PersonContact } from './person-input.js'
import type { ItemKind, NamedKind, PersonRow, ReferenceRepo } from './repo.js'
import type { PersonCreate, PersonResponse, PersonUpdate } from './schemas.js'

/** how many of the newest names the trigram counts come from: about 40 ms on PostgreSQL, refreshed hourly */
const NAMES_COUNTED = 20_000

const itemLabels: Record<ItemKind, string> = { source: 'Source', responseMethod: 'Response method' }
const namedLabels: Record<NamedKind, string> = { ...itemLabels, region: 'Region', ...classifierItemLabels }

const toPerson = (p: PersonRow): PersonResponse => ({ id: p.id, full_name: p.full_name, iin: p.iin, phone: p.phone, email: p.email, is_active: p.is_active })

/** How a search text is matched: words against name and e-mail, digits against IIN and phone. */
export function personQuery (q: string): { text?: string, digits?: string, exact?: string } {
  const text = q.trim().toLowerCase().replace(/\s+/g, ' ')
  if (text === '') return {}
  const phoneLike = /^[+\d\s\-()]+$/.test(text)
  if (!phoneLike) return { text }
  let digits = text.replace(/\D/g, '')
  if (digits.length >= 2 && digits.startsWith('8')) digits = `7${digits.slice(1)}` // 8 701... is stored as +7701...
  const exact = /^\d{12}$/.test(text.replace(/\s/g, '')) ? text.replace(/\s/g, '') : normalizeKzPhone(text)
  return { digits: digits || undefined, exact }
}

export function createReferenceService ({ repo, regions, clock }: { repo: ReferenceRepo, regions: Pick<RegionService, 'items'>, clock: Clock }) {
  const cleanPerson = <T extends PersonContact>(input: T): T => cleanPersonContact(input, clock(), ['body'])
  const nameTrigrams = createNameTrigrams({ loadNames: () => repo.newestNames(NAMES_COUNTED), now: () => clock().getTime() })

  return {
    listItems: (kind: ItemKind, includeInactive: boolean) => repo.listItems(kind, includeInactive),
    async updateItem (kind: ItemKind, id: number, values: { name?: string, is_active?: boolean }) {
      const row = Object.keys(values).length === 0 ? await repo.findItem(kind, id) : await repo.updateItem(kind, id, values)
      if (!row) throw new NotFoundError(itemLabels[kind])
      return row
    },
    async removeItem (kind: ItemKind, id: number) {
      if (!await repo.removeItem(kind, id)) throw new NotFoundError(itemLabels[kind])
      return { message: `${itemLabels[kind]} deleted` }
    },

    kazakhNames: (kind: NamedKind) => repo.kazakhNames(kind),
    async setKazakhName (kind: NamedKind, id: number, nameKk: string | null) {
      const row = await repo.setKazakhName(kind, id, nameKk)
      if (!row) throw new NotFoundError(namedLabels[kind])
      return row
    },

    appealTypes: () => repo.appealTypeItems(),
    categories: (appealTypeId?: number) => repo.categoryItems(appealTypeId),
    subcategories: (categoryId?: number) => repo.subcategoryItems(categoryId),
    organizations: (regionId?: number) => repo.organizationItems(regionId),
    regions: () => regions.items(),

    async searchPersons (query: { q?: string, include_inactive: boolean, limit: number }) {
      const rows = await repo.searchPersons({ ...personQuery(query.q ?? ''), includeInactive: query.include_inactive, limit: query.limit, probesOf: nameTrigrams.probesOf })
      return rows.map(toPerson)
    },
    createPerson: async (input: PersonCreate) => toPerson(await repo.insertPerson(cleanPerson(input))), // a known IIN is 409
    async updatePerson (id: number, input: PersonUpdate) {
      const values = cleanPerson(input)
      const row = Object.keys(values).length === 0 ? await repo.findPerson(id) : await repo.updatePerson(id, values)
      if (!row) throw new NotFoundError('Person')
      return toPerson(row)
    },
    async removePerson (id: number) {
      if (!await repo.removePerson(id)) throw new NotFoundError('Person')
      return { message: 'Person deleted' }
    },
  }
}

export type ReferenceService = ReturnType<typeof createReferenceService>
