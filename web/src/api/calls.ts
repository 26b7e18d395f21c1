import { api } from './client'
import { keys } from './keys'
import { load } from './load'

// Calls and operators as the call events know them (/api/call-events).

export const onlineOperatorsQuery = { queryKey: keys.board.operators, queryFn: () => load(api.GET('/api/call-events/online-operators')) }

export const latestCallsQuery = { queryKey: keys.board.calls, queryFn: () => load(api.GET('/api/call-events/calls', { params: { query: { limit: 100 } } })) }

/** the user's call going on, with its caller as matched now; undefined when there is none (a 204) */
export const currentCall = async () => (await load(api.GET('/api/call-events/current'))) ?? undefined
