import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { api, type Schemas } from '../api/client'
import { load } from '../api/load'

// Reference data changes a few times a day: read once per page load, kept five minutes.
const KEEP = { staleTime: 5 * 60_000, gcTime: 30 * 60_000 }

export const useSources = () => useQuery({ queryKey: ['references', 'sources'], queryFn: () => load(api.GET('/api/references/sources')), ...KEEP })
export const useResponseMethods = () => useQuery({ queryKey: ['references', 'response-methods'], queryFn: () => load(api.GET('/api/references/response-methods')), ...KEEP })
export const useRegionTree = () => useQuery({ queryKey: ['references', 'regions-tree'], queryFn: () => load(api.GET('/api/regions/tree')), ...KEEP })
export const useOrganizations = () => useQuery({ queryKey: ['references', 'organizations'], queryFn: () => load(api.GET('/api/references/organizations')), ...KEEP })
export const useSubcategories = () => useQuery({ queryKey: ['references', 'subcategories'], queryFn: () => load(api.GET('/api/references/subcategories')), ...KEEP })

/** the lists whose items have a Kazakh name besides their (Russian) name */
export type NamedList = 'sources' | 'response-methods' | 'regions' | 'classifiers' | 'appeal-types' | 'categories' | 'subcategories'
export type LocalName = (item: { id: number, name: string }) => string

/** the Kazakh names of a list, id → name */
export const loadKazakhNames = async (list: NamedList): Promise<Map<number, string>> =>
  new Map((await load(api.GET(`/api/references/kazakh-names/${list}`))).map((n) => [n.id, n.name_kk]))

export const useKazakhNames = (list: NamedList, enabled = true) => useQuery({
  queryKey: ['references', 'kazakh-names', list],
  queryFn: () => loadKazakhNames(list),
  enabled,
  ...KEEP,
})

/** names an item in Kazakh, or (null) no longer */
export const saveKazakhName = (list: NamedList, id: number, nameKk: string | null) =>
  load(api.PUT(`/api/references/kazakh-names/${list}/{item_id}`, { params: { path: { item_id: id } }, body: { name_kk: nameKk } }))

/** a form's Kazakh name, sent only when it changed: the console's, a call of its own after the item's */
export async function saveKazakhNameIfChanged (list: NamedList, id: number, nameKk: string | null | undefined, before: string | null) {
  if ((nameKk ?? null) !== before) await saveKazakhName(list, id, nameKk ?? null)
}

const useSpeaksKazakh = () => useTranslation().i18n.language === 'kk'

/** an item that carries both its names, named in the console's language: the Russian name when it has no Kazakh one */
export function useBothNamed () {
  const kazakh = useSpeaksKazakh()
  return useCallback((item: { name: string, name_kk?: string | null }) => (kazakh ? item.name_kk ?? item.name : item.name), [kazakh])
}

/** an item's name in the console's language: in Kazakh its Kazakh name, the Russian one when it has none */
export function useLocalName (list: NamedList): LocalName {
  const kazakh = useSpeaksKazakh()
  // asked for only while the console speaks Kazakh
  const names = useKazakhNames(list, kazakh).data
  return useCallback((item) => (kazakh ? names?.get(item.id) : undefined) ?? item.name, [kazakh, names])
}

/** every active classifier with its tree: appeal types, categories, subcategories */
export const useClassifierTrees = () => useQuery({
  queryKey: ['references', 'classifier-trees'],
  queryFn: async () => {
    const classifiers = await load(api.GET('/api/classifiers'))
    return Promise.all(classifiers.map((c) => load(api.GET('/api/classifiers/{classifier_id}/tree', { params: { path: { classifier_id: c.id } } }))))
  },
  ...KEEP,
})

export interface TreeOption { value: string | number, title: string, selectable?: boolean, children?: TreeOption[] }

/** the classifier items' names in the console's language, one function a level */
export interface ClassificationNames { classifier: LocalName, appealType: LocalName, category: LocalName, subcategory: LocalName }

/** the classifier trees as a TreeSelect's options: only subcategories can be picked */
export function classificationOptions (trees: Schemas['ClassifierTree'][], name: ClassificationNames): TreeOption[] {
  return trees.map((c) => ({
    value: `c${c.id}`, title: name.classifier(c), selectable: false,
    children: c.appeal_types.filter((a) => a.is_active).map((a) => ({
      value: `a${a.id}`, title: name.appealType(a), selectable: false,
      children: a.categories.filter((k) => k.is_active).map((k) => ({
        value: `k${k.id}`, title: name.category(k), selectable: false,
        children: k.subcategories.filter((s) => s.is_active).map((s) => ({ value: s.id, title: name.subcategory(s) })),
      })),
    })),
  }))
}

/** the classification picker's options, named in the console's language */
export function useClassificationOptions () {
  const trees = useClassifierTrees()
  const classifier = useLocalName('classifiers')
  const appealType = useLocalName('appeal-types')
  const category = useLocalName('categories')
  const subcategory = useLocalName('subcategories')
  const options = useMemo(() => classificationOptions(trees.data ?? [], { classifier, appealType, category, subcategory }),
    [trees.data, classifier, appealType, category, subcategory])
  return { options, loading: trees.isLoading }
}

const asNamed: LocalName = (item) => item.name

export function regionOptions (tree: Schemas['RegionTreeItem'][], name = asNamed): TreeOption[] {
  return tree.filter((r) => r.is_active).map((r) => ({ value: r.id, title: name(r), children: regionOptions(r.children, name) }))
}

/** id → name of a list, made once per list (and language) */
export function useNames (items: { id: number, name: string }[] | undefined, name = asNamed): Map<number, string> {
  return useMemo(() => new Map((items ?? []).map((i) => [i.id, name(i)])), [items, name])
}

/** every region, those taken out of use too: the regions page edits them, an appeal or an organization keeps its region's name */
export const allRegionsQuery = {
  queryKey: ['references', 'regions-all'],
  queryFn: () => load(api.GET('/api/regions', { params: { query: { include_inactive: true } } })),
}

export const useAllRegions = () => useQuery({ ...allRegionsQuery, ...KEEP })

/** id → name of every region, in the console's language */
export function useRegionNames (): Map<number, string> {
  return useNames(useAllRegions().data, useLocalName('regions'))
}

/** the key of a form opened on an item named in Kazakh: a form takes its initial values once, so it is made again when the names come */
export const keyOnceNamed = (id: number, kazakhNames: Map<number, string> | undefined) => `${id}:${kazakhNames ? 'named' : 'naming'}`
