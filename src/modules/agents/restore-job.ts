import type { FastifyBaseLogger } from 'fastify'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Running } from '../../lib/module.js'
import { periodic } from '../../lib/periodic.js'

/**
 * Puts the operators' states back into Asterisk when the service starts and whenever Asterisk has
 * restarted (its startup time changed): a restart forgets every pause. Checked every `intervalMs`.
 */
export function createRestoreJob ({ control, restoreAll, intervalMs, log }: {
  control: Pick<PbxControl, 'status'>, restoreAll: () => Promise<number>, intervalMs: number, log: FastifyBaseLogger
}): Running {
  let restoredFor: string | null | undefined
  return periodic(async () => {
    try {
      const { startedAt } = await control.status()
      if (restoredFor !== undefined && startedAt === restoredFor) return
      const operators = await restoreAll()
      log.info({ operators, asteriskStartedAt: startedAt }, restoredFor === undefined ? 'operators\' states put into Asterisk' : 'Asterisk restarted: operators\' states put back')
      restoredFor = startedAt
    } catch (err) {
      log.warn({ err }, 'operators\' states could not be put into Asterisk; trying again')
    }
  }, intervalMs)
}
