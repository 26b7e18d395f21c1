import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Organizations (/api/organizations, /api/shared/organizations), their notification settings and
// their external synchronisation, and the groups they belong to (/api/shared/groups).

export const organizationListQuery = (showInactive: boolean) => ({
  queryKey: keys.admin.organizations.list(showInactive),
  queryFn: () => load(api.GET('/api/shared/organizations', { params: { query: { show_inactive: showInactive, limit: 1000 } } })),
})

export const organizationQuery = (id: number) => ({
  queryKey: keys.admin.organizations.detail(id),
  queryFn: () => load(api.GET('/api/organizations/{organization_id}', { params: { path: { organization_id: id } } })),
})

const at = (id: number) => ({ params: { path: { organization_id: id } } })

export const createOrganization = (body: Schemas['OrganizationCreate']) => load(api.POST('/api/organizations', { body }))
export const updateOrganization = (id: number, body: Schemas['OrganizationDetailUpdate']) => load(api.PUT('/api/organizations/{organization_id}', { ...at(id), body }))
export const removeOrganization = (id: number) => load(api.DELETE('/api/organizations/{organization_id}', at(id)))
export const retryExtSync = (id: number) => load(api.POST('/api/organizations/{org_id}/retry-ext-sync', { params: { path: { org_id: id } } }))
export const retryAllExtSync = () => load(api.POST('/api/organizations/retry-all-failed-ext'))

export const notificationSettingsQuery = (id: number) => ({
  queryKey: keys.admin.organizations.notifications(id),
  queryFn: () => load(api.GET('/api/organizations/{organization_id}/notifications', at(id))),
})
export const saveNotificationSettings = (id: number, body: Schemas['NotificationSettingsSave']) => load(api.PUT('/api/organizations/{organization_id}/notifications', { ...at(id), body }))

export const groupsQuery = { queryKey: keys.admin.organizations.groups, queryFn: () => load(api.GET('/api/shared/groups')) }
export const createGroup = (body: Schemas['GroupCreate']) => load(api.POST('/api/shared/groups', { body }))
export const updateGroup = (id: number, body: Schemas['GroupCreate']) => load(api.PUT('/api/shared/groups/{group_id}', { params: { path: { group_id: id } }, body }))
export const removeGroup = (id: number) => load(api.DELETE('/api/shared/groups/{group_id}', { params: { path: { group_id: id } } }))
