// A number is read by the service's own rules (src/lib/phone.ts), as the call's caller_phone was stored.
import { normalizeKzPhone } from '../../../src/lib/phone.js'

/** what the region guess needs of a region (`GET /api/regions`) */
export interface CodedRegion { id: number, parent_id: number | null, phone_code: string | null, is_active: boolean, is_regional_center: boolean }

/**
 * The region a Kazakh landline number calls from, by its area code (7172 Astana, 727 Almaty, 72533
 * Turkestan): the longest code the number starts with. An oblast and its centre share a code: the
 * caller is then in the centre. A city and its districts share one: it is then the city. A mobile
 * number (70x, 747, 75x-77x), a foreign one or an unknown code: none.
 */
export function regionOfPhone (phone: string | null | undefined, regions: CodedRegion[]): { id: number, code: string } | undefined {
  const national = normalizeKzPhone(phone ?? '')?.slice(2)
  if (!national || !/^7[12]/.test(national)) return undefined
  const matching = regions.filter((r) => r.is_active && r.phone_code && national.startsWith(r.phone_code))
  const longest = Math.max(...matching.map((r) => r.phone_code!.length))
  const candidates = matching.filter((r) => r.phone_code!.length === longest)
  const ids = new Set(candidates.map((r) => r.id))
  const best = candidates.find((r) => r.is_regional_center) ?? candidates.find((r) => r.parent_id === null || !ids.has(r.parent_id))
  return best && { id: best.id, code: best.phone_code! }
}
