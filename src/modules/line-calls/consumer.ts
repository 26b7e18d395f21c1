import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.js'
import type { AmiClient } from '../../integrations/ami/client.js'
import type { Metrics } from '../../lib/metrics.js'
import type { Running } from '../../lib/module.js'
import type { LineCallService } from './service.js'

// Any constant: the same for every instance of the service.
const CONSUMER_LOCK = 7_351_034

/**
 * The event classes the consumer's connection logs in with (Login's `Events`): the queues' events
 * (`agent`), the channels' (`call`) and the dialplan's own `UserEvent AppealsCall` (`user`). Asterisk
 * sends an event only when its every class is both asked for here and in the AMI user's `read`.
 */
export const CALL_EVENT_CLASSES = 'call,agent,user'

/**
 * Exactly one instance reads Asterisk's events (DESIGN 9): the one that holds the consumer's
 * advisory lock streams them from its own AMI connection into the line's calls; another takes over
 * when it stops or loses its database connection.
 */
export function createEventConsumer ({ lead, events, service, log, metrics }: {
  lead: Database['lead'], events: Pick<AmiClient, 'stream' | 'close'>, service: Pick<LineCallService, 'event' | 'connected' | 'settled' | 'stop'>, log: FastifyBaseLogger
  metrics: Pick<Metrics, 'amiConnected' | 'failure'>
}): Running {
  let stopLeading: (() => Promise<void>) | undefined
  let stopStream: (() => void) | undefined
  const follow = (leading: boolean) => {
    stopStream?.()
    stopStream = undefined
    metrics.amiConnected(false)
    if (!leading) { log.info('another instance reads Asterisk\'s events'); return }
    log.info('this instance reads Asterisk\'s events')
    stopStream = events.stream({
      event: service.event,
      connected: () => { metrics.amiConnected(true); log.info('AMI events: connected'); void service.connected() },
      lost: (reason) => {
        metrics.amiConnected(false)
        metrics.failure('ami_connection')
        log.warn({ reason }, 'AMI events: connection lost; reconnecting')
      },
    })
  }
  return {
    start: async () => { stopLeading = await lead(CONSUMER_LOCK, follow) },
    stop: async () => {
      await stopLeading?.()
      stopStream?.()
      events.close()
      service.stop()
      await service.settled()
    },
  }
}
