import { bigserial, index, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'

export const tenantStatuses = ['active', 'suspended', 'deleted'] as const
export type TenantStatus = typeof tenantStatuses[number]

/**
 * The tenants this cell hosts, as the platform's control plane placed them (DESIGN 5.10). A tenant
 * whose tenant_id is an organization's id governs that organization's telephony.
 */
export const platformTenants = pgTable('platform_tenants', {
  tenant_id: varchar('tenant_id', { length: 63 }).primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  cell_id: varchar('cell_id', { length: 63 }).notNull(),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  status: varchar('status', { length: 16, enum: tenantStatuses }).notNull().default('active'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  suspended_at: timestamp('suspended_at', { withTimezone: true }),
  deleted_at: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [oneOf('platform_tenants_status_check', t.status, tenantStatuses)])

/** every change of the registry: who, when, what, from which state to which */
export const platformAudit = pgTable('platform_audit', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  /** service-token, user:<id>, or anonymous (no SERVICE_TOKEN configured) */
  actor: varchar('actor', { length: 64 }).notNull(),
  actor_address: varchar('actor_address', { length: 64 }),
  request_id: varchar('request_id', { length: 128 }),
  action: varchar('action', { length: 16 }).notNull(),
  tenant_id: varchar('tenant_id', { length: 63 }).notNull(),
  from_status: varchar('from_status', { length: 16, enum: tenantStatuses }),
  to_status: varchar('to_status', { length: 16, enum: tenantStatuses }).notNull(),
}, (t) => [
  index('platform_audit_at_idx').on(t.at), index('platform_audit_tenant_idx').on(t.tenant_id, t.at),
  oneOf('platform_audit_from_status_check', t.from_status, tenantStatuses), oneOf('platform_audit_to_status_check', t.to_status, tenantStatuses),
])
