import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { cookieValue } from '../../lib/auth.js'
import { MessageResponse } from '../../lib/common-schemas.js'
import { bearer, ref } from '../../lib/openapi.js'
import {
  ChangePasswordRequest, ChangePasswordResponse, EmployeeIdParams, ForgotPasswordRequest, InviteActivateRequest, InviteInfo,
  LoginRequest, LoginResponse, Profile, ProfileUpdateQuery, ResetPasswordRequest, SendInviteResponse, TokenParams,
} from './schemas.js'
import type { AuthService } from './service.js'

const tags = ['auth']

/** Mounted under /api/auth and /api/shared/auth; `variant` keeps the operation ids unique. */
const routes: FastifyPluginAsyncTypebox<{ service: AuthService, variant: string }> = async (app, { service, variant }) => {
  const op = (name: string) => `${name}${variant}`
  const open = { public: true }

  app.post('/login', {
    config: open,
    schema: { tags, operationId: op('login'), summary: 'Log in with e-mail and password', body: ref(LoginRequest), response: { 200: ref(LoginResponse) } },
  }, async (req) => service.login(req.body.email, req.body.password, req.ip))

  app.post('/change-password', {
    config: { user: true },
    schema: { tags, operationId: op('changePassword'), summary: 'Change the caller\'s password (revokes earlier tokens)', security: bearer, body: ref(ChangePasswordRequest), response: { 200: ref(ChangePasswordResponse) } },
  }, async (req) => service.changePassword(req.principal!, req.body.current_password, req.body.new_password))

  app.get('/invite/:token', {
    config: open,
    schema: { tags, operationId: op('checkInvite'), summary: 'Whether an invitation is valid, and for whom', params: TokenParams, response: { 200: ref(InviteInfo) } },
  }, async (req) => service.checkInvite(req.params.token))

  app.post('/invite/activate', {
    config: open,
    schema: { tags, operationId: op('activateInvite'), summary: 'Set the password of an invited employee', body: ref(InviteActivateRequest), response: { 200: ref(MessageResponse) } },
  }, async (req) => service.activateInvite(req.body.token, req.body.password))

  app.get('/profile', {
    config: { user: true },
    schema: { tags, operationId: op('getProfile'), summary: 'The caller\'s profile', security: bearer, response: { 200: ref(Profile) } },
  }, async (req) => service.getProfile(req.principal!))

  app.put('/profile', {
    config: { user: true },
    schema: { tags, operationId: op('updateProfile'), summary: 'Update the caller\'s phone and/or position', security: bearer, querystring: ProfileUpdateQuery, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.updateProfile(req.principal!, req.query))

  app.post('/forgot-password', {
    config: open,
    schema: { tags, operationId: op('forgotPassword'), summary: 'Mail a password reset link (same answer for unknown addresses)', body: ref(ForgotPasswordRequest), response: { 200: ref(MessageResponse) } },
  }, async (req) => service.forgotPassword(req.body.email))

  app.post('/reset-password', {
    config: open,
    schema: { tags, operationId: op('resetPassword'), summary: 'Set a new password with a reset token', body: ref(ResetPasswordRequest), response: { 200: ref(MessageResponse) } },
  }, async (req) => service.resetPassword(req.body.token, req.body.new_password))

  app.post('/send-invite/:employee_id', {
    config: { strict: ['admin', 'manager'] },
    schema: { tags, operationId: op('sendInvite'), summary: 'Mail an invitation to an employee (replaces an earlier one)', params: EmployeeIdParams, response: { 200: ref(SendInviteResponse) } },
  }, async (req) => service.sendInvite(req.params.employee_id, req.principal))

  app.get('/verify-docs', {
    config: { ownToken: 'admin (header or access_token cookie)' },
    schema: { tags, operationId: op('verifyDocs'), summary: 'For a reverse proxy\'s auth_request: 200 with an administrator token (header or access_token cookie)', response: { 200: ref(MessageResponse) } },
  }, async (req) => service.verifyDocs(req.principal, cookieValue(req, 'access_token')))
}

export default routes
