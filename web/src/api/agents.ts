import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// The operator's availability (/api/agents): the desk's switch.

export const myStateQuery = { queryKey: keys.agent.me, queryFn: () => load(api.GET('/api/agents/me')), refetchInterval: 30_000 }
/** the signed-in employee's browser phones and their keys: asked again only when Asterisk refuses the key (renewed at a sign-out elsewhere) */
export const myPhonesQuery = { queryKey: keys.agent.phones, queryFn: () => load(api.GET('/api/agents/me/phones')), staleTime: Infinity, gcTime: 0 }
export type MyPhones = Schemas['MyPhones']
export const chooseState = (body: { state: 'ready' | 'break', reason?: string }) => load(api.PUT('/api/agents/me', { body }))

export type BreakReason = Schemas['BreakReason']
/** the administrator's list of break reasons (the desk's choice, the board's names and limits) */
export const breakReasonsQuery = { queryKey: keys.agent.reasons, queryFn: () => load(api.GET('/api/agents/break-reasons')), staleTime: 60_000 }
export const saveBreakReason = (code: string | undefined, body: Schemas['BreakReasonCreate']) => code === undefined
  ? load(api.POST('/api/agents/break-reasons', { body }))
  : load(api.PUT('/api/agents/break-reasons/{code}', { params: { path: { code } }, body: { name_ru: body.name_ru, name_kk: body.name_kk, max_minutes: body.max_minutes ?? null, sort_order: body.sort_order } }))
export const removeBreakReason = (code: string) => load(api.DELETE('/api/agents/break-reasons/{code}', { params: { path: { code } } }))

/** a reason's name in the console's language (its code when it is not on the list: a pause made on the PBX) */
export const reasonName = (reasons: BreakReason[] | undefined, code: string, language: string) => {
  const found = reasons?.find((r) => r.code === code)
  return found ? (language === 'kk' ? found.name_kk : found.name_ru) : undefined
}
