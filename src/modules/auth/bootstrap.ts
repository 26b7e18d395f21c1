import { randomBytes } from 'node:crypto'
import type { Config } from '../../config.js'
import type { AppDb } from '../../db/client.js'
import { hashPassword } from '../../lib/passwords.js'
import { createAuthRepo, createSettingsRepo } from './repo.js'

/** JWT_SECRET, or a key generated once and kept in the database, so that every instance shares it. */
export async function resolveJwtSecret (config: Config, db: AppDb): Promise<string> {
  return config.jwtSecret ?? createSettingsRepo(db).getOrCreate('jwt_secret', () => randomBytes(48).toString('base64url'))
}

export interface FirstAdminResult { created: boolean, email?: string, generatedPassword?: string }

/**
 * The first administrator, created when no user exists: from ADMIN_EMAIL/ADMIN_PASSWORD, or on the
 * embedded database with a generated password that must be changed at first login.
 */
export async function ensureFirstAdmin (config: Config, db: AppDb, embedded: boolean): Promise<FirstAdminResult> {
  const repo = createAuthRepo(db)
  if (await repo.countUsers() > 0) return { created: false }
  const email = config.adminEmail ?? 'admin@localhost'
  if (!config.adminPassword && !embedded) return { created: false }
  const generatedPassword = config.adminPassword ? undefined : randomBytes(12).toString('base64url')
  await createAdmin(db, email, config.adminPassword ?? generatedPassword!, generatedPassword !== undefined)
  return { created: true, email, generatedPassword }
}

export async function createAdmin (db: AppDb, email: string, password: string, mustChangePassword: boolean): Promise<void> {
  await createAuthRepo(db).insertAdministrator({ email: email.toLowerCase(), password_hash: await hashPassword(password), must_change_password: mustChangePassword })
}
