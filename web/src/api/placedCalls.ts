import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Calls the centre places (/api/calls) and supervisors listening in (/api/calls/spy).

export type PlacedCall = Schemas['PlacedCall']
export type SpyMode = Schemas['SpyRequest']['mode']

export const placeCall = (body: Schemas['PlaceCallRequest']) => load(api.POST('/api/calls', { body }))

export const spyOnCall = (body: Schemas['SpyRequest']) => load(api.POST('/api/calls/spy', { body }))

/** the calls placed for an appeal, the latest first */
export const appealCallsQuery = (appealId: number) => ({
  queryKey: keys.placedCalls.ofAppeal(appealId),
  queryFn: () => load(api.GET('/api/calls', { params: { query: { appeal_id: appealId, limit: 50 } } })),
})

/** a call still being placed: its phone rings, or they talk */
export const isLive = (c: Pick<PlacedCall, 'status'>) => c.status === 'ringing_you' || c.status === 'ringing_citizen' || c.status === 'connected'

export { newerOf } from './placed-progress'
