import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { api, type Schemas } from '../api/client'
import { load } from '../api/load'

// Reference data changes a few times a day: read once per page load, kept five minutes.
const KEEP = { staleTime: 5 * 60_000, gcTime: 30 * 60_000 }

export const useSources = () => useQuery({ queryKey: ['references', 'sources'], queryFn: () => load(api.GET('/api/references/sources')), ...KEEP })
export const useResponseMethods = () => useQuery({ queryKey: ['references', 'response-methods'], queryFn: () => load(api.GET('/api/references/response-methods')), ...KEEP })
export const useRegionTree = () => useQuery({ queryKey: ['references', 'regions-tree'], queryFn: () => load(api.GET('/api/regions/tree')), ...KEEP })
export const useOrganizations = () => useQuery({ queryKey: ['references', 'organizations'], queryFn: () => load(api.GET('/api/references/organizations')), ...KEEP })
export const useSubcategories = () => useQuery({ queryKey: ['references', 'subcategories'], queryFn: () => load(api.GET('/api/references/subcategories')), ...KEEP })

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

/** the classifier trees as a TreeSelect's options: only subcategories can be picked */
export function classificationOptions (trees: Schemas['ClassifierTree'][]): TreeOption[] {
  return trees.map((c) => ({
    value: `c${c.id}`, title: c.name, selectable: false,
    children: c.appeal_types.filter((a) => a.is_active).map((a) => ({
      value: `a${a.id}`, title: a.name, selectable: false,
      children: a.categories.filter((k) => k.is_active).map((k) => ({
        value: `k${k.id}`, title: k.name, selectable: false,
        children: k.subcategories.filter((s) => s.is_active).map((s) => ({ value: s.id, title: s.name })),
      })),
    })),
  }))
}

export function regionOptions (tree: Schemas['RegionTreeItem'][]): TreeOption[] {
  return tree.filter((r) => r.is_active).map((r) => ({ value: r.id, title: r.name, children: regionOptions(r.children) }))
}

/** id → name of a list, made once per list */
export function useNames (items: { id: number, name: string }[] | undefined): Map<number, string> {
  return useMemo(() => new Map((items ?? []).map((i) => [i.id, i.name])), [items])
}

/** id → name of every region of the tree */
export function useRegionNames (tree: Schemas['RegionTreeItem'][] | undefined): Map<number, string> {
  return useMemo(() => {
    const names = new Map<number, string>()
    const walk = (items: Schemas['RegionTreeItem'][]) => { for (const r of items) { names.set(r.id, r.name); walk(r.children) } }
    walk(tree ?? [])
    return names
  }, [tree])
}
