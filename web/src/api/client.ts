import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './schema'

export type Schemas = components['schemas']

/** the typed client of the service's API, generated from the committed openapi.json */
export const api = createClient<paths>({ baseUrl: window.location.origin })

let token: string | null = null
let onUnauthorized: () => void = () => {}

/** the session's bearer token, sent with every request; a 401 to a request that sent one ends the session */
export function useToken (value: string | null, unauthorized: () => void): void {
  token = value
  onUnauthorized = unauthorized
}

const auth: Middleware = {
  onRequest ({ request }) {
    if (token) request.headers.set('authorization', `Bearer ${token}`)
    return request
  },
  onResponse ({ request, response }) {
    if (response.status === 401 && request.headers.has('authorization')) onUnauthorized()
    return response
  },
}
api.use(auth)

/** A FastAPI-shaped error: 422 lists the fields, the others say one thing */
export interface FieldProblem { type: string, loc: (string | number)[], msg: string, ctx?: Record<string, unknown> }
export interface ApiProblem {
  status: number
  detail: string | FieldProblem[] | undefined
  /** the service's stable name of the refusal (`person_exists`), which the console says in its own words */
  code?: string
  retryAfter?: number
  /** what still uses the item a deletion was refused for (409 `still_referenced` of the call routing) */
  usedBy?: { kind: 'line' | 'menu' | 'queue', id: number, name: string }[]
}

/** the error of an openapi-fetch answer as one value the pages can show */
export function problemOf (error: unknown, response: Response | undefined): ApiProblem {
  const body = error as { detail?: unknown, code?: unknown, used_by?: unknown } | undefined
  const retryAfter = Number(response?.headers.get('retry-after') ?? '') || undefined
  const usedBy = Array.isArray(body?.used_by) ? body.used_by as ApiProblem['usedBy'] : undefined
  return { status: response?.status ?? 0, detail: body?.detail as ApiProblem['detail'], code: typeof body?.code === 'string' ? body.code : undefined, retryAfter, ...(usedBy ? { usedBy } : {}) }
}
