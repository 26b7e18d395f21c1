import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// The providers' trunks (/api/trunks) and an organization's outbound routes over them
// (/api/organizations/{tenant_id}/outbound-routes).

export type Trunk = Schemas['TrunkResponse']
export type OutboundRoute = Schemas['OutboundRouteResponse']

export const trunksQuery = { queryKey: keys.admin.pbx.trunks, queryFn: () => load(api.GET('/api/trunks/')) }
export const trunksStatusQuery = { queryKey: keys.admin.pbx.trunksStatus, queryFn: () => load(api.GET('/api/trunks/status')), refetchInterval: 30_000 }

const trunk = (id: number) => ({ params: { path: { trunk_id: id } } })
export const saveTrunk = (id: number | undefined, body: Schemas['TrunkCreate']) => id === undefined
  ? load(api.POST('/api/trunks/', { body }))
  : load(api.PUT('/api/trunks/{trunk_id}', { ...trunk(id), body }))
export const removeTrunk = (id: number) => load(api.DELETE('/api/trunks/{trunk_id}', trunk(id)))

const tenant = (id: number) => ({ params: { path: { tenant_id: id } } })
const route = (t: number, id: number) => ({ params: { path: { tenant_id: t, route_id: id } } })
export const outboundRoutesQuery = (t: number) => ({ queryKey: keys.admin.routing.of(t, 'outbound-routes'), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/outbound-routes/', tenant(t))) })
export const saveOutboundRoute = (t: number, id: number | undefined, body: Schemas['OutboundRouteCreate']) => id === undefined
  ? load(api.POST('/api/organizations/{tenant_id}/outbound-routes/', { ...tenant(t), body }))
  : load(api.PUT('/api/organizations/{tenant_id}/outbound-routes/{route_id}', { ...route(t, id), body }))
export const removeOutboundRoute = (t: number, id: number) => load(api.DELETE('/api/organizations/{tenant_id}/outbound-routes/{route_id}', route(t, id)))
