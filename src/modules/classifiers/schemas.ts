import { Type, type Static } from 'typebox'
import { Id, Name, Nullable } from '../../lib/common-schemas.js'

const Code = Type.String({ minLength: 1, maxLength: 64, 'x-trim': true })
const Description = Nullable(Type.String({ maxLength: 10000, 'x-trim': true }))
const SortOrder = Type.Integer({ minimum: 0, maximum: 1_000_000 })
const Priority = Type.Integer({ minimum: 1, maximum: 5, description: '1 is the highest priority, 5 the lowest' })
const Hours = (what: string) => Nullable(Type.Integer({ minimum: 0, maximum: 87_600, description: `${what}, in whole hours` }))
const ParentId = Id()

export const ClassifierResponse = Type.Object({
  id: Type.Integer(), name: Type.String(), code: Type.String(), description: Nullable(Type.String()),
  is_active: Type.Boolean(), created_at: Type.String({ format: 'date-time' }),
}, { $id: 'ClassifierResponse' })
export const ClassifierCreate = Type.Object({
  name: Name(), code: Code, description: Type.Optional(Description), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'ClassifierCreate', additionalProperties: false })
export const ClassifierUpdate = Type.Object({
  name: Type.Optional(Name()), code: Type.Optional(Code), description: Type.Optional(Description), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'ClassifierUpdate', additionalProperties: false })

export const AppealTypeResponse = Type.Object({
  id: Type.Integer(), classifier_id: Type.Integer(), name: Type.String(), code: Nullable(Type.String()),
  sort_order: Type.Integer(), is_active: Type.Boolean(),
}, { $id: 'AppealTypeResponse' })
export const AppealTypeCreate = Type.Object({
  classifier_id: ParentId, name: Name(), code: Type.Optional(Nullable(Code)), sort_order: Type.Optional(SortOrder), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'AppealTypeCreate', additionalProperties: false })
export const AppealTypeUpdate = Type.Object({
  name: Type.Optional(Name()), code: Type.Optional(Nullable(Code)), sort_order: Type.Optional(SortOrder), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'AppealTypeUpdate', additionalProperties: false })

export const CategoryResponse = Type.Object({
  id: Type.Integer(), appeal_type_id: Type.Integer(), name: Type.String(), sort_order: Type.Integer(), is_active: Type.Boolean(),
}, { $id: 'CategoryResponse' })
export const CategoryCreate = Type.Object({
  appeal_type_id: ParentId, name: Name(), sort_order: Type.Optional(SortOrder), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'CategoryCreate', additionalProperties: false })
export const CategoryUpdate = Type.Object({
  name: Type.Optional(Name()), sort_order: Type.Optional(SortOrder), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'CategoryUpdate', additionalProperties: false })

export const SubcategoryResponse = Type.Object({
  id: Type.Integer(), category_id: Type.Integer(), name: Type.String(), priority: Type.Integer(),
  time_to_work: Nullable(Type.Integer()), time_to_close: Nullable(Type.Integer()), sort_order: Type.Integer(), is_active: Type.Boolean(),
}, { $id: 'SubcategoryResponse' })
export const SubcategoryCreate = Type.Object({
  category_id: ParentId, name: Name(), priority: Type.Optional(Priority), time_to_work: Type.Optional(Hours('time to start work')),
  time_to_close: Type.Optional(Hours('time to close')), sort_order: Type.Optional(SortOrder), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'SubcategoryCreate', additionalProperties: false })
export const SubcategoryUpdate = Type.Object({
  name: Type.Optional(Name()), priority: Type.Optional(Priority), time_to_work: Type.Optional(Hours('time to start work')),
  time_to_close: Type.Optional(Hours('time to close')), sort_order: Type.Optional(SortOrder), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'SubcategoryUpdate', additionalProperties: false })

const TreeSubcategory = Type.Object({
  id: Type.Integer(), name: Type.String(), priority: Type.Integer(), time_to_work: Nullable(Type.Integer()),
  time_to_close: Nullable(Type.Integer()), sort_order: Type.Integer(), is_active: Type.Boolean(),
})
const TreeCategory = Type.Object({
  id: Type.Integer(), name: Type.String(), sort_order: Type.Integer(), is_active: Type.Boolean(), subcategories: Type.Array(TreeSubcategory),
})
const TreeAppealType = Type.Object({
  id: Type.Integer(), name: Type.String(), code: Nullable(Type.String()), sort_order: Type.Integer(), is_active: Type.Boolean(),
  categories: Type.Array(TreeCategory),
})
export const ClassifierTree = Type.Object({
  id: Type.Integer(), name: Type.String(), code: Type.String(), description: Nullable(Type.String()), is_active: Type.Boolean(),
  appeal_types: Type.Array(TreeAppealType),
}, { $id: 'ClassifierTree' })

export const ClassifierIdParams = Type.Object({ classifier_id: Id() })
export const ItemIdParams = Type.Object({ item_id: Id() })
const includeInactive = Type.Boolean({ default: false })
export const AppealTypeListQuery = Type.Object({ classifier_id: Type.Optional(Id()), include_inactive: includeInactive })
export const CategoryListQuery = Type.Object({ appeal_type_id: Type.Optional(Id()), include_inactive: includeInactive })
export const SubcategoryListQuery = Type.Object({ category_id: Type.Optional(Id()), include_inactive: includeInactive })
export const ClassifierListQuery = Type.Object({ include_inactive: includeInactive })

export type ClassifierResponse = Static<typeof ClassifierResponse>
export type ClassifierTree = Static<typeof ClassifierTree>

export const schemas = [
  ClassifierResponse, ClassifierCreate, ClassifierUpdate, ClassifierTree,
  AppealTypeResponse, AppealTypeCreate, AppealTypeUpdate,
  CategoryResponse, CategoryCreate, CategoryUpdate,
  SubcategoryResponse, SubcategoryCreate, SubcategoryUpdate,
]
