import type { Notifier } from '../../db/notify.js'
import { canSee, canSeeAppeal } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import { createBurst } from '../../lib/bursts.js'
import type { LiveEventMessage } from './live-events.js'

/** What a console receives (one schema per event: live-events.ts). Small on purpose: NOTIFY carries at most 8000 bytes. */
export type LiveEvent = LiveEventMessage

/** an event and its JSON text, as it came */
export interface LiveDelivery { event: LiveEvent, json: string }
/** how a transport writes one event (an SSE frame, a WebSocket frame) */
export type LiveEncoding = (delivery: LiveDelivery) => Buffer

/** The events a console gets at once, in order; consoles that see the same events get the same batch. */
export interface LiveBatch {
  deliveries: readonly LiveDelivery[]
  /** the batch's bytes in an encoding: made once, however many consoles it goes to */
  bytes: (encoding: LiveEncoding) => Buffer
}

export function liveBatch (deliveries: readonly LiveDelivery[]): LiveBatch {
  const encoded = new Map<LiveEncoding, Buffer>()
  return {
    deliveries,
    bytes (encoding) {
      let bytes = encoded.get(encoding)
      if (!bytes) {
        bytes = deliveries.length === 1 ? encoding(deliveries[0]!) : Buffer.concat(deliveries.map(encoding))
        encoded.set(encoding, bytes)
      }
      return bytes
    },
  }
}

export interface LiveOptions {
  /** whether the principal is the call centre's staff, asked once when a console subscribes */
  isCentreStaff?: (principal: Principal) => Promise<boolean>
}

interface Console { principal: Principal, centre: boolean, view: string, deliver: (batch: LiveBatch) => void }

function sees (c: Console, event: LiveEvent): boolean {
  if (!('audience' in event)) return canSee(c.principal, event)
  return canSeeAppeal(c, event.organization_id)
}

/** consoles with the same view see the same events (what `sees` reads of them) */
function viewOf (c: Pick<Console, 'principal' | 'centre'>): string {
  const { role, organization_id: organization, id } = c.principal
  if (role === 'admin') return 'admin'
  return `${role === 'manager' ? role : `${role}:${id}`}:${organization}:${c.centre}`
}

export const MAX_CHUNK_IN_EVENT = 1500

/**
 * Call events fanned out through PostgreSQL, so a console on any instance sees them. They reach the
 * consoles in bursts (see createBurst): each burst is sorted once per view of the consoles, and
 * consoles of one view share its batch, bytes and all.
 */
export function createLiveEvents (notifier: Notifier, options: LiveOptions = {}) {
  const consoles = new Set<Console>()

  function fanOut (deliveries: LiveDelivery[]): void {
    const whole = liveBatch(deliveries)
    const byView = new Map<string, LiveBatch | undefined>()
    for (const c of consoles) {
      if (!byView.has(c.view)) {
        const seen = deliveries.filter(({ event }) => sees(c, event))
        byView.set(c.view, seen.length === deliveries.length ? whole : seen.length > 0 ? liveBatch(seen) : undefined)
      }
      const batch = byView.get(c.view)
      if (batch) c.deliver(batch)
    }
  }

  const burst = createBurst(fanOut, (d: LiveDelivery) => d.json.length)
  // one parse per event, not one per console
  notifier.subscribe((json) => { if (consoles.size > 0) burst.push({ event: JSON.parse(json) as LiveEvent, json }) })
  return {
    /** the consoles following the stream on this instance */
    open: () => consoles.size,
    publish: (event: LiveEvent) => notifier.publish(JSON.stringify(event)),
    /** the channel, for a statement that builds its events itself */
    channel: notifier.channel,
    /** the event for a statement to send with its commit (see NotifyMessage) */
    message: (event: LiveEvent) => notifier.message(JSON.stringify(event)),
    subscribe (principal: Principal, deliver: (batch: LiveBatch) => void): () => void {
      const entry: Console = { principal, centre: false, view: '', deliver }
      entry.view = viewOf(entry)
      consoles.add(entry)
      options.isCentreStaff?.(principal).then((centre) => { entry.centre = centre; entry.view = viewOf(entry) }, () => {})
      return () => { consoles.delete(entry) }
    },
  }
}

export type LiveEvents = ReturnType<typeof createLiveEvents>
