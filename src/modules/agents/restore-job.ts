import type { FastifyBaseLogger } from 'fastify'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { Running } from '../../lib/module.js'

/**
 * Puts the operators' states back into Asterisk when the service starts and whenever Asterisk has
 * restarted (its startup time changed): a restart forgets every pause. Checked every `intervalMs`.
 */
export function createRestoreJob ({ control, restoreAll, intervalMs, log }: {
  control: Pick<PbxControl, 'status'>, restoreAll: () => Promise<number>, intervalMs: number, log: FastifyBaseLogger
}): Running {
  let timer: NodeJS.Timeout | undefined
  let restoredFor: string | null | undefined
  let running: Promise<void> | undefined
  async function check () {
    try {
      const { startedAt } = await control.status()
      if (restoredFor !== undefined && startedAt === restoredFor) return
      const operators = await restoreAll()
      log.info({ operators, asteriskStartedAt: startedAt }, restoredFor === undefined ? 'operators\' states put into Asterisk' : 'Asterisk restarted: operators\' states put back')
      restoredFor = startedAt
    } catch (err) {
      log.warn({ err }, 'operators\' states could not be put into Asterisk; trying again')
    }
  }
  const tick = () => { running ??= check().finally(() => { running = undefined }) }
  return {
    start () {
      tick()
      timer = setInterval(tick, intervalMs)
      timer.unref()
    },
    async stop () {
      clearInterval(timer)
      await running
    },
  }
}
