import nodemailer from 'nodemailer'
import { traced } from '../../lib/tracing.js'

export interface MailMessage {
  to: string
  subject: string
  text: string
  /** the Message-ID header (`<id@domain>`); a redelivered mail keeps it, so receivers see one message */
  messageId?: string
}

/** Sends mail. Implementations: SMTP (production) and the outbox table (development, no SMTP_URL). */
export interface Mailer {
  send: (message: MailMessage) => Promise<void>
  /** true when a message is kept, not delivered (no SMTP): whoever needs its link must be given it another way */
  keepsOnly?: boolean
}

const SMTP_TIMEOUT_MS = 10_000

export function createSmtpMailer ({ url, from }: { url: string, from: string }): Mailer {
  const transport = nodemailer.createTransport(url, {
    from,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as object)
  return {
    send: async (message) => {
      // the recipient is personal data: not an attribute
      await traced('smtp send', { 'network.protocol.name': 'smtp' }, () => transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, messageId: message.messageId }))
    },
  }
}

/**
 * Keeps the mail in the database instead of sending it. The log line names the recipient and the
 * outbox row, never the text: it carries one-time tokens.
 */
export function createOutboxMailer ({ store, log }: {
  store: (message: MailMessage) => Promise<number>
  log: (fields: Record<string, unknown>, msg: string) => void
}): Mailer {
  return {
    keepsOnly: true,
    send: async (message) => {
      const id = await store(message)
      log({ outbox_id: id, to: message.to, subject: message.subject }, 'mail kept in mail_outbox (SMTP_URL is not set)')
    },
  }
}
