import { createHash, randomBytes } from 'node:crypto'
import type { Transactional } from '../../db/client.js'
import type { Mailer } from '../../integrations/mail/index.js'
import { canManage, requireManagerRole } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { AppError, ConflictError, NotFoundError, RequestValidationError, ServiceUnavailableError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors.js'
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import type { AccessClaims, TokenIssuer } from '../../lib/tokens.js'
import { invitationMail, passwordResetMail } from './mail-templates.js'
import type { AuthRepo, PrincipalRow, UserRow } from './repo.js'
import type { LoginResponse, Profile } from './schemas.js'

const HOUR = 3600_000
const INVITE_TTL_MS = 72 * HOUR
const RESET_TTL_MS = 1 * HOUR
export const THROTTLE_WINDOW_MS = 15 * 60_000
export const THROTTLE_MAX_FAILURES = 10

export const fullName = (u: Pick<UserRow, 'last_name' | 'first_name' | 'middle_name' | 'email'>) =>
  [u.last_name, u.first_name, u.middle_name].filter(Boolean).join(' ') || u.email

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
const newOneTimeToken = () => randomBytes(32).toString('base64url')

/** A one-time token that cannot be used: unknown, used or expired. */
class InvalidTokenError extends AppError {
  constructor (message: string) { super(400, 'invalid_token', message) }
}

export interface AuthServiceDeps {
  repo: AuthRepo
  transaction: Transactional<AuthRepo>
  tokens: TokenIssuer
  mailer: Mailer
  clock: Clock
  publicUrl: string
  /** where principals are read on every request (a cache in front of the repository, say) */
  findPrincipal?: AuthRepo['findPrincipal']
  /** a principal's row when it is at hand without a database read (that cache's copy) */
  peekPrincipal?: (id: number) => PrincipalRow | undefined
  /** where profiles are read (a cache in front of the repository, say) */
  findProfile?: AuthRepo['findProfile']
  /** an account changed (token version, profile): this instance's cached copies go at once */
  principalChanged?: (id: number) => void
  log: { warn: (fields: object, msg: string) => void, error: (fields: object, msg: string) => void }
}

export function createAuthService (deps: AuthServiceDeps) {
  const { repo, transaction, tokens, mailer, clock } = deps
  const findPrincipal = deps.findPrincipal ?? repo.findPrincipal
  const principalChanged = deps.principalChanged ?? (() => {})
  const findProfile = deps.findProfile ?? repo.findProfile

  async function issueToken (user: UserRow): Promise<string> {
    return tokens.sign({ id: user.id, role: user.role, organization_id: user.organization_id, token_version: user.token_version })
  }

  async function throttle (keys: string[]): Promise<void> {
    const now = clock().getTime()
    const rows = await repo.failuresSince(keys, new Date(now - THROTTLE_WINDOW_MS))
    const blocked = rows.filter((r) => r.failures >= THROTTLE_MAX_FAILURES)
    if (blocked.length === 0) return
    const retryAt = Math.max(...blocked.map((r) => new Date(r.oldest!).getTime() + THROTTLE_WINDOW_MS))
    throw new TooManyRequestsError('Too many failed login attempts, try again later', (retryAt - now) / 1000)
  }

  /** Finds the token of this purpose and says why it cannot be used, if it cannot. */
  async function usableToken (token: string, purpose: 'invite' | 'reset') {
    const found = await repo.findToken(sha256(token), purpose)
    if (!found) return { found, problem: 'not_found' as const }
    if (found.token.used_at) return { found, problem: 'used' as const }
    if (found.token.expires_at.getTime() <= clock().getTime()) return { found, problem: 'expired' as const }
    return { found, problem: undefined }
  }

  async function deliver (mail: Parameters<Mailer['send']>[0]): Promise<boolean> {
    try {
      await mailer.send(mail)
      return true
    } catch (err) {
      deps.log.error({ err: { message: (err as Error).message }, to: mail.to }, 'mail could not be sent')
      return false
    }
  }

  async function setNewPassword (token: string, password: string, purpose: 'invite' | 'reset', field: string): Promise<UserRow> {
    const what = purpose === 'invite' ? 'Invitation' : 'Password reset link'
    const { found, problem } = await usableToken(token, purpose)
    if (problem === 'not_found') throw new InvalidTokenError(`${what} is invalid`)
    if (problem === 'used') throw new InvalidTokenError(`${what} has already been used`)
    if (problem === 'expired') throw new InvalidTokenError(`${what} has expired`)
    const weak = passwordProblem(password, ['body', field], { email: found!.user.email })
    if (weak) throw new RequestValidationError([weak])
    const passwordHash = await hashPassword(password)
    const user = await transaction(async (tx) => {
      if (!await tx.consumeToken(found!.token.id, clock())) throw new InvalidTokenError(`${what} has already been used`)
      return (await tx.setPassword(found!.user.id, passwordHash, { activate: purpose === 'invite' }))!
    })
    principalChanged(user.id)
    return user
  }

  /** the principal of a token's claims and its user's row: undefined when revoked or deactivated */
  function principalOf (claims: AccessClaims, user: PrincipalRow | undefined): Principal | undefined {
    if (!user || !user.is_active || user.token_version !== claims.tv) return undefined
    return { id: user.id, email: user.email, role: user.role, user_type: user.user_type, organization_id: user.organization_id }
  }

  async function resolvePrincipal (token: string): Promise<Principal | undefined> {
    const claims = await tokens.verify(token)
    if (!claims) return undefined
    return principalOf(claims, await findPrincipal(Number(claims.sub)))
  }

  /**
   * The common case of every authenticated request, without a promise: a token checked before whose
   * user's row is kept. Null for a token known to be invalid; undefined when only
   * `resolvePrincipal` can tell.
   */
  function knownPrincipal (token: string): Principal | null | undefined {
    const claims = tokens.verifyKnown(token)
    if (claims === null) return null
    const user = claims && deps.peekPrincipal?.(Number(claims.sub))
    if (!claims || !user) return undefined
    return principalOf(claims, user) ?? null
  }

  return {
    resolvePrincipal,
    knownPrincipal,

    async login (email: string, password: string, clientAddress: string): Promise<LoginResponse> {
      const normalized = email.toLowerCase()
      const accountKey = `account:${normalized}`
      const keys = [accountKey, `address:${clientAddress}`]
      await throttle(keys)
      const user = await repo.findUserByEmail(normalized)
      // the hash is verified even when the account is unusable, so every refusal takes the same time
      const passwordOk = await verifyPassword(user?.password_hash, password)
      if (!user || !passwordOk || !user.is_active) {
        const now = clock()
        await repo.recordFailure(keys, now, new Date(now.getTime() - THROTTLE_WINDOW_MS))
        throw new UnauthorizedError('Incorrect email or password')
      }
      await repo.clearFailures(accountKey)
      return {
        access_token: await issueToken(user),
        token_type: 'bearer',
        must_change_password: user.must_change_password,
        expires_in: tokens.ttlSeconds,
        user: { id: user.id, email: user.email, full_name: fullName(user), role: user.role, user_type: user.user_type, organization_id: user.organization_id, modules: user.modules },
      }
    },

    async changePassword (principal: Principal, currentPassword: string, newPassword: string) {
      const user = await repo.findUserById(principal.id)
      if (!user) throw new UnauthorizedError()
      if (!await verifyPassword(user.password_hash, currentPassword)) {
        throw RequestValidationError.field(['body', 'current_password'], 'Current password is incorrect', '[redacted]')
      }
      const weak = passwordProblem(newPassword, ['body', 'new_password'], { email: user.email, current: currentPassword })
      if (weak) throw new RequestValidationError([weak])
      const updated = await repo.setPassword(user.id, await hashPassword(newPassword))
      principalChanged(user.id)
      return { message: 'Password changed', access_token: await issueToken(updated!), token_type: 'bearer' }
    },

    async checkInvite (token: string) {
      const { found, problem } = await usableToken(token, 'invite')
      if (problem === 'not_found') throw new NotFoundError('Invitation')
      return {
        valid: problem === undefined,
        reason: problem ?? null,
        email: found!.user.email,
        full_name: fullName(found!.user),
        expires_at: found!.token.expires_at.toISOString(),
      }
    },

    async activateInvite (token: string, password: string) {
      const user = await setNewPassword(token, password, 'invite', 'password')
      return { message: 'Invitation accepted, the account is active', email: user.email }
    },

    async forgotPassword (email: string) {
      const user = await repo.findUserByEmail(email.toLowerCase())
      if (user && user.is_active && user.password_hash) {
        const token = newOneTimeToken()
        const expiresAt = new Date(clock().getTime() + RESET_TTL_MS)
        await repo.replaceToken(user.id, 'reset', sha256(token), expiresAt)
        const link = `${deps.publicUrl}/reset-password?token=${token}`
        await deliver(passwordResetMail({ to: user.email, fullName: fullName(user), link, expiresAt }))
      }
      // the same answer whether or not the address is known
      return { message: 'If the address is registered, a password reset link has been sent to it' }
    },

    async resetPassword (token: string, newPassword: string) {
      await setNewPassword(token, newPassword, 'reset', 'new_password')
      return { message: 'Password has been reset' }
    },

    async sendInvite (employeeId: number, actor: Principal | null) {
      if (actor) requireManagerRole(actor, 'Only an administrator or a manager of the employee\'s organization can invite')
      const user = await repo.findUserById(employeeId)
      // another organization's employee is as unknown to a manager as in /api/employees
      if (!user || (actor && !canManage(actor, user.organization_id))) throw new NotFoundError('Employee')
      if (user.password_hash) throw new ConflictError('The employee has already activated the account; use forgot-password', 'already_active')
      const token = newOneTimeToken()
      const expiresAt = new Date(clock().getTime() + INVITE_TTL_MS)
      await repo.replaceToken(user.id, 'invite', sha256(token), expiresAt)
      const link = `${deps.publicUrl}/invite?token=${token}`
      if (!await deliver(invitationMail({ to: user.email, fullName: fullName(user), link, expiresAt }))) {
        throw new ServiceUnavailableError('The invitation could not be mailed; try again later')
      }
      const invited = { employee_id: user.id, email: user.email, expires_at: expiresAt.toISOString() }
      // without SMTP nobody receives the mail: the one inviting hands the link over (as self-hosted products do)
      if (mailer.keepsOnly) return { message: 'Invitation not sent: no SMTP server is configured; hand the link over to the employee', ...invited, sent: false, link }
      return { message: 'Invitation sent', ...invited, sent: true, link: null }
    },

    async getProfile (principal: Principal): Promise<Profile> {
      const found = await findProfile(principal.id)
      if (!found) throw new UnauthorizedError()
      const u = found.user
      return {
        id: u.id, email: u.email, last_name: u.last_name, first_name: u.first_name, middle_name: u.middle_name,
        full_name: fullName(u), organization_id: u.organization_id, organization_name: found.organization_name,
        position: u.position, phone: u.phone, modules: u.modules, user_type: u.user_type, role: u.role,
      }
    },

    async updateProfile (principal: Principal, query: { phone?: string, position?: string }) {
      const fields: { phone?: string | null, position?: string | null } = {}
      if (query.phone !== undefined) {
        const phone = query.phone.trim()
        const normalized = phone === '' ? null : normalizeKzPhone(phone)
        if (normalized === undefined) throw RequestValidationError.field(['query', 'phone'], 'Value is not a valid Kazakhstan phone number', query.phone)
        fields.phone = normalized
      }
      if (query.position !== undefined) fields.position = query.position.trim() || null
      await repo.updateProfile(principal.id, fields)
      principalChanged(principal.id)
      return { message: 'Profile updated', updated: Object.keys(fields) }
    },

    /** verify-docs: an administrator's token, from the header or the access_token cookie */
    async verifyDocs (principal: Principal | null, cookieToken: string | undefined) {
      const who = principal ?? (cookieToken ? await resolvePrincipal(cookieToken) : undefined)
      if (!who) throw new UnauthorizedError()
      if (who.role !== 'admin') throw new UnauthorizedError('Administrator token required')
      return { message: 'ok' }
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
