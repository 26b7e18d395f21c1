import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../../db/client.js'
import type { Mailer } from '../../integrations/mail/index.js'
import type { SmsGateway } from '../../integrations/sms/index.js'
import type { Clock } from '../../lib/clock.js'
import type { Metrics } from '../../lib/metrics.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import { createNotificationRepo } from './repo.js'
import routes from './routes.js'
import { createNotificationService } from './service.js'
import { createNotificationWorker } from './worker.js'

export interface NotificationsPort {
  /** wakes the worker: rows were added to the outbox */
  poke: () => void
}

/** citizens' and managers' notifications: the outbox, its worker (mail over SMTP, SMS over SMPP) and its routes */
export function createNotificationsModule (deps: {
  db: AppDb, clock: Clock, log: FastifyBaseLogger, notifications: Config['notifications'], publicUrl: string, metrics: Metrics
  /** a delivering mailer (the development outbox mailer is none: without it e-mail notifications wait) */
  mailer?: Mailer
  sms?: SmsGateway
}): ServiceModule<NotificationsPort> {
  const repo = createNotificationRepo(deps.db)
  const worker = createNotificationWorker({
    repo,
    mailer: deps.mailer,
    sms: deps.sms,
    clock: deps.clock,
    log: deps.log,
    deliveryFailed: () => { deps.metrics.failure('notification_delivery') },
    ...deps.notifications,
    timeoutMs: deps.notifications.smpp?.timeoutMs ?? 5_000,
    messageIdDomain: new URL(deps.publicUrl).hostname,
  })
  deps.metrics.outbox('notifications', repo.backlog)
  const service = createNotificationService({ repo, clock: deps.clock, channels: worker.channels, poke: worker.poke })
  return {
    port: { poke: worker.poke },
    // stopped in reverse: the worker, then the SMS connection it used
    running: [{ stop: () => deps.sms?.close() }, worker],
    async register (app) {
      app.decorate('notifications', worker)
      await app.register(routes, { prefix: '/api/appeals/notifications', service })
    },
  }
}
