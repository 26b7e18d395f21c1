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
  return {
    publish: (event: LiveEvent) => notifier.publish(JSON.stringify(event)),
    subscribe (principal: Principal, deliver: (event: LiveEvent) => void): () => void {
      return notifier.subscribe((payload) => {
        const event = JSON.parse(payload) as LiveEvent
        if (canSee(principal, event)) deliver(event)
      })
    },
  }
}

export type LiveEvents = ReturnType<typeof createLiveEvents>
