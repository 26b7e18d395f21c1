import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Calls and operators as the call events know them (/api/call-events).

export const onlineOperatorsQuery = { queryKey: keys.board.operators, queryFn: () => load(api.GET('/api/call-events/online-operators')) }

export const latestCallsQuery = { queryKey: keys.board.calls, queryFn: () => load(api.GET('/api/call-events/calls', { params: { query: { limit: 100 } } })) }

/** the user's call going on, with its caller as matched now; undefined when there is none (a 204) */
export const currentCall = async () => (await load(api.GET('/api/call-events/current'))) ?? undefined

export type TransferRequest = Schemas['TransferRequest']
/** the queues of the user's organization a call may be passed to, its own first */
export const transferQueuesQuery = { queryKey: keys.placedCalls.transferQueues, queryFn: () => load(api.GET('/api/calls/transfer/queues')) }
/** the user's call passed on: blind at once, or attended (consulting first); then completed or cancelled */
export const transferCall = (body: TransferRequest) => load(api.POST('/api/calls/transfer', { body }))
export const completeTransfer = () => load(api.POST('/api/calls/transfer/complete'))
export const cancelTransfer = () => load(api.POST('/api/calls/transfer/cancel'))
export const joinTransfer = () => load(api.POST('/api/calls/transfer/conference'))
