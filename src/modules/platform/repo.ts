import { and, desc, eq } from 'drizzle-orm'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import { platformAudit, platformTenants, type TenantStatus } from '../../db/schema/index.js'

export type TenantRow = typeof platformTenants.$inferSelect
export type AuditRow = typeof platformAudit.$inferInsert

export function createPlatformRepo<D extends AppDb> (db: D) {
  const byId = (handle: AppDb, tenantId: string) => handle.select().from(platformTenants).where(eq(platformTenants.tenant_id, tenantId))
  return {
    find: async (tenantId: string): Promise<TenantRow | undefined> => (await byId(db, tenantId))[0],
    /** the tenant's row, locked until the transaction ends */
    lock: inTransactionOnly(db, async (tx, tenantId: string): Promise<TenantRow | undefined> => (await byId(tx, tenantId).for('update'))[0]),
    /** undefined when the id is taken (a concurrent create of the same tenant included) */
    insert: async (row: typeof platformTenants.$inferInsert): Promise<TenantRow | undefined> =>
      (await db.insert(platformTenants).values(row).onConflictDoNothing().returning())[0],
    setStatus: async (tenantId: string, status: TenantStatus, at: Date): Promise<TenantRow> => (await db.update(platformTenants).set({
      status,
      updated_at: at,
      ...(status === 'suspended' ? { suspended_at: at } : {}),
      ...(status === 'active' ? { suspended_at: null } : {}),
      ...(status === 'deleted' ? { deleted_at: at } : {}),
    }).where(eq(platformTenants.tenant_id, tenantId)).returning())[0]!,
    list: (filter: { status?: TenantStatus, skip: number, limit: number }) => db.select().from(platformTenants)
      .where(filter.status ? eq(platformTenants.status, filter.status) : undefined)
      .orderBy(platformTenants.tenant_id).offset(filter.skip).limit(filter.limit),
    audit: async (row: AuditRow) => { await db.insert(platformAudit).values(row) },
    auditLog: (filter: { tenantId?: string, skip: number, limit: number }) => db.select().from(platformAudit)
      .where(and(filter.tenantId ? eq(platformAudit.tenant_id, filter.tenantId) : undefined))
      .orderBy(desc(platformAudit.at), desc(platformAudit.id)).offset(filter.skip).limit(filter.limit),
  }
}

export type PlatformRepo = ReturnType<typeof createPlatformRepo<AppDb>>
export type PlatformTxRepo = ReturnType<typeof createPlatformRepo<TxDb>>
