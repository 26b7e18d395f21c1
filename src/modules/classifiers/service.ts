import { ConflictError, NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { groupBy } from '../../lib/collections.js'
import { levelOf, type ClassifierRepo, type LevelName, type Row } from './repo.js'
import { classifierItemLabels } from './queries.js'
import type { ClassifierTree } from './schemas.js'

/**
 * Rows to wire: timestamps as ISO 8601. Typed loosely on purpose: the level is chosen at run time,
 * and each route's response schema is what checks and filters the fields that leave.
 */
type WireRow = any
const toWire = (row: Row): WireRow => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]))

export function createClassifierService ({ repo }: { repo: ClassifierRepo }) {
  async function get (level: LevelName, id: number) {
    const row = await repo.findById(level, id)
    if (!row) throw new NotFoundError(classifierItemLabels[level])
    return toWire(row)
  }

  return {
    get,
    /** the active subcategories as labels "appeal type / category / subcategory", at most `limit` */
    async subcategoryChoices (limit: number) {
      return (await repo.activeSubcategoryPaths(limit)).map((r) => ({ id: r.id, label: `${r.appeal_type} / ${r.category} / ${r.subcategory}` }))
    },
    list: async (level: LevelName, filter: { parentId?: number, includeInactive: boolean }) =>
      (await repo.list(level, filter)).map(toWire),

    async create (level: LevelName, input: Record<string, unknown>) {
      const parent = levelOf(level).parent
      if (parent) {
        const parentId = input[parent.field] as number
        if (!await repo.parentExists(level, parentId)) {
          throw RequestValidationError.field(['body', parent.field], `${parent.field.replace(/_id$/, '').replace('_', ' ')} ${parentId} does not exist`, parentId)
        }
      }
      return toWire(await repo.insert(level, input)) // a duplicate classifier code is 409 (unique index)
    },

    async update (level: LevelName, id: number, input: Record<string, unknown>) {
      if (Object.keys(input).length === 0) return get(level, id)
      const row = await repo.update(level, id, input)
      if (!row) throw new NotFoundError(classifierItemLabels[level])
      return toWire(row)
    },

    async remove (level: LevelName, id: number) {
      if (!await repo.findById(level, id)) throw new NotFoundError(classifierItemLabels[level])
      const children = await repo.childCount(level, id)
      if (children > 0) {
        const child = levelOf(level).child?.label ?? 'items'
        throw new ConflictError(`${classifierItemLabels[level]} ${id} still has ${children} ${child}; delete or move them first, or deactivate it`, 'still_referenced')
      }
      await repo.remove(level, id)
      return { message: `${classifierItemLabels[level]} deleted` }
    },

    async tree (classifierId: number): Promise<ClassifierTree> {
      const classifier = await repo.findById('classifier', classifierId)
      if (!classifier) throw new NotFoundError('Classifier')
      const { types, cats, subs } = await repo.activeTree(classifierId)
      const subsByCategory = groupBy(subs, (s) => s.category_id)
      const catsByType = groupBy(cats, (c) => c.appeal_type_id)
      return {
        id: classifier.id,
        name: classifier.name as string,
        code: classifier.code as string,
        description: classifier.description as string | null,
        is_active: classifier.is_active as boolean,
        appeal_types: types.map((t) => ({
          id: t.id, name: t.name, code: t.code, sort_order: t.sort_order, is_active: t.is_active,
          categories: (catsByType.get(t.id) ?? []).map((c) => ({
            id: c.id, name: c.name, sort_order: c.sort_order, is_active: c.is_active,
            subcategories: (subsByCategory.get(c.id) ?? []).map((s) => ({
              id: s.id, name: s.name, priority: s.priority, time_to_work: s.time_to_work, time_to_close: s.time_to_close, sort_order: s.sort_order, is_active: s.is_active,
            })),
          })),
        })),
      }
    },
  }
}

export type ClassifierService = ReturnType<typeof createClassifierService>
