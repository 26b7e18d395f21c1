import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.js'
import type { AmiClient } from '../../integrations/ami/client.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import type { Metrics } from '../../lib/metrics.js'
import type { Running } from '../../lib/module.js'
import type { LineCallService } from './service.js'

// Any constant: the same for every instance of the service.
const CONSUMER_LOCK = 7_351_034
const LEAD_RETRY_MS = 3000

/**
 * The event classes the consumer's connection logs in with (Login's `Events`): the queues' events
 * (`agent`), the channels' (`call`) and the dialplan's own `UserEvent AppealsCall` (`user`). Asterisk
 * sends an event only when its every class is both asked for here and in the AMI user's `read`.
 */
export const CALL_EVENT_CLASSES = 'call,agent,user'

/**
 * Exactly one instance reads Asterisk's events (DESIGN 9): the one that holds the consumer's
 * advisory lock streams them from its own AMI connection into the line's calls; another takes over
 * when it stops, is killed or loses its database connection. Taking the lead raises the fencing
 * epoch first, so that what a lost leader still has queued is refused by the database.
 */
export function createEventConsumer ({ lead, events, service, log, metrics, listeners = [] }: {
  lead: Database['lead'], events: Pick<AmiClient, 'stream' | 'close'>, service: Pick<LineCallService, 'event' | 'connected' | 'settled' | 'stop' | 'lead' | 'resign'>, log: FastifyBaseLogger
  metrics: Pick<Metrics, 'amiConnected' | 'failure'>
  /** other modules' readers of the same events (a prompt recorded by phone): heard by the leading instance only */
  listeners?: ((message: AmiMessage, at: Date) => void)[]
}): Running {
  let stopLeading: (() => Promise<void>) | undefined
  let stopStream: (() => void) | undefined
  /** each change of the lead: a lead taken late (its epoch being raised) is not acted on once lost again */
  let term = 0
  let retry: NodeJS.Timeout | undefined
  const stream = () => events.stream({
    event: (message, at) => {
      service.event(message, at)
      for (const listener of listeners) listener(message, at)
    },
    connected: () => { metrics.amiConnected(true); log.info('AMI events: connected'); void service.connected() },
    lost: (reason) => {
      metrics.amiConnected(false)
      metrics.failure('ami_connection')
      log.warn({ reason }, 'AMI events: connection lost; reconnecting')
    },
  })
  const follow = (leading: boolean) => {
    const mine = ++term
    clearTimeout(retry)
    stopStream?.()
    stopStream = undefined
    metrics.amiConnected(false)
    service.resign()
    if (!leading) { log.info('another instance reads Asterisk\'s events'); return }
    service.lead().then(() => {
      if (term === mine) stopStream = stream()
    }, (err: unknown) => {
      log.warn({ err }, 'the lead of Asterisk\'s events could not be taken (its epoch not written); trying again')
      if (term === mine) retry = setTimeout(() => { if (term === mine) follow(true) }, LEAD_RETRY_MS)
    })
  }
  return {
    start: async () => { stopLeading = await lead(CONSUMER_LOCK, follow) },
    // what was heard is written under this lead before the lock is let go
    stop: async () => {
      term++
      clearTimeout(retry)
      stopStream?.()
      events.close()
      await service.settled()
      service.stop()
      await stopLeading?.()
    },
  }
}
