import { and, count, eq, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { users } from '../../db/schema/index.js'
import { organizationName } from '../organizations/queries.js'

/* What other modules may ask of the users table (its owner is this module). */

export type UserRow = typeof users.$inferSelect

/** active employees of the organization (of one role, or of all), correlated to the caller's row */
export const employeeCountOf = async (db: AppDb, organizationId: number) =>
  (await db.select({ n: count() }).from(users).where(eq(users.organization_id, organizationId)))[0]!.n

export const employeeOrganization = async (db: AppDb, id: number) =>
  (await db.select({ organization_id: users.organization_id }).from(users).where(eq(users.id, id)))[0]?.organization_id

/** employees' names as a subquery to join (`employee.id`, `employee.last_name`, ...) */
export const employeeNames = (db: AppDb) =>
  db.select({ id: users.id, last_name: users.last_name, first_name: users.first_name }).from(users).as('employee')

/**
 * The accounts behind sign-in: what the auth module reads and writes of an employee (its password,
 * its own profile fields, the first administrator), and nothing else of the table.
 */
export function accountQueries (db: AppDb) {
  return {
    findUserByEmail: async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0],
    /** the few columns a token check needs, on every authenticated request */
    findPrincipal: async (id: number) => (await db.select({
      id: users.id, email: users.email, role: users.role, user_type: users.user_type, organization_id: users.organization_id,
      is_active: users.is_active, token_version: users.token_version,
    }).from(users).where(eq(users.id, id)))[0],
    findUserById: async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0],
    countUsers: async () => (await db.select({ n: count() }).from(users))[0]!.n,
    findProfile: async (id: number) => (await db.select({ user: users, organization_name: organizationName<null>(users.organization_id) })
      .from(users).where(eq(users.id, id)))[0],

    /** sets the password and revokes every earlier token by bumping the token version */
    setPassword: async (id: number, passwordHash: string, options: { activate?: boolean, mustChange?: boolean } = {}) =>
      (await db.update(users).set({
        password_hash: passwordHash,
        must_change_password: options.mustChange ?? false,
        token_version: sql`${users.token_version} + 1`,
        updated_at: sql`now()`,
        ...(options.activate ? { is_active: true } : {}),
      }).where(eq(users.id, id)).returning())[0],

    updateProfile: async (id: number, fields: { phone?: string | null, position?: string | null }) =>
      db.update(users).set({ ...fields, updated_at: sql`now()` }).where(eq(users.id, id)),

    /** the first administrator, or one made by the CLI: a platform account of no organization */
    insertAdministrator: async (values: { email: string, password_hash: string, must_change_password: boolean }) =>
      (await db.insert(users).values({ ...values, role: 'admin', user_type: 'platform' }).returning())[0]!,
  }
}

/** the e-mail addresses of the organization's active managers (who are told of breaches) */
export const managerEmails = async (db: AppDb, organizationId: number) =>
  (await db.select({ email: users.email }).from(users)
    .where(and(eq(users.organization_id, organizationId), eq(users.role, 'manager'), eq(users.is_active, true)))).map((u) => u.email)

/** an employee's organization id (0: none; null: no such employee), as a column of the caller's query */
export const employeeOrganizationFact = (id: number) => sql<number | null>`(select coalesce(u.organization_id, 0) from ${users} u where u.id = ${id})`

/** the e-mail addresses of an organization's active managers, as a JSON column of the caller's query */
export const managerEmailsFact = (organizationId: number) =>
  sql<string[]>`(select coalesce(json_agg(u.email order by u.id), '[]'::json) from ${users} u where u.organization_id = ${organizationId} and u.role = 'manager' and u.is_active)`

/**
 * Whether an employee (by an id column of the caller's query) may edit an organization's call
 * routing (by its id column): an active admin, or the organization's active manager; false for no
 * employee. A join rather than a column's subquery, which would run once per row (100,000
 * terminals in a generation): `join` goes after the caller's FROM, `fact` among its columns.
 */
export const managesRouting = (employeeId: SQL, organizationId: SQL) => ({
  join: sql`left join ${users} routing_editor on routing_editor.id = ${employeeId}`,
  fact: sql<boolean>`coalesce(routing_editor.is_active and (routing_editor.role = 'admin' or (routing_editor.role = 'manager' and routing_editor.organization_id = ${organizationId})), false)`,
})
