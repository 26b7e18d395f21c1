// What in an organization's routing still uses a queue, a menu, a prompt or a schedule: said on the
// refusal to delete it (409 `still_referenced` with `used_by`), so the administrator sees which lines,
// menus and queues to change first instead of "still referenced".
import { DESTINATION_KINDS, destinationOf, destinationTarget } from './destinations.js'
import type { OrganizationRouting } from './queries.js'
import type { DestinationView } from './schemas.js'

export type RoutingItem = 'queue' | 'menu' | 'prompt' | 'schedule'
export interface RoutingUser { kind: 'line' | 'menu' | 'queue', id: number, name: string }

/** whether a destination sends calls to (or plays) the item */
function sendsTo (d: DestinationView, item: RoutingItem, id: number): boolean {
  return DESTINATION_KINDS[d.kind].owned === item && destinationTarget(d) === id
}

export function usersOf (routing: OrganizationRouting, item: RoutingItem, id: number): RoutingUser[] {
  const out: RoutingUser[] = []
  for (const l of routing.lines) {
    const plays = item === 'prompt' && l.recording_prompt_id === id
    const keeps = item === 'schedule' && l.schedule_id === id
    if (plays || keeps || sendsTo(destinationOf('dest', l), item, id) || sendsTo(destinationOf('closed', l), item, id)) out.push({ kind: 'line', id: l.id, name: `${l.number} ${l.name}` })
  }
  for (const m of routing.menus) {
    if (item === 'menu' && m.id === id) continue
    const plays = item === 'prompt' && m.prompt_id === id
    const sends = [destinationOf('timeout', m), destinationOf('invalid', m), ...m.options.map((o) => destinationOf('dest', o))].some((d) => sendsTo(d, item, id))
    if (plays || sends) out.push({ kind: 'menu', id: m.id, name: m.name })
  }
  for (const q of routing.queues) {
    if (item === 'queue' && q.id === id) continue
    const plays = item === 'prompt' && (q.periodic_prompt_id === id || q.rating_prompt_id === id || q.callback_prompt_id === id)
    if (plays || sendsTo(destinationOf('overflow', q), item, id)) out.push({ kind: 'queue', id: q.id, name: q.name })
  }
  return out
}
