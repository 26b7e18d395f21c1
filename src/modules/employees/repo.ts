import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { users, type Role } from '../../db/schema/index.js'
import { containsPattern } from '../../lib/sql-text.js'
import { organizationExists, organizationName } from '../organizations/queries.js'

export type EmployeeRow = typeof users.$inferSelect & { organization_name: string | null }

export interface EmployeeFilter {
  organizationId?: number
  role?: Role
  q?: string
  includeInactive: boolean
  skip: number
  limit: number
}

export function createEmployeeRepo (db: AppDb) {
  const withOrganization = () => db.select({ user: users, organization_name: organizationName<null>(users.organization_id) }).from(users)
  const flatten = (r: { user: typeof users.$inferSelect, organization_name: string | null }): EmployeeRow => ({ ...r.user, organization_name: r.organization_name })

  return {
    async list (f: EmployeeFilter): Promise<EmployeeRow[]> {
      const where: (SQL | undefined)[] = [
        f.organizationId === undefined ? undefined : eq(users.organization_id, f.organizationId),
        f.role === undefined ? undefined : eq(users.role, f.role),
        f.includeInactive ? undefined : eq(users.is_active, true),
      ]
      if (f.q) {
        const p = containsPattern(f.q)
        where.push(or(ilike(users.email, p), ilike(users.last_name, p), ilike(users.first_name, p), ilike(users.middle_name, p)))
      }
      const rows = await withOrganization().where(and(...where)).orderBy(asc(users.id)).offset(f.skip).limit(f.limit)
      return rows.map(flatten)
    },
    async findById (id: number): Promise<EmployeeRow | undefined> {
      const row = (await withOrganization().where(eq(users.id, id)))[0]
      return row && flatten(row)
    },
    organizationExists: (id: number) => organizationExists(db, id),
    insert: async (values: typeof users.$inferInsert) => (await db.insert(users).values(values).returning({ id: users.id }))[0]!.id,
    update: async (id: number, values: Partial<typeof users.$inferInsert>) =>
      db.update(users).set({ ...values, updated_at: sql`now()` }).where(eq(users.id, id)),
    remove: async (id: number) => (await db.delete(users).where(eq(users.id, id)).returning({ id: users.id }))[0] !== undefined,
  }
}

export type EmployeeRepo = ReturnType<typeof createEmployeeRepo>
