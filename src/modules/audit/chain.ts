import { createHmac } from 'node:crypto'
import type { PersonalDataAction, PersonalDataSubject } from '../../db/schema/index.js'

// The chain that makes a changed or removed record visible: each record's hash is a keyed HMAC of
// the one before it and of its own fields, in a form that reads the same after a round trip
// through the database (jsonb reorders an object's keys; the form sorts them).

/** the first record's predecessor */
export const CHAIN_START = '0'.repeat(64)

/** JSON with every object's keys sorted: the same text for the same value, however stored */
export function canonicalJson (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value ?? null)
}

/** what a record's hash covers: everything it says, and its predecessor's hash */
export interface ChainedFields {
  at: Date
  actor_id: number | null
  actor_email: string | null
  actor_role: string | null
  ip: string | null
  request_id: string | null
  action: PersonalDataAction
  subject: PersonalDataSubject
  subject_ids: string[]
  route: string
  detail: unknown
}

export function chainHash (key: Buffer, prevHash: string, f: ChainedFields): string {
  const fields = [f.at, f.actor_id, f.actor_email, f.actor_role, f.ip, f.request_id, f.action, f.subject, f.subject_ids, f.route, f.detail ?? null]
  return createHmac('sha256', key).update(prevHash).update('\n').update(canonicalJson(fields)).digest('hex')
}
