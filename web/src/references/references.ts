import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../api/client'
import {
  allRegionsQuery, classifierTreesQuery, kazakhNamesQuery, organizationsQuery, regionTreeQuery, responseMethodsQuery, sourcesQuery, subcategoriesQuery,
  type NamedList,
} from '../api/references'

// The reference lists as the pages use them: read through the API layer (api/references.ts), named
// in the console's language.

export type { NamedList }
export const useSources = () => useQuery(sourcesQuery)
export const useResponseMethods = () => useQuery(responseMethodsQuery)
export const useRegionTree = () => useQuery(regionTreeQuery)
export const useOrganizations = () => useQuery(organizationsQuery)
export const useSubcategories = () => useQuery(subcategoriesQuery)
export const useAllRegions = () => useQuery(allRegionsQuery)
export const useClassifierTrees = () => useQuery(classifierTreesQuery)
export const useKazakhNames = (list: NamedList, enabled = true) => useQuery({ ...kazakhNamesQuery(list), enabled })

export type LocalName = (item: { id: number, name: string }) => string

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
  // nothing to pick: no active subcategory under any active category (a fresh classifier)
  const empty = trees.data !== undefined && !trees.data.some((c) => c.appeal_types.some((a) => a.is_active && a.categories.some((k) => k.is_active && k.subcategories.some((s) => s.is_active))))
  // an open desk learns of subcategories added since it loaded: read again when the picker opens (a 304 when unchanged);
  // a read under way may have begun before the change, so another follows it (once, however often the picker opens)
  const readAgain = useRef(false)
  const refresh = () => {
    if (!trees.isFetching) { void trees.refetch(); return }
    if (readAgain.current) return
    readAgain.current = true
    void trees.refetch({ cancelRefetch: false }).finally(() => { readAgain.current = false; void trees.refetch() })
  }
  return { options, loading: trees.isLoading, empty, refresh }
}

const asNamed: LocalName = (item) => item.name

export function regionOptions (tree: Schemas['RegionTreeItem'][], name = asNamed): TreeOption[] {
  return tree.filter((r) => r.is_active).map((r) => ({ value: r.id, title: name(r), children: regionOptions(r.children, name) }))
}

/** id → name of a list, made once per list (and language) */
export function useNames (items: { id: number, name: string }[] | undefined, name = asNamed): Map<number, string> {
  return useMemo(() => new Map((items ?? []).map((i) => [i.id, name(i)])), [items, name])
}

/** id → name of every region, in the console's language */
export function useRegionNames (): Map<number, string> {
  return useNames(useAllRegions().data, useLocalName('regions'))
}

/** the key of a form opened on an item named in Kazakh: a form takes its initial values once, so it is made again when the names come */
export const keyOnceNamed = (id: number, kazakhNames: Map<number, string> | undefined) => `${id}:${kazakhNames ? 'named' : 'naming'}`
