import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Lines closed at the switch (/api/organizations/{tenant_id}/line-switches, .../lines/{line_id}/close
// and /open, /api/line-switches/closed).

export type LineSwitchState = Schemas['LineSwitchState']

const tenant = (t: number) => ({ params: { path: { tenant_id: t } } })
const line = (t: number, id: number) => ({ params: { path: { tenant_id: t, line_id: id } } })

export const lineSwitchesQuery = (t: number) => ({ queryKey: keys.lineSwitches.of(t), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/line-switches', tenant(t))), refetchInterval: 60_000 })
export const lineSwitchHistoryQuery = (t: number, id: number) => ({ queryKey: keys.lineSwitches.history(t, id), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/lines/{line_id}/switches', line(t, id))) })
export const closedLinesQuery = { queryKey: keys.lineSwitches.closed, queryFn: () => load(api.GET('/api/line-switches/closed')), refetchInterval: 60_000 }

export const closeLine = (t: number, id: number, body: Schemas['LineCloseRequest']) => load(api.POST('/api/organizations/{tenant_id}/lines/{line_id}/close', { ...line(t, id), body }))
export const openLine = (t: number, id: number) => load(api.POST('/api/organizations/{tenant_id}/lines/{line_id}/open', line(t, id)))
