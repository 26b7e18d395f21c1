import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Reference data (/api/references, /api/regions, /api/classifiers as the desk reads them): the lists
// every page picks from, their Kazakh names, and the administration of sources, response methods
// and citizens.

// Reference data changes a few times a day: read once per page load, kept five minutes.
const KEEP = { staleTime: 5 * 60_000, gcTime: 30 * 60_000 }

export const sourcesQuery = { queryKey: keys.references.sources, queryFn: () => load(api.GET('/api/references/sources')), ...KEEP }
export const responseMethodsQuery = { queryKey: keys.references.responseMethods, queryFn: () => load(api.GET('/api/references/response-methods')), ...KEEP }
export const regionTreeQuery = { queryKey: keys.references.regionTree, queryFn: () => load(api.GET('/api/regions/tree')), ...KEEP }
export const organizationsQuery = { queryKey: keys.references.organizations, queryFn: () => load(api.GET('/api/references/organizations')), ...KEEP }
export const subcategoriesQuery = { queryKey: keys.references.subcategories, queryFn: () => load(api.GET('/api/references/subcategories')), ...KEEP }

/** every region, those taken out of use too: the regions page edits them, an appeal or an organization keeps its region's name */
export const allRegionsQuery = {
  queryKey: keys.references.regionsAll,
  queryFn: () => load(api.GET('/api/regions', { params: { query: { include_inactive: true } } })),
  ...KEEP,
}

/** every active classifier with its tree: appeal types, categories, subcategories */
export const classifierTreesQuery = {
  queryKey: keys.references.classifierTrees,
  queryFn: async () => {
    const classifiers = await load(api.GET('/api/classifiers'))
    return Promise.all(classifiers.map((c) => load(api.GET('/api/classifiers/{classifier_id}/tree', { params: { path: { classifier_id: c.id } } }))))
  },
  ...KEEP,
}

/** the lists whose items have a Kazakh name besides their (Russian) name */
export type NamedList = 'sources' | 'response-methods' | 'regions' | 'classifiers' | 'appeal-types' | 'categories' | 'subcategories'

/** the Kazakh names of a list, id → name */
export const loadKazakhNames = async (list: NamedList): Promise<Map<number, string>> =>
  new Map((await load(api.GET(`/api/references/kazakh-names/${list}`))).map((n) => [n.id, n.name_kk]))

export const kazakhNamesQuery = (list: NamedList) => ({ queryKey: keys.references.kazakhNames(list), queryFn: () => loadKazakhNames(list), ...KEEP })

/** names an item in Kazakh, or (null) no longer */
export const saveKazakhName = (list: NamedList, id: number, nameKk: string | null) =>
  load(api.PUT(`/api/references/kazakh-names/${list}/{item_id}`, { params: { path: { item_id: id } }, body: { name_kk: nameKk } }))

/** a form's Kazakh name, sent only when it changed: the console's, a call of its own after the item's */
export async function saveKazakhNameIfChanged (list: NamedList, id: number, nameKk: string | null | undefined, before: string | null) {
  if ((nameKk ?? null) !== before) await saveKazakhName(list, id, nameKk ?? null)
}

/** the two lists the administration edits item by item */
export type EditableList = 'sources' | 'response-methods'

export const editableLists = {
  sources: {
    list: () => load(api.GET('/api/references/sources', { params: { query: { include_inactive: true } } })),
    update: (id: number, body: Schemas['ItemUpdate']) => load(api.PUT('/api/references/sources/{source_id}', { params: { path: { source_id: id } }, body })),
    remove: (id: number) => load(api.DELETE('/api/references/sources/{source_id}', { params: { path: { source_id: id } } })),
  },
  'response-methods': {
    list: () => load(api.GET('/api/references/response-methods', { params: { query: { include_inactive: true } } })),
    update: (id: number, body: Schemas['ItemUpdate']) => load(api.PUT('/api/references/response-methods/{method_id}', { params: { path: { method_id: id } }, body })),
    remove: (id: number) => load(api.DELETE('/api/references/response-methods/{method_id}', { params: { path: { method_id: id } } })),
  },
}

export const editableListQuery = (list: EditableList) => ({ queryKey: keys.references.editable(list), queryFn: editableLists[list].list })

// citizens

type PersonFields = { full_name?: string, iin?: string | null, phone?: string | null, email?: string | null }

/** the desk's search for a caller: at least two characters */
export const personSearchQuery = (q: string) => ({
  queryKey: keys.persons.search(q),
  queryFn: () => load(api.GET('/api/references/persons', { params: { query: { q, limit: 20 } } })),
  enabled: q.length >= 2,
  staleTime: 30_000,
})

export const personListQuery = (q: string, withInactive: boolean, limit: number) => ({
  queryKey: keys.admin.persons.list(q, withInactive),
  queryFn: () => load(api.GET('/api/references/persons', { params: { query: { q: q || undefined, include_inactive: withInactive, limit } } })),
})

export const createPerson = (body: PersonFields) => load(api.POST('/api/references/persons', { body: { ...body, full_name: body.full_name ?? '' } }))
/** an emptied field is cleared, not left as it was */
export const updatePerson = (id: number, body: PersonFields) =>
  load(api.PUT('/api/references/persons/{person_id}', { params: { path: { person_id: id } }, body: { full_name: body.full_name, iin: body.iin ?? null, phone: body.phone ?? null, email: body.email ?? null } }))
export const setPersonActive = (id: number, active: boolean) => load(api.PUT('/api/references/persons/{person_id}', { params: { path: { person_id: id } }, body: { is_active: active } }))
export const removePerson = (id: number) => load(api.DELETE('/api/references/persons/{person_id}', { params: { path: { person_id: id } } }))
