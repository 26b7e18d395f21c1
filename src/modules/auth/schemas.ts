import { Type, type Static } from 'typebox'
import { Id, Nullable } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'
import { PASSWORD_MAX_LENGTH } from '../../lib/passwords.js'

const Email = Type.String({ minLength: 3, maxLength: 254, 'x-trim': true })
const Password = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH })
const OneTimeToken = Type.String({ minLength: 1, maxLength: 200, 'x-trim': true })

export const LoginRequest = Type.Object({
  email: Email,
  password: Password,
}, { $id: 'LoginRequest', additionalProperties: false })

export const LoginUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  full_name: Type.String(),
  role: Type.String(),
  user_type: Type.String(),
  organization_id: Nullable(Type.Integer()),
  modules: Type.Array(Type.String()),
}, { $id: 'LoginUser' })

export const LoginResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.String(),
  must_change_password: Type.Boolean(),
  expires_in: Type.Integer({ description: 'seconds until the access token expires' }),
  user: ref(LoginUser),
}, { $id: 'LoginResponse' })

/** An employee as the employee sees itself (the interface's Profile); EmployeeResponse adds the admin's view. */
export const profileFields = {
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
  modules: Type.Array(Type.Unknown(), { description: 'array of any, as the interface says; strings in practice' }),
  user_type: Type.String(),
  role: Type.String(),
}

export const Profile = Type.Object(profileFields, { $id: 'Profile' })

export const ProfileUpdateQuery = Type.Object({
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  position: Type.Optional(Type.String({ maxLength: 255 })),
})

export const ChangePasswordRequest = Type.Object({
  current_password: Password,
  new_password: Password,
}, { $id: 'ChangePasswordRequest', additionalProperties: false })

export const ChangePasswordResponse = Type.Object({
  message: Type.String(),
  access_token: Type.String({ description: 'a new token: every token issued before the change is revoked' }),
  token_type: Type.String(),
}, { $id: 'ChangePasswordResponse' })

export const InviteActivateRequest = Type.Object({
  token: OneTimeToken,
  password: Password,
}, { $id: 'InviteActivateRequest', additionalProperties: false })

export const ResetPasswordRequest = Type.Object({
  token: OneTimeToken,
  new_password: Password,
}, { $id: 'ResetPasswordRequest', additionalProperties: false })

export const ForgotPasswordRequest = Type.Object({
  email: Email,
}, { $id: 'ForgotPasswordRequest', additionalProperties: false })

export const InviteInfo = Type.Object({
  valid: Type.Boolean(),
  reason: Nullable(Type.String({ description: 'why the invitation cannot be used: expired, used' })),
  email: Type.String(),
  full_name: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
}, { $id: 'InviteInfo' })

export const SendInviteResponse = Type.Object({
  message: Type.String(),
  employee_id: Type.Integer(),
  email: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  sent: Type.Boolean({ description: 'false: no SMTP server is configured, the mail was only kept (mail_outbox)' }),
  link: Type.Union([Type.String(), Type.Null()], { description: 'when not sent: the invitation\'s link, for the one inviting to hand over (it is the mail\'s one-time link)' }),
}, { $id: 'SendInviteResponse' })

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) })
export const EmployeeIdParams = Type.Object({ employee_id: Id() })

export type LoginRequest = Static<typeof LoginRequest>
export type LoginResponse = Static<typeof LoginResponse>
export type Profile = Static<typeof Profile>
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>

export const schemas = [LoginRequest, LoginUser, LoginResponse, Profile, ChangePasswordRequest, ChangePasswordResponse,
  InviteActivateRequest, ResetPasswordRequest, ForgotPasswordRequest, InviteInfo, SendInviteResponse]
