import { Type, type Static } from 'typebox'
import { Nullable, Pagination } from '../../lib/common-schemas.js'

const Identifier = (description: string) => Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', minLength: 1, maxLength: 63, description })
const TenantId = Identifier('[a-z0-9][a-z0-9_-]{0,62}; an organization\'s id (as text) makes the tenant govern that organization\'s telephony')
export const TenantStatus = Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('deleted')])

export const TenantCreate = Type.Object({
  tenant_id: TenantId,
  name: Type.String({ minLength: 1, maxLength: 255, 'x-trim': true }),
  cell_id: Identifier('must equal this cell\'s CELL_ID when that is set'),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'a JSON object kept as given (at most 16 KiB)' })),
}, { $id: 'TenantCreate', additionalProperties: false })

export const TenantResponse = Type.Object({
  tenant_id: Type.String(),
  name: Type.String(),
  cell_id: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  status: TenantStatus,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  suspended_at: Nullable(Type.String({ format: 'date-time' })),
  deleted_at: Nullable(Type.String({ format: 'date-time' })),
}, { $id: 'TenantResponse' })

export const TenantParams = Type.Object({ tenant_id: TenantId })

export const TenantListQuery = Type.Object({
  status: Type.Optional(TenantStatus),
  ...Pagination(100),
})

export const PlatformAuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String({ description: 'service-token, user:<id> or anonymous' }),
  actor_address: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  action: Type.String({ description: 'create, suspend, activate, delete' }),
  tenant_id: Type.String(),
  from_status: Nullable(Type.String()),
  to_status: Type.String(),
}, { $id: 'PlatformAuditEntry' })

export const AuditQuery = Type.Object({
  tenant_id: Type.Optional(TenantId),
  ...Pagination(100),
})

export type TenantCreate = Static<typeof TenantCreate>
export const schemas = [TenantCreate, TenantResponse, PlatformAuditEntry]
