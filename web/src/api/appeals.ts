import { keepPreviousData } from '@tanstack/react-query'
import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'
import type { paths } from './schema'

// The appeals register (/api/appeals): the list, one appeal, its transcript, its actions, the
// statistics and the export; the outbox of notices and the working calendar live under it too.

export type AppealQuery = NonNullable<paths['/api/appeals']['get']['parameters']['query']>
export type Appeal = Schemas['AppealResponse']
export type AppealAction = 'take' | 'close' | 'assign' | 'redirect' | 'extend' | 'return' | 'reject' | 'answer'

export const appealListQuery = (filters: AppealQuery, cursor: string | undefined, limit: number) => ({
  queryKey: keys.appeals.list(filters, cursor),
  queryFn: () => load(api.GET('/api/appeals', { params: { query: { ...filters, cursor, limit } } })),
  placeholderData: keepPreviousData,
})

export type InboxState = NonNullable<NonNullable<paths['/api/appeals/inbox']['get']['parameters']['query']>['state']>

/** an executor's inbox: the counts of its views and a page of one, the nearest deadline first */
export const inboxQuery = (state: InboxState, organizationId: number | undefined, cursor: string | undefined, limit: number) => ({
  queryKey: keys.appeals.inbox(state, organizationId, cursor),
  queryFn: () => load(api.GET('/api/appeals/inbox', { params: { query: { state, executor_organization_id: organizationId, cursor, limit } } })),
  placeholderData: keepPreviousData,
})

/** several appeals to one employee (or, null, back to the organization), all or none */
export const bulkAssign = (body: Schemas['AppealBulkAssign']) => load(api.POST('/api/appeals/bulk-assign', { body }))

/** the header's search: the register's first few for a text, while it is typed */
export const appealSearchQuery = (q: string) => ({
  queryKey: keys.appeals.search(q),
  queryFn: () => load(api.GET('/api/appeals', { params: { query: { q, limit: 6 } } })),
  staleTime: 10_000,
  placeholderData: keepPreviousData,
})

/** a caller's latest appeals, by the person or the phone */
export const callerAppealsQuery = (query: { person_id?: number, phone?: string }) => ({
  queryKey: keys.appeals.ofCaller(query),
  queryFn: () => load(api.GET('/api/appeals', { params: { query: { ...query, limit: 5 } } })),
})

export const appealQuery = (id: number) => ({
  queryKey: keys.appeals.one(id),
  queryFn: () => load(api.GET('/api/appeals/{appeal_id}', { params: { path: { appeal_id: id } } })),
})

export const transcriptQuery = (id: number) => ({
  queryKey: keys.appeals.transcript(id),
  queryFn: () => load(api.GET('/api/appeals/{appeal_id}/transcript', { params: { path: { appeal_id: id } } })),
})

export const registerAppeal = (body: Schemas['AppealCreate']) => load(api.POST('/api/appeals', { body }))

export interface ActionBody {
  executor_organization_id?: number
  reason?: string
  /** extend: the new deadline */
  until?: string
  kind?: Schemas['AppealReject']['kind']
  text?: string
  language?: Schemas['AppealAnswer']['language']
  check?: Schemas['AppealAnswer']['check']
  /** answer: the call placed for the appeal it was given in */
  call_id?: number
}

/** one action on an appeal, with the body its action takes */
export function actOnAppeal (id: number, action: AppealAction, v: ActionBody): Promise<Appeal> {
  const path = { params: { path: { appeal_id: id } } }
  switch (action) {
    case 'take': return load(api.POST('/api/appeals/{appeal_id}/take', path))
    case 'close': return load(api.POST('/api/appeals/{appeal_id}/close', path))
    case 'assign': return load(api.POST('/api/appeals/{appeal_id}/assign', { ...path, body: { executor_organization_id: v.executor_organization_id } }))
    case 'redirect': return load(api.POST('/api/appeals/{appeal_id}/redirect', { ...path, body: { executor_organization_id: v.executor_organization_id!, reason: v.reason! } }))
    case 'extend': return load(api.POST('/api/appeals/{appeal_id}/extend', { ...path, body: { until: v.until!, reason: v.reason! } }))
    case 'return': return load(api.POST('/api/appeals/{appeal_id}/return', { ...path, body: { reason: v.reason! } }))
    case 'reject': return load(api.POST('/api/appeals/{appeal_id}/reject', { ...path, body: { kind: v.kind!, reason: v.reason! } }))
    case 'answer': return load(api.POST('/api/appeals/{appeal_id}/answer', { ...path, body: { text: v.text!, language: v.language!, check: v.check, ...(v.call_id ? { call_id: v.call_id } : {}) } }))
  }
}

export const statsOfDayQuery = (day: string) => ({
  queryKey: keys.appeals.statsOfDay(day),
  queryFn: () => load(api.GET('/api/appeals/stats', { params: { query: { date_from: day, date_to: day, limit: 1 } } })),
})

export const statsQuery = (from: string, to: string, level: NonNullable<paths['/api/appeals/stats']['get']['parameters']['query']>['classification_level'] & string) => ({
  queryKey: keys.appeals.stats(from, to, level),
  queryFn: () => load(api.GET('/api/appeals/stats', { params: { query: { date_from: from, date_to: to, classification_level: level, limit: 20 } } })),
})

/** an export's answer saved by the browser under the name the service gave it */
export function saveExport ({ data: blob, response }: { data?: Blob, response: Response }, fallbackName: string): { rows: number, truncated: boolean } {
  if (!response.ok || !blob) throw new Error(String(response.status))
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
  return { rows: Number(response.headers.get('x-export-rows') ?? 0), truncated: response.headers.get('x-export-truncated') === 'true' }
}

/** the export as a file the browser saves (the request carries the token, so no plain link) */
export async function downloadExport (query: AppealQuery, format: 'xlsx' | 'csv', lang: 'kk' | 'ru'): Promise<{ rows: number, truncated: boolean }> {
  return saveExport(await api.GET('/api/appeals/export', { params: { query: { ...query, format, lang } }, parseAs: 'blob' }), `appeals.${format}`)
}

/** the outbox of notices, newest first, 50 a page */
type NotificationFilter = NonNullable<paths['/api/appeals/notifications']['get']['parameters']['query']>
export const notificationsQuery = (status?: NotificationFilter['status'], channel?: NotificationFilter['channel']) => ({
  queryKey: keys.admin.notifications.list(status, channel),
  queryFn: ({ pageParam }: { pageParam: number | undefined }) => load(api.GET('/api/appeals/notifications', { params: { query: { status, channel, before_id: pageParam, limit: 50 } } })),
})
export const retryNotification = (id: number) => load(api.POST('/api/appeals/notifications/{notification_id}/retry', { params: { path: { notification_id: id } } }))

export const calendarQuery = (year: number) => ({
  queryKey: keys.admin.calendar.year(year),
  queryFn: () => load(api.GET('/api/appeals/calendar', { params: { query: { year } } })),
})
export const saveCalendarDay = ({ day, ...body }: { day: string } & Schemas['CalendarDayUpdate']) => load(api.PUT('/api/appeals/calendar/{day}', { params: { path: { day } }, body }))
export const restoreCalendarDay = (day: string) => load(api.DELETE('/api/appeals/calendar/{day}', { params: { path: { day } } }))

/** what the register is to the user: the centre's staff register, an executor's staff answer */
export const workplaceQuery = (userId: number) => ({
  queryKey: keys.workplace(userId),
  queryFn: () => load(api.GET('/api/appeals/workplace')),
  staleTime: Infinity,
})
