import { api } from './client'
import { keys } from './keys'
import { load } from './load'

// The operator's availability (/api/agents): the desk's switch.

export const myStateQuery = { queryKey: keys.agent.me, queryFn: () => load(api.GET('/api/agents/me')), refetchInterval: 30_000 }
export const chooseState = (body: { state: 'ready' | 'break', reason?: string }) => load(api.PUT('/api/agents/me', { body }))
