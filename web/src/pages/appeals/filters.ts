import type { AppealQuery } from '../../api/appeals'

export type { AppealQuery }

const NUMBERS = ['region_id', 'subcategory_id', 'executor_organization_id', 'source_id', 'operator_id', 'person_id'] as const
const TEXTS = ['q', 'iin', 'phone', 'received_from', 'received_to'] as const
export const STATUSES = ['registered', 'assigned', 'in_work', 'answered', 'closed', 'rejected'] as const

/** the list's filters as the URL keeps them: a filtered list can be reloaded, bookmarked and sent */
export function filtersFromUrl (params: URLSearchParams): AppealQuery {
  const query: AppealQuery = {}
  const status = params.get('status')
  if (status && (STATUSES as readonly string[]).includes(status)) query.status = status as AppealQuery['status']
  if (params.get('overdue') === 'true') query.overdue = true
  for (const key of NUMBERS) { const n = Number(params.get(key)); if (Number.isInteger(n) && n > 0) query[key] = n }
  for (const key of TEXTS) { const v = params.get(key)?.trim(); if (v) query[key] = v }
  return query
}

export function filtersToUrl (query: AppealQuery): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '' && value !== false && key !== 'cursor' && key !== 'limit') params.set(key, String(value))
  return params
}
