import nodemailer from 'nodemailer'
import { traced } from '../../lib/tracing.js'
import type { MailMessage, Mailer } from './types.js'
export type { MailMessage, Mailer } from './types.js'

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
