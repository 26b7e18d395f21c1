import { Type, type Static } from 'typebox'
import { Id, Name, Nullable } from '../../lib/common-schemas.js'

export const ItemResponse = Type.Object({ id: Type.Integer(), name: Type.String(), is_active: Type.Boolean() }, { $id: 'ItemResponse' })
export const ItemUpdate = Type.Object({
  name: Type.Optional(Name()), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'ItemUpdate', additionalProperties: false })
export const ItemBase = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'ItemBase' })
export const CategoryItem = Type.Object({
  id: Type.Integer(), name: Type.String(), appeal_type_id: Type.Integer(),
  priority: Nullable(Type.Integer({ description: 'the highest priority (lowest number) among its active subcategories' })),
}, { $id: 'CategoryItem' })
export const SubcategoryItem = Type.Object({
  id: Type.Integer(), name: Type.String(), category_id: Type.Integer(), priority: Type.Integer(),
}, { $id: 'SubcategoryItem' })

export const PersonResponse = Type.Object({
  id: Type.Integer(), full_name: Type.String(), iin: Nullable(Type.String()), phone: Nullable(Type.String()),
  email: Nullable(Type.String()), is_active: Type.Boolean(),
}, { $id: 'PersonResponse' })
const Iin = Nullable(Type.String({ maxLength: 20, 'x-trim': true, description: '12 digits with a valid check digit' }))
const Phone = Nullable(Type.String({ maxLength: 32, description: 'normalised to +7XXXXXXXXXX' }))
const Email = Nullable(Type.String({ maxLength: 254, 'x-trim': true }))
export const PersonCreate = Type.Object({
  full_name: Name(), iin: Type.Optional(Iin), phone: Type.Optional(Phone), email: Type.Optional(Email),
}, { $id: 'PersonCreate', additionalProperties: false })
export const PersonUpdate = Type.Object({
  full_name: Type.Optional(Name()), iin: Type.Optional(Iin), phone: Type.Optional(Phone), email: Type.Optional(Email),
  is_active: Type.Optional(Type.Boolean()),
}, { $id: 'PersonUpdate', additionalProperties: false })
export const PersonListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 100 })),
  include_inactive: Type.Boolean({ default: false }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
})

export const RegionItem = Type.Object({
  id: Type.Integer(), name: Type.String(), phone_code: Nullable(Type.String()), parent_id: Nullable(Type.Integer()),
  full_phone_code: Nullable(Type.String()),
}, { $id: 'RegionItem' })
export const OrganizationItem = Type.Object({
  id: Type.Integer(), name: Type.String(), region_id: Nullable(Type.Integer()),
}, { $id: 'OrganizationItem' })

/**
 * The Kazakh names of the seeded lists, the regions and the classifier items, for the console (beyond the interface, whose
 * shapes name things once): an item without one is shown by its name.
 */
export const KazakhName = Type.Object({ id: Type.Integer(), name_kk: Type.String() }, { $id: 'KazakhName' })
export const KazakhNameUpdate = Type.Object({
  name_kk: Nullable(Type.String({ minLength: 1, maxLength: 255, 'x-trim': true, description: 'null: none (the console shows the name in Kazakh too)' })),
}, { $id: 'KazakhNameUpdate', additionalProperties: false })
export const KazakhNameResult = Type.Object({ id: Type.Integer(), name: Type.String(), name_kk: Nullable(Type.String()) }, { $id: 'KazakhNameResult' })
export const ItemIdParams = Type.Object({ item_id: Id() })

export const IncludeInactiveQuery = Type.Object({ include_inactive: Type.Boolean({ default: false }) })
export const SourceIdParams = Type.Object({ source_id: Id() })
export const MethodIdParams = Type.Object({ method_id: Id() })
export const PersonIdParams = Type.Object({ person_id: Id() })
export const CategoriesQuery = Type.Object({ appeal_type_id: Type.Optional(Id()) })
export const SubcategoriesQuery = Type.Object({ category_id: Type.Optional(Id()) })
export const OrganizationsQuery = Type.Object({ region_id: Type.Optional(Id()) })

export type PersonCreate = Static<typeof PersonCreate>
export type PersonUpdate = Static<typeof PersonUpdate>
export type PersonResponse = Static<typeof PersonResponse>

export const schemas = [ItemResponse, ItemUpdate, ItemBase, CategoryItem, SubcategoryItem, PersonResponse, PersonCreate, PersonUpdate, RegionItem, OrganizationItem, KazakhName, KazakhNameUpdate, KazakhNameResult]
