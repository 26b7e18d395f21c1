import { Type, type Static } from 'typebox'
import { Id, Name, Nullable, Offset } from '../../lib/common-schemas.js'

const Prefix = Type.String({ pattern: '^[0-9]{3}$', minLength: 3, maxLength: 3, description: '3 digits, 000-999' })
const RegionId = Id()
const GroupIds = Type.Array(Id(), { maxItems: 100, uniqueItems: true })
const Modules = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, uniqueItems: true })
const Quota = (what: string) => Type.Integer({ minimum: 0, maximum: 100_000, description: what })
const Timestamp = Type.String({ format: 'date-time' })

const GroupRef = Type.Object({ id: Type.Integer(), name: Type.String() })
const extSync = {
  ext_sync_status: Type.String({ description: 'pending, synced, failed, or disabled when no EXT_SYNC_URL is configured' }),
  ext_sync_error: Nullable(Type.String()),
  ext_synced_at: Nullable(Timestamp),
}
const shapeA = {
  id: Type.Integer(), name: Type.String(), region_id: Nullable(Type.Integer()), region_name: Nullable(Type.String()),
  groups: Type.Array(GroupRef), employee_count: Type.Integer(), modules: Type.Array(Type.String()), prefix: Type.String(),
  is_active: Type.Boolean(), ...extSync,
}
const location = { oblast_id: Nullable(Type.Integer()), oblast_name: Nullable(Type.String()), city_name: Nullable(Type.String()) }
const shapeB = {
  org_name: Type.String(), org_prefix: Type.String(), is_active: Type.Boolean(), max_queues: Type.Integer(), max_operators: Type.Integer(),
  id: Type.Integer(), created_at: Timestamp, queues_count: Type.Integer(), operators_count: Type.Integer(), endpoints_count: Type.Integer(),
  routes_count: Type.Integer(), ...location,
}

/** Shape A, under /api/organizations (no trailing slash). */
export const OrganizationResponse = Type.Object(shapeA, { $id: 'OrganizationResponse' })
/** Shape S, under /api/shared/organizations. */
export const SharedOrganizationResponse = Type.Object({ ...shapeA, ...location }, { $id: 'SharedOrganizationResponse' })
/** Shape B, under /api/organizations/ (trailing slash). */
export const TelephonyOrganizationResponse = Type.Object(shapeB, { $id: 'TelephonyOrganizationResponse' })
/** The colliding item routes /api/organizations/{id}: the union of Shape A and Shape B. */
export const OrganizationDetailResponse = Type.Object({ ...shapeA, ...shapeB }, { $id: 'OrganizationDetailResponse' })

export const OrganizationCreate = Type.Object({
  name: Name(), region_id: RegionId, group_ids: Type.Optional(GroupIds), modules: Type.Optional(Modules), prefix: Prefix,
}, { $id: 'OrganizationCreate', additionalProperties: false })
export const OrganizationUpdate = Type.Object({
  name: Name(), region_id: RegionId, group_ids: Type.Optional(GroupIds), modules: Type.Optional(Modules),
}, { $id: 'OrganizationUpdate', additionalProperties: false, description: 'The prefix cannot be changed here.' })

export const TelephonyOrganizationCreate = Type.Object({
  org_name: Name(), org_prefix: Prefix, is_active: Type.Optional(Type.Boolean()),
  max_queues: Type.Optional(Quota('maximum queues (default 10)')), max_operators: Type.Optional(Quota('maximum SIP terminals (default 100)')),
}, { $id: 'TelephonyOrganizationCreate', additionalProperties: false })
export const TelephonyOrganizationUpdate = Type.Object({
  org_name: Type.Optional(Name()), org_prefix: Type.Optional(Prefix), is_active: Type.Optional(Type.Boolean()),
  max_queues: Type.Optional(Quota('maximum queues')), max_operators: Type.Optional(Quota('maximum SIP terminals')),
}, { $id: 'TelephonyOrganizationUpdate', additionalProperties: false })
/** PUT /api/organizations/{id} takes either update body (DESIGN 5.5): every field optional here. */
export const OrganizationDetailUpdate = Type.Object({
  name: Type.Optional(Name()), region_id: Type.Optional(RegionId), group_ids: Type.Optional(GroupIds), modules: Type.Optional(Modules),
  org_name: Type.Optional(Name()), org_prefix: Type.Optional(Prefix), is_active: Type.Optional(Type.Boolean()),
  max_queues: Type.Optional(Quota('maximum queues')), max_operators: Type.Optional(Quota('maximum SIP terminals')),
}, { $id: 'OrganizationDetailUpdate', additionalProperties: false, description: 'Shape A (name, region_id, group_ids, modules) or Shape B (org_name, org_prefix, is_active, max_queues, max_operators) update body' })

export const NotificationSettings = Type.Object({
  organization_id: Type.Integer(),
  is_active: Type.Boolean({ description: 'automatic notifications enabled' }),
  partner_uuid: Nullable(Type.String({ description: 'the organization\'s UUID in the partner system' })),
  call_local: Type.Boolean(), call_longdistance: Type.Boolean(), call_mobile: Type.Boolean(),
  cli_route_id: Nullable(Type.Integer()), sms_enabled: Type.Boolean(),
}, { $id: 'NotificationSettings' })
export const NotificationSettingsSave = Type.Object({
  is_active: Type.Optional(Type.Boolean()),
  partner_uuid: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  call_local: Type.Optional(Type.Boolean()), call_longdistance: Type.Optional(Type.Boolean()), call_mobile: Type.Optional(Type.Boolean()),
  cli_route_id: Type.Optional(Nullable(Id())), sms_enabled: Type.Optional(Type.Boolean()),
}, { $id: 'NotificationSettingsSave', additionalProperties: false })

export const RetryResponse = Type.Object({ message: Type.String(), queued: Type.Integer() }, { $id: 'ExtSyncRetryResponse' })

const lists = { skip: Offset() }
export const SharedListQuery = Type.Object({
  region_id: Type.Optional(Id()), show_inactive: Type.Boolean({ default: false }),
  ...lists, limit: Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000 }),
})
export const SharedListQueryS = Type.Object({
  region_id: Type.Optional(Id()), show_inactive: Type.Boolean({ default: false }),
  oblast_id: Type.Optional(Id()), ...lists, limit: Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000 }),
})
export const TelephonyListQuery = Type.Object({
  ...lists, limit: Type.Integer({ minimum: 1, maximum: 1000, default: 1000 }),
  include_inactive: Type.Boolean({ default: false }), oblast_id: Type.Optional(Id()),
})
export const PartnerQuery = Type.Object({ partner_uuid: Type.String({ format: 'uuid' }) })
export const OrgIdParams = Type.Object({ org_id: Id() })
export const OrganizationIdParams = Type.Object({ organization_id: Id() })

export type OrganizationCreate = Static<typeof OrganizationCreate>
export type OrganizationDetailUpdate = Static<typeof OrganizationDetailUpdate>
export type TelephonyOrganizationCreate = Static<typeof TelephonyOrganizationCreate>
export type NotificationSettingsSave = Static<typeof NotificationSettingsSave>
export type OrganizationView = Static<typeof OrganizationDetailResponse> & Static<typeof SharedOrganizationResponse>

export const schemas = [OrganizationResponse, SharedOrganizationResponse, TelephonyOrganizationResponse, OrganizationDetailResponse,
  OrganizationCreate, OrganizationUpdate, TelephonyOrganizationCreate, TelephonyOrganizationUpdate, OrganizationDetailUpdate,
  NotificationSettings, NotificationSettingsSave, RetryResponse]
