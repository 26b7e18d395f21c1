import { Type, type Static } from 'typebox'
import { Name, Nullable, Pagination } from '../../lib/common-schemas.js'
import { roles, userTypes } from '../../db/schema/users.js'

const Email = Type.String({ format: 'email', maxLength: 254, 'x-trim': true })
const RoleEnum = Type.Unsafe<typeof roles[number]>({ type: 'string', enum: [...roles] })
const UserTypeEnum = Type.Unsafe<typeof userTypes[number]>({ type: 'string', enum: [...userTypes] })
const Modules = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, uniqueItems: true })

export const EmployeeResponse = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  last_name: Type.String(),
  first_name: Type.String(),
  middle_name: Nullable(Type.String()),
  full_name: Type.String(),
  organization_id: Nullable(Type.Integer()),
  organization_name: Nullable(Type.String()),
  position: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  modules: Type.Array(Type.String()),
  user_type: Type.String(),
  role: Type.String(),
  is_active: Type.Boolean(),
  must_change_password: Type.Boolean(),
  has_password: Type.Boolean({ description: 'false until the invitation is accepted' }),
  created_at: Type.String({ format: 'date-time' }),
}, { $id: 'EmployeeResponse' })

export const EmployeeCreate = Type.Object({
  email: Email,
  last_name: Name(100),
  first_name: Name(100),
  middle_name: Type.Optional(Nullable(Type.String({ maxLength: 100, 'x-trim': true }))),
  organization_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  position: Type.Optional(Nullable(Type.String({ maxLength: 255, 'x-trim': true }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  modules: Type.Optional(Modules),
  user_type: Type.Optional(UserTypeEnum),
  role: Type.Optional(RoleEnum),
}, { $id: 'EmployeeCreate', additionalProperties: false })

export const EmployeeUpdate = Type.Object({
  email: Type.Optional(Email),
  last_name: Type.Optional(Name(100)),
  first_name: Type.Optional(Name(100)),
  middle_name: Type.Optional(Nullable(Type.String({ maxLength: 100, 'x-trim': true }))),
  organization_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  position: Type.Optional(Nullable(Type.String({ maxLength: 255, 'x-trim': true }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  modules: Type.Optional(Modules),
  user_type: Type.Optional(UserTypeEnum),
  role: Type.Optional(RoleEnum),
  is_active: Type.Optional(Type.Boolean()),
}, { $id: 'EmployeeUpdate', additionalProperties: false })

export const EmployeeListQuery = Type.Object({
  organization_id: Type.Optional(Type.Integer({ minimum: 1 })),
  role: Type.Optional(RoleEnum),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  include_inactive: Type.Boolean({ default: false }),
  ...Pagination(100),
})

export const EmployeeIdParams = Type.Object({ employee_id: Type.Integer({ minimum: 1 }) })

export type EmployeeResponse = Static<typeof EmployeeResponse>
export type EmployeeCreate = Static<typeof EmployeeCreate>
export type EmployeeUpdate = Static<typeof EmployeeUpdate>
export type EmployeeListQuery = Static<typeof EmployeeListQuery>

export const schemas = [EmployeeResponse, EmployeeCreate, EmployeeUpdate]
