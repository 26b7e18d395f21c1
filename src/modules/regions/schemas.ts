import { Type, type Static, type TSchema } from 'typebox'
import { Id, Name, Nullable } from '../../lib/common-schemas.js'

const PhoneCode = Nullable(Type.String({ pattern: '^[0-9]{3,5}$', maxLength: 5, description: 'area code without +7 or 8: 7172, 727, 72533' }))
const PhoneZone = Nullable(Type.String({ pattern: '^[0-9]{3}$', minLength: 3, maxLength: 3, description: '3-digit ABC zone, 710-729' }))
const LocalDigits = Nullable(Type.Integer({ minimum: 5, maximum: 7, description: '10 minus the length of the area code' }))
const ParentId = Nullable(Id())

export const RegionResponse = Type.Object({
  id: Type.Integer(), name: Type.String(), phone_code: Nullable(Type.String()), phone_zone: Nullable(Type.String()),
  parent_id: Nullable(Type.Integer()), parent_name: Nullable(Type.String()), full_phone_code: Nullable(Type.String()),
  sort_order: Type.Integer(), is_active: Type.Boolean(), local_digits: Nullable(Type.Integer()), is_regional_center: Type.Boolean(),
}, { $id: 'RegionResponse' })

export const RegionTreeItem: TSchema = Type.Object({
  id: Type.Integer(), name: Type.String(), phone_code: Nullable(Type.String()), phone_zone: Nullable(Type.String()),
  children: Type.Array(Type.Unsafe({ $ref: 'RegionTreeItem#' })), is_active: Type.Boolean(),
}, { $id: 'RegionTreeItem' })

export const RegionCreate = Type.Object({
  name: Name(), phone_code: Type.Optional(PhoneCode), phone_zone: Type.Optional(PhoneZone), parent_id: Type.Optional(ParentId),
  local_digits: Type.Optional(LocalDigits), is_regional_center: Type.Optional(Type.Boolean()),
}, { $id: 'RegionCreate', additionalProperties: false })

export const RegionUpdate = Type.Object({
  name: Name(), phone_code: Type.Optional(PhoneCode), phone_zone: Type.Optional(PhoneZone), parent_id: Type.Optional(ParentId),
  local_digits: Type.Optional(LocalDigits), is_regional_center: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })), is_active: Type.Optional(Type.Boolean()),
}, { $id: 'RegionUpdate', additionalProperties: false })

export const RegionReorder = Type.Object({
  region_ids: Type.Array(Id(), { minItems: 1, maxItems: 1000, uniqueItems: true }),
}, { $id: 'RegionReorder', additionalProperties: false })

export const RegionListQuery = Type.Object({
  parent_id: Type.Optional(Id()),
  top_level: Type.Boolean({ default: false }),
  include_inactive: Type.Boolean({ default: false }),
})
export const TreeQuery = Type.Object({ include_inactive: Type.Boolean({ default: false }) })
export const RegionIdParams = Type.Object({ region_id: Id() })

export type RegionResponse = Static<typeof RegionResponse>
export type RegionCreate = Static<typeof RegionCreate>
export type RegionUpdate = Static<typeof RegionUpdate>
export interface RegionTreeItem { id: number, name: string, phone_code: string | null, phone_zone: string | null, children: RegionTreeItem[], is_active: boolean }

export const schemas = [RegionResponse, RegionTreeItem, RegionCreate, RegionUpdate, RegionReorder]
