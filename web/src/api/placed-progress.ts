import type { Schemas } from './client'

type PlacedCall = Schemas['PlacedCall']

/** how far a call has got: a later event never says an earlier state */
const PROGRESS: Record<PlacedCall['status'], number> = { ringing_you: 0, ringing_citizen: 1, connected: 2, ended: 3, no_answer: 3, busy: 3, failed: 3 }

/**
 * The call as the console should show it when `told` arrives: live events of one call can reach a
 * console out of order (the answer to the POST, the events of two service instances), so a state
 * older than the one shown is kept out.
 */
export function newerOf (shown: PlacedCall | undefined, told: PlacedCall): PlacedCall {
  if (shown === undefined || shown.id !== told.id) return told
  return PROGRESS[told.status] < PROGRESS[shown.status] ? shown : told
}
