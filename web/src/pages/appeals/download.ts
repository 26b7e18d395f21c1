import { api } from '../../api/client'
import type { AppealQuery } from './filters'

/** the export as a file the browser saves (the request carries the token, so no plain link) */
export async function downloadExport (query: AppealQuery, format: 'xlsx' | 'csv', lang: 'kk' | 'ru'): Promise<{ rows: number, truncated: boolean }> {
  const { data: blob, response } = await api.GET('/api/appeals/export', { params: { query: { ...query, format, lang } }, parseAs: 'blob' })
  if (!response.ok || !blob) throw new Error(String(response.status))
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `appeals.${format}`
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
  return { rows: Number(response.headers.get('x-export-rows') ?? 0), truncated: response.headers.get('x-export-truncated') === 'true' }
}
