import type { FastifyBaseLogger } from 'fastify'

/** what the boards are told: the line of this organization changed (a call or an agent); they read it again */
export interface LineLiveEvent { type: 'line.changed', organization_id: number | null, employee_id: null }

/** a board is told at most this often: a busy line's thousand events a second are one event per organization */
const ANNOUNCE_EVERY_MS = 500

/** Coalesces the line's changes into one live event per organization per half second. */
export function createLineAnnouncer ({ publish, log }: { publish?: (event: LineLiveEvent) => Promise<void>, log: FastifyBaseLogger }) {
  const pending = new Set<number | null>()
  let timer: NodeJS.Timeout | undefined

  function flush (): void {
    timer = undefined
    const organizations = [...pending]
    pending.clear()
    for (const organizationId of organizations) {
      publish?.({ type: 'line.changed', organization_id: organizationId, employee_id: null })
        .catch((err: unknown) => { log.warn({ err }, 'the line\'s change could not be announced') })
    }
  }

  const announce = (organizationId: number | null): void => {
    if (!publish) return
    pending.add(organizationId)
    timer ??= setTimeout(flush, ANNOUNCE_EVERY_MS)
  }
  announce.stop = (): void => { clearTimeout(timer); timer = undefined; pending.clear() }
  return announce
}
