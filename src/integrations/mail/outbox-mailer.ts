import type { MailMessage, Mailer } from './types.js'

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
