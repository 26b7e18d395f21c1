import { api } from './client'
import { keys } from './keys'
import { load } from './load'

// Calls and operators as the call events know them (/api/call-events).

export const onlineOperatorsQuery = { queryKey: keys.board.operators, queryFn: () => load(api.GET('/api/call-events/online-operators')) }

export const latestCallsQuery = { queryKey: keys.board.calls, queryFn: () => load(api.GET('/api/call-events/calls', { params: { query: { limit: 100 } } })) }

/** the latest call the user may see (the operator's own: a reload in the middle of a call finds it) */
export const latestCall = async () => (await load(api.GET('/api/call-events/calls', { params: { query: { limit: 1 } } })))[0]

/** a call with its transcript, by its telephony id */
export const callDetail = (callId: string) => load(api.GET('/api/call-events/calls/{call_id}', { params: { path: { call_id: callId } } }))
