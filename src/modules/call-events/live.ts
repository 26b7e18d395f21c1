import type { Notifier } from '../../db/notify.js'
import type { Principal } from '../../lib/auth.js'

/** What a console receives. Small on purpose: NOTIFY carries at most 8000 bytes. */
export interface LiveEvent {
  type: 'call.answered' | 'call.transcription' | 'call.final' | 'operator.online' | 'operator.offline'
  organization_id: number | null
  employee_id: number | null
  [key: string]: unknown
}

export const MAX_CHUNK_IN_EVENT = 1500

/** who may see what: admins everything, managers their organization's, operators their own */
export function canSee (p: Principal, e: Pick<LiveEvent, 'organization_id' | 'employee_id'>): boolean {
  if (p.role === 'admin') return true
  if (p.role === 'manager') return p.organization_id !== null && e.organization_id === p.organization_id
  return e.employee_id === p.id
}

/** Call events fanned out through PostgreSQL, so a console on any instance sees them. */
export function createLiveEvents (notifier: Notifier) {
  const consoles = new Set<{ principal: Principal, deliver: (event: LiveEvent, json: string) => void }>()
  // one parse per event, not one per console
  notifier.subscribe((payload) => {
    const event = JSON.parse(payload) as LiveEvent
    for (const c of consoles) if (canSee(c.principal, event)) c.deliver(event, payload)
  })
  return {
    publish: (event: LiveEvent) => notifier.publish(JSON.stringify(event)),
    subscribe (principal: Principal, deliver: (event: LiveEvent, json: string) => void): () => void {
      const entry = { principal, deliver }
      consoles.add(entry)
      return () => { consoles.delete(entry) }
    },
  }
}

export type LiveEvents = ReturnType<typeof createLiveEvents>
