import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail { from: string, to: string[], subject: string, text: string }

function decodeBody (raw: string): { subject: string, text: string } {
  const split = raw.indexOf('\r\n\r\n')
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const body = raw.slice(split + 4)
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headerText)?.[1]?.trim() ?? ''
  const subject = header('Subject').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')))
  const encoding = header('Content-Transfer-Encoding').toLowerCase()
  const text = encoding === 'base64'
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body
  return { subject, text }
}

function decodeQuotedPrintable (s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`)
  try { return decodeURIComponent(bytes) } catch { return bytes }
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
export async function startSmtpServer () {
  const received: ReceivedMail[] = []
  const waiters: (() => void)[] = []
  /** while set, every recipient is refused with a temporary failure (a mail server that is in trouble) */
  let refusing = false
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo (_address, _session, callback) {
      if (!refusing) { callback(); return }
      callback(Object.assign(new Error('Mailbox temporarily unavailable, try again later'), { responseCode: 451 }))
    },
    onData (stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const { subject, text } = decodeBody(Buffer.concat(chunks).toString('utf8'))
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), subject, text })
        waiters.splice(0).forEach((w) => w())
        callback()
      })
    },
  })
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** the next mail to this address, whose subject has `about` when given (waits for it) */
    async next (to: string, timeoutMs = 5000, about = ''): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const mail = received.find((m) => m.to.includes(to) && m.subject.includes(about))
        if (mail) {
          received.splice(received.indexOf(mail), 1)
          return mail
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to}`)
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 100) })
      }
    },
    refuse (on: boolean) { refusing = on },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export const tokenFromMail = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1]
