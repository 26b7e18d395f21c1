import type { AppDb } from '../../db/client.js'
import type { Principal } from '../../lib/auth.js'
import { appealExecutor, executorsOfCall } from '../appeals/queries.js'
import { placedCallFacts } from '../placed-calls/queries.js'
import { isDataProtectionOfficer } from '../audit/queries.js'
import { callRowIdOf } from '../call-events/queries.js'
import { employeeTerminals } from '../endpoints/queries.js'
import { callReached, lineCallRecord } from '../line-calls/queries.js'
import type { RecordingRow } from './queries.js'

const DAY_MS = 86_400_000

/**
 * Who may hear a call's recordings (docs/telephony.md, "Recordings"): admins; data protection
 * officers; the managers of the call centre and of each organization whose line or queue took the
 * call (the queues it was passed on from too) or placed it; the operator at the recorded leg's terminal for `operatorDays` after it began;
 * the staff of the organization executing an appeal registered from the call or that it was placed for. The facts are read once per call,
 * then each leg is judged.
 */
export function createHearingPolicy ({ db, operatorDays, isCentreStaff, now }: { db: AppDb, operatorDays: number, isCentreStaff: (p: Principal) => Promise<boolean>, now: () => Date }) {
  return async function audibleOf (principal: Principal, linkedid: string): Promise<(leg: RecordingRow) => boolean> {
    if (principal.role === 'admin' || await isDataProtectionOfficer(db, principal.id)) return () => true
    const org = principal.organization_id
    const placed = await placedCallFacts(db, linkedid)
    if (principal.role === 'manager' && org !== null) {
      const lineCall = await lineCallRecord(db, linkedid)
      if ((lineCall !== undefined && callReached(lineCall, org)) || placed?.organization_id === org || await isCentreStaff(principal)) return () => true
    }
    const callRow = org === null ? undefined : await callRowIdOf(db, linkedid)
    if (callRow !== undefined && (await executorsOfCall(db, callRow)).includes(org!)) return () => true
    if (org !== null && placed?.appeal_id != null && await appealExecutor(db, placed.appeal_id) === org) return () => true
    const own = new Set((await employeeTerminals(db, { employeeId: principal.id })).map((t) => t.id))
    const since = now().getTime() - operatorDays * DAY_MS
    return (leg) => leg.terminal !== null && own.has(leg.terminal) && leg.started_at.getTime() > since
  }
}

export type HearingPolicy = ReturnType<typeof createHearingPolicy>
