import { Type, type Static } from 'typebox'
import { Id, Name, Nullable, OneOf, Pagination } from '../../lib/common-schemas.js'
import { roles, userTypes } from '../../db/schema/users.js'
import { profileFields } from '../auth/schemas.js'

const Email = Type.String({ format: 'email', maxLength: 254, 'x-trim': true })
const RoleEnum = OneOf(roles)
const UserTypeEnum = OneOf(userTypes)
const Modules = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, uniqueItems: true })

export const EmployeeResponse = Type.Object({
  ...profileFields,
  modules: Type.Array(Type.String()),
  is_active: Type.Boolean(),
  must_change_password: Type.Boolean(),
  has_password: Type.Boolean({ description: 'false until the invitation is accepted' }),
  created_at: Type.String({ format: 'date-time' }),
}, { $id: 'EmployeeResponse' })

const employeeFields = {
  email: Email,
  last_name: Name(100),
  first_name: Name(100),
  middle_name: Nullable(Type.String({ maxLength: 100, 'x-trim': true })),
  organization_id: Nullable(Id()),
  position: Nullable(Type.String({ maxLength: 255, 'x-trim': true })),
  phone: Nullable(Type.String({ maxLength: 32 })),
  modules: Modules,
  user_type: UserTypeEnum,
  role: RoleEnum,
}
const { email, last_name: lastName, first_name: firstName, ...optionalOnCreate } = employeeFields

export const EmployeeCreate = Type.Object({
  email, last_name: lastName, first_name: firstName,
  ...Type.Partial(Type.Object(optionalOnCreate)).properties,
}, { $id: 'EmployeeCreate', additionalProperties: false })

export const EmployeeUpdate = Type.Object({
  ...Type.Partial(Type.Object(employeeFields)).properties,
  is_active: Type.Optional(Type.Boolean()),
}, { $id: 'EmployeeUpdate', additionalProperties: false })

export const EmployeeListQuery = Type.Object({
  organization_id: Type.Optional(Id()),
  role: Type.Optional(RoleEnum),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  include_inactive: Type.Boolean({ default: false }),
  ...Pagination(100),
})

export const EmployeeIdParams = Type.Object({ employee_id: Id() })

export type EmployeeResponse = Static<typeof EmployeeResponse>
export type EmployeeCreate = Static<typeof EmployeeCreate>
export type EmployeeUpdate = Static<typeof EmployeeUpdate>
export type EmployeeListQuery = Static<typeof EmployeeListQuery>

export const schemas = [EmployeeResponse, EmployeeCreate, EmployeeUpdate]
