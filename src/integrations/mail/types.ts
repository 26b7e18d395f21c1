// What a mailer is: the implementations in index.ts and the outbox's repository.

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
