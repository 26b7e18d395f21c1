import type { NotificationChannel } from '../../db/schema/index.js'
import type { Mailer } from '../../integrations/mail/index.js'
import type { SmsGateway } from '../../integrations/sms/index.js'
import { createOutboxWorker, type OutboxPolicy } from '../../lib/outbox-worker.js'
import type { ClaimedNotification, NotificationRepo } from './repo.js'

export interface NotificationWorkerOptions extends OutboxPolicy {
  repo: NotificationRepo
  /** unset: e-mail notifications wait (SMTP_URL is not set) */
  mailer?: Mailer
  /** unset: SMS notifications wait (SMPP_URL is not set) */
  sms?: SmsGateway
  /** the domain of Message-IDs, so that a mail sent twice is recognisably one */
  messageIdDomain: string
}

/** Delivers the outbox of DESIGN 7.4 through the channels this instance has. */
export function createNotificationWorker (o: NotificationWorkerOptions) {
  const channels: NotificationChannel[] = [...(o.mailer ? ['email' as const] : []), ...(o.sms ? ['sms' as const] : [])]

  async function deliver (n: ClaimedNotification): Promise<string> {
    if (n.channel === 'email') {
      const messageId = `<${n.idempotency_key.replace(/[^\w.-]/g, '.')}@${o.messageIdDomain}>`
      await o.mailer!.send({ to: n.recipient, subject: n.subject ?? '', text: n.body, messageId })
      return messageId
    }
    return o.sms!.send({ to: n.recipient, text: n.body })
  }

  const worker = createOutboxWorker<ClaimedNotification>({
    ...o,
    name: 'notification',
    source: {
      claim: (now, holdUntil, batch) => o.repo.claimDue(channels, now, holdUntil, batch),
      deliver,
      attemptsOf: (n) => n.attempts,
      succeeded: (n, at, receipt) => o.repo.markSent(n, at, receipt),
      failed: (n, error, at, next) => o.repo.markFailed(n, error, at, next),
      // never the recipient or the text: they are personal data
      describe: (n) => ({ notification_id: n.id, channel: n.channel, kind: n.kind, appeal_id: n.appeal_id }),
    },
  })

  return {
    ...worker,
    channels,
    start () {
      const waiting = (['email', 'sms'] as const).filter((c) => !channels.includes(c))
      if (waiting.length > 0) {
        o.log.info({ waiting }, `${waiting.join(' and ')} notifications wait in the outbox: ${waiting.map((c) => c === 'email' ? 'SMTP_URL' : 'SMPP_URL').join(' and ')} not set`)
      }
      worker.start()
    },
  }
}

export type NotificationWorker = ReturnType<typeof createNotificationWorker>

declare module 'fastify' {
  interface FastifyInstance {
    /** this instance's notification worker (tests and operators may run a round at once) */
    notifications: Pick<NotificationWorker, 'runOnce' | 'poke'>
  }
}
