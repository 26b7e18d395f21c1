import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// An organization's SIP terminals (/api/organizations/{tenant_id}/endpoints) and the PBX's
// configuration (/api/pbx).

/** the organizations whose telephony an admin may pick */
export const telephonyOrganizationsQuery = {
  queryKey: keys.admin.organizations.telephony,
  queryFn: () => load(api.GET('/api/organizations/', { params: { query: { limit: 1000 } } })),
  staleTime: 60_000,
}

export const endpointsQuery = (tenant: number) => ({
  queryKey: keys.admin.endpoints.list(tenant),
  queryFn: () => load(api.GET('/api/organizations/{tenant_id}/endpoints/', { params: { path: { tenant_id: tenant }, query: { limit: 1000 } } })),
})

export const endpointStatusQuery = (tenant: number) => ({
  queryKey: keys.admin.endpoints.status(tenant),
  queryFn: () => load(api.GET('/api/organizations/{tenant_id}/endpoints/status', { params: { path: { tenant_id: tenant } } })),
  refetchInterval: 30_000,
})

const at = (tenant: number, id: string) => ({ params: { path: { tenant_id: tenant, endpoint_id: id } } })

export const createEndpoint = (tenant: number, body: Schemas['EndpointCreate']) => load(api.POST('/api/organizations/{tenant_id}/endpoints/', { params: { path: { tenant_id: tenant } }, body }))
export const updateEndpoint = (tenant: number, id: string, body: Schemas['EndpointUpdate']) => load(api.PUT('/api/organizations/{tenant_id}/endpoints/{endpoint_id}', { ...at(tenant, id), body }))
export const setEndpointPassword = (tenant: number, id: string, password: string) => load(api.PUT('/api/organizations/{tenant_id}/endpoints/{endpoint_id}/password', { ...at(tenant, id), body: { password } }))
export const removeEndpoint = (tenant: number, id: string) => load(api.DELETE('/api/organizations/{tenant_id}/endpoints/{endpoint_id}', at(tenant, id)))

export type PreviewKind = 'sip' | 'queues' | 'extensions'
export const pbxStatusQuery = { queryKey: keys.admin.pbx.status, queryFn: () => load(api.GET('/api/pbx/status')), refetchInterval: 30_000 }
export const pbxPreviewQuery = (kind: PreviewKind) => ({ queryKey: keys.admin.pbx.preview(kind), queryFn: () => load(api.GET(`/api/pbx/preview/${kind}`)) })
export const generateConfigs = () => load(api.POST('/api/pbx/generate-configs', { params: { query: { save_to_disk: true, reload_pbx: false } } }))
export const reloadPbx = () => load(api.POST('/api/pbx/reload'))

/** whether the PBX runs what the service holds: asked often while a change is on its way */
const settled = (state?: string) => state === 'applied' || state === 'off' || state === 'refused'
export const pbxApplyQuery = {
  queryKey: keys.admin.pbx.apply,
  queryFn: () => load(api.GET('/api/pbx/apply-state')),
  refetchInterval: (q: { state: { data?: { state: string } } }) => (settled(q.state.data?.state) ? 15_000 : 1000),
}
export const organizationApplyQuery = (tenant: number) => ({
  queryKey: keys.admin.pbx.applyOf(tenant),
  queryFn: () => load(api.GET('/api/organizations/{tenant_id}/pbx-state', { params: { path: { tenant_id: tenant } } })),
  refetchInterval: (q: { state: { data?: { state: string } } }) => (settled(q.state.data?.state) ? 15_000 : 1000),
})

/** what a phone needs besides its terminal's id and password (the same for every terminal of the deployment) */
export const phoneSettingsQuery = (tenant: number) => ({
  queryKey: keys.admin.endpoints.phone(tenant),
  queryFn: () => load(api.GET('/api/organizations/{tenant_id}/endpoints/phone-settings', { params: { path: { tenant_id: tenant } } })),
  staleTime: Infinity,
})
