import type { Notifier } from '../../db/notify.js'
import { canSee } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'

/** What a console receives. Small on purpose: NOTIFY carries at most 8000 bytes. */
export interface LiveEvent {
  type: 'call.answered' | 'call.transcription' | 'call.final' | 'operator.online' | 'operator.offline'
  organization_id: number | null
  employee_id: number | null
  [key: string]: unknown
}

export const MAX_CHUNK_IN_EVENT = 1500

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
