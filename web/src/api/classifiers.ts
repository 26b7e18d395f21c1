import { api } from './client'
import { keys } from './keys'
import { load } from './load'
import { loadKazakhNames, type NamedList } from './references'
import { orNull } from '../forms/values'

// The administration of classifiers (/api/classifiers): the whole tree with inactive items and
// Kazakh names, and each level's create, update and delete.

export type Level = 'classifier' | 'type' | 'category' | 'subcategory'
export const CHILD: Record<Level, Level | undefined> = { classifier: 'type', type: 'category', category: 'subcategory', subcategory: undefined }
/** where each level's Kazakh names are kept */
export const NAMES: Record<Level, NamedList> = { classifier: 'classifiers', type: 'appeal-types', category: 'categories', subcategory: 'subcategories' }

/** one node of the editable tree, whatever its level */
export interface Node {
  level: Level
  id: number
  name: string
  /** the console's, kept apart from the interface's item */
  name_kk: string | null
  is_active: boolean
  sort_order: number
  code?: string | null
  description?: string | null
  priority?: number
  time_to_work?: number | null
  time_to_close?: number | null
  children: Node[]
}
export type Values = Partial<Omit<Node, 'level' | 'id' | 'children'>>
/** what the interface's routes take: the Kazakh name goes by a call of its own */
export type ItemValues = Omit<Values, 'name_kk'>

const byOrder = (a: Node, b: Node) => a.sort_order - b.sort_order || a.name.localeCompare(b.name)

/** every classifier with its inactive items too (the console's tree is active-only) and the Kazakh names, as one tree */
export const editableTreeQuery = {
  queryKey: keys.admin.classifiers.tree,
  queryFn: async () => {
    const everything = { include_inactive: true }
    const [classifiers, types, categories, subcategories, ...kazakh] = await Promise.all([
      load(api.GET('/api/classifiers', { params: { query: everything } })),
      load(api.GET('/api/classifiers/appeal-types', { params: { query: everything } })),
      load(api.GET('/api/classifiers/categories', { params: { query: everything } })),
      load(api.GET('/api/classifiers/subcategories', { params: { query: everything } })),
      ...(['classifier', 'type', 'category', 'subcategory'] as const).map(async (level) => [level, await loadKazakhNames(NAMES[level])] as const),
    ])
    const kazakhNames = new Map(kazakh)
    const named = <T extends { id: number }>(level: Level, item: T) => ({ level, ...item, name_kk: kazakhNames.get(level)?.get(item.id) ?? null })
    const group = <T, K>(items: T[], key: (item: T) => K) => {
      const map = new Map<K, T[]>()
      for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item])
      return map
    }
    const subsOf = group(subcategories, (s) => s.category_id)
    const catsOf = group(categories, (c) => c.appeal_type_id)
    const typesOf = group(types, (a) => a.classifier_id)
    return classifiers.map((c): Node => ({
      ...named('classifier', c), sort_order: 0,
      children: (typesOf.get(c.id) ?? []).map((a): Node => ({
        ...named('type', a),
        children: (catsOf.get(a.id) ?? []).map((k): Node => ({
          ...named('category', k),
          children: (subsOf.get(k.id) ?? []).map((s): Node => ({ ...named('subcategory', s), children: [] })).sort(byOrder),
        })).sort(byOrder),
      })).sort(byOrder),
    }))
  },
}

/** the API calls of each level: create under a parent, update, delete */
export const classifierCalls = {
  create (level: Level, parentId: number | undefined, v: ItemValues): Promise<{ id: number }> {
    const common = { name: v.name!, is_active: v.is_active ?? true, sort_order: v.sort_order ?? 0 }
    if (level === 'classifier') return load(api.POST('/api/classifiers', { body: { name: v.name!, code: v.code!, description: orNull(v.description), is_active: v.is_active ?? true } }))
    if (level === 'type') return load(api.POST('/api/classifiers/appeal-types', { body: { ...common, classifier_id: parentId!, code: orNull(v.code) } }))
    if (level === 'category') return load(api.POST('/api/classifiers/categories', { body: { ...common, appeal_type_id: parentId! } }))
    return load(api.POST('/api/classifiers/subcategories', { body: { ...common, category_id: parentId!, priority: v.priority ?? 3, time_to_work: v.time_to_work ?? null, time_to_close: v.time_to_close ?? null } }))
  },
  update (level: Level, id: number, v: ItemValues): Promise<unknown> {
    const path = { params: { path: { item_id: id } } }
    if (level === 'classifier') return load(api.PUT('/api/classifiers/{classifier_id}', { params: { path: { classifier_id: id } }, body: { ...v, code: v.code ?? undefined, description: v.description === undefined ? undefined : orNull(v.description) } }))
    if (level === 'type') return load(api.PUT('/api/classifiers/appeal-types/{item_id}', { ...path, body: { ...v, code: v.code === undefined ? undefined : orNull(v.code) } }))
    if (level === 'category') return load(api.PUT('/api/classifiers/categories/{item_id}', { ...path, body: v }))
    return load(api.PUT('/api/classifiers/subcategories/{item_id}', { ...path, body: v }))
  },
  remove (level: Level, id: number) {
    if (level === 'classifier') return load(api.DELETE('/api/classifiers/{classifier_id}', { params: { path: { classifier_id: id } } }))
    const path = { params: { path: { item_id: id } } }
    if (level === 'type') return load(api.DELETE('/api/classifiers/appeal-types/{item_id}', path))
    if (level === 'category') return load(api.DELETE('/api/classifiers/categories/{item_id}', path))
    return load(api.DELETE('/api/classifiers/subcategories/{item_id}', path))
  },
}
