import type { FastifyInstance } from 'fastify'
import type { AppDb } from '../../src/db/client.js'
import { organizations, users } from '../../src/db/schema/index.js'
import type { Role, UserType } from '../../src/db/schema/users.js'
import { hashPassword } from '../../src/lib/passwords.js'
import { createDefaultQueue } from '../../src/modules/call-routing/queries.js'

let sequence = 0
export const unique = (prefix: string) => `${prefix}${process.pid}${++sequence}`

export async function makeOrganization (db: AppDb, overrides: Partial<typeof organizations.$inferInsert> = {}) {
  const prefix = overrides.prefix ?? String(100 + (++sequence % 900)).padStart(3, '0')
  const organization = (await db.insert(organizations).values({ name: unique('Org '), prefix, ...overrides }).returning())[0]!
  await createDefaultQueue(db, organization.id)
  return organization
}

export interface MadeUser { id: number, email: string, password: string, role: Role, organization_id: number | null }

export async function makeUser (db: AppDb, overrides: { role?: Role, user_type?: UserType, organization_id?: number | null, password?: string | null, is_active?: boolean, email?: string, must_change_password?: boolean } = {}): Promise<MadeUser> {
  const password = overrides.password === undefined ? 'Correct-Horse-42' : overrides.password
  const email = overrides.email ?? `${unique('user')}@test.kz`
  const role = overrides.role ?? 'admin'
  const [user] = await db.insert(users).values({
    email,
    password_hash: password === null ? null : await hashPassword(password),
    role,
    user_type: overrides.user_type ?? (role === 'admin' ? 'platform' : 'staff'),
    organization_id: overrides.organization_id ?? null,
    last_name: 'Иванов',
    first_name: 'Иван',
    is_active: overrides.is_active ?? true,
    must_change_password: overrides.must_change_password ?? false,
  }).returning()
  return { id: user!.id, email, password: password ?? '', role, organization_id: user!.organization_id }
}

/** Logs in through HTTP and answers the Authorization header. */
export async function login (app: FastifyInstance, user: { email: string, password: string }): Promise<{ authorization: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } })
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`)
  return { authorization: `Bearer ${res.json().access_token}` }
}

/** Creates an organization's SIP terminal through HTTP (its id: the prefix and the extension), named `Пульт <extension>`. */
export async function makeTerminal (app: FastifyInstance, headers: Record<string, string>, organizationId: number, extension: string, employeeId: number | null = null): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/api/organizations/${organizationId}/endpoints/`, headers, payload: { name: `Пульт ${extension}`, extension, password: 'Abcdefghij0123456789', employee_id: employeeId } })
  if (res.statusCode !== 201) throw new Error(`terminal ${extension}: ${res.statusCode} ${res.body}`)
}
