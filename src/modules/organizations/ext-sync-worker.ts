import type { ExtSyncClient } from '../../integrations/ext-sync/index.js'
import { createOutboxWorker, type OutboxPolicy } from '../../lib/outbox-worker.js'
import type { ClaimedSync, ExtSyncRepo } from './ext-sync-repo.js'

export interface ExtSyncWorkerOptions extends OutboxPolicy {
  repo: ExtSyncRepo
  client: ExtSyncClient
  batch?: number
}

/** Sends the organizations' outbox to the external system (the shared outbox worker, lib/outbox-worker). */
export function createExtSyncWorker (o: ExtSyncWorkerOptions) {
  return createOutboxWorker<ClaimedSync>({
    ...o,
    name: 'ext sync',
    source: {
      claim: (now, holdUntil, batch) => o.repo.claimDue(now, holdUntil, batch),
      deliver: async (c) => { await o.client.send(c.payload, `organization-${c.organization_id}-v${c.version}`) },
      attemptsOf: (c) => c.attempts,
      succeeded: (c, at) => o.repo.markSynced(c, at),
      failed: (c, error, at, next) => o.repo.markFailed(c, error, at, { status: next.giveUp ? 'failed' : 'pending', retryAt: next.retryAt }),
      describe: (c) => ({ organization_id: c.organization_id }),
    },
  })
}

export type ExtSyncWorker = ReturnType<typeof createExtSyncWorker>
