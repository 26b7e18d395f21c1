import nodemailer from 'nodemailer'
import { traced } from '../../lib/tracing.js'
import type { Mailer } from './types.js'

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
