import { Type, type Static } from 'typebox'
import { Id, Name } from '../../lib/common-schemas.js'

export const GroupResponse = Type.Object({
  name: Type.String(),
  id: Type.Integer(),
}, { $id: 'GroupResponse' })

export const GroupCreate = Type.Object({
  name: Name(),
}, { $id: 'GroupCreate', additionalProperties: false })

export const GroupUpdate = Type.Object({
  name: Name(),
}, { $id: 'GroupUpdate', additionalProperties: false })

export const GroupIdParams = Type.Object({ group_id: Id() })

export type GroupResponse = Static<typeof GroupResponse>
export type GroupCreate = Static<typeof GroupCreate>
export type GroupUpdate = Static<typeof GroupUpdate>

export const schemas = [GroupResponse, GroupCreate, GroupUpdate]
