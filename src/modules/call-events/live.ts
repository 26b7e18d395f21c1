import type { Notifier } from '../../db/notify.js'
import { canSee } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'

/** What a console receives. Small on purpose: NOTIFY carries at most 8000 bytes. */
export interface LiveEvent {
  type: 'call.answered' | 'call.transcription' | 'call.final' | 'operator.online' | 'operator.offline' | `appeal.${string}`
  organization_id: number | null
  employee_id: number | null
  /** appeal: seen by the centre's staff and the executor organization's staff (DESIGN 7.2), not by the access scope */
  audience?: 'appeal'
  [key: string]: unknown
}

export interface LiveOptions {
  /** whether the principal is the call centre's staff, asked once when a console subscribes */
  isCentreStaff?: (principal: Principal) => Promise<boolean>
}

interface Console { principal: Principal, centre: boolean, deliver: (event: LiveEvent, json: string) => void }

function sees (c: Console, event: LiveEvent): boolean {
  if (event.audience !== 'appeal') return canSee(c.principal, event)
  return c.principal.role === 'admin' || c.centre || (c.principal.organization_id !== null && c.principal.organization_id === event.organization_id)
}

export const MAX_CHUNK_IN_EVENT = 1500

/** Call events fanned out through PostgreSQL, so a console on any instance sees them. */
export function createLiveEvents (notifier: Notifier, options: LiveOptions = {}) {
  const consoles = new Set<Console>()
  // one parse per event, not one per console
  notifier.subscribe((payload) => {
    const event = JSON.parse(payload) as LiveEvent
    for (const c of consoles) if (sees(c, event)) c.deliver(event, payload)
  })
  return {
    publish: (event: LiveEvent) => notifier.publish(JSON.stringify(event)),
    /** the channel, for a statement that builds its events itself */
    channel: notifier.channel,
    /** the event for a statement to send with its commit (see NotifyMessage) */
    message: (event: LiveEvent) => notifier.message(JSON.stringify(event)),
    subscribe (principal: Principal, deliver: (event: LiveEvent, json: string) => void): () => void {
      const entry: Console = { principal, centre: false, deliver }
      consoles.add(entry)
      options.isCentreStaff?.(principal).then((centre) => { entry.centre = centre }, () => {})
      return () => { consoles.delete(entry) }
    },
  }
}

export type LiveEvents = ReturnType<typeof createLiveEvents>
