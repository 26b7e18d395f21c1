import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// The platform's tenants (/platform/tenants).

export type TenantStatus = NonNullable<Schemas['TenantResponse']['status']>

export const tenantsQuery = (status?: TenantStatus) => ({
  queryKey: keys.admin.tenants.list(status),
  queryFn: () => load(api.GET('/platform/tenants', { params: { query: { status, limit: 1000 } } })),
})

export const createTenant = (body: Schemas['TenantCreate']) => load(api.POST('/platform/tenants', { body }))

export function actOnTenant (id: string, action: 'suspend' | 'activate' | 'delete') {
  const path = { params: { path: { tenant_id: id } } }
  if (action === 'delete') return load(api.DELETE('/platform/tenants/{tenant_id}', path))
  return action === 'suspend' ? load(api.POST('/platform/tenants/{tenant_id}/suspend', path)) : load(api.POST('/platform/tenants/{tenant_id}/activate', path))
}
