// Mail: sent by SMTP, or kept in the outbox when the deployment has no SMTP server.
export type { MailMessage, Mailer } from './types.js'
export { createSmtpMailer } from './smtp-mailer.js'
export { createOutboxMailer } from './outbox-mailer.js'
