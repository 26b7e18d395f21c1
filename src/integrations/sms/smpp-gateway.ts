import smpp, { type PDU, type Session } from 'smpp'
import type { SmsGateway, SmsMessage } from './types.js'
import { traced } from '../../lib/tracing.js'

export interface SmppOptions {
  /** `smpp://system_id:password@host:2775` */
  url: string
  /** the sender: a short number or an alphanumeric name */
  source: string
  timeoutMs: number
}

/** GSM 03.38's basic characters in one octet each; anything else travels as UCS-2 */
const GSM_TEXT = /^[\n\r !"#$%&'()*+,\-./0-9:;<=>?@A-Z_a-z£¥èéùìòÇØøÅåΔΦΓΛΩΠΨΣΘΞÆæßÉ¡ÄÖÑÜ§¿äöñüà]*$/
/** one SMS carries 140 octets; a longer text goes in the message_payload parameter */
const SHORT_MESSAGE_OCTETS = 140

const statusNames = new Map(Object.entries(smpp.errors).map(([name, code]) => [code, name]))

export class SmppError extends Error {
  constructor (message: string, readonly status?: number) { super(message); this.name = 'SmppError' }
}

function addressOf (source: string) {
  // a short number is a national number; a name is alphanumeric (TON 5)
  return /^\d+$/.test(source) ? { source_addr: source, source_addr_ton: 0, source_addr_npi: 1 } : { source_addr: source.slice(0, 11), source_addr_ton: 5, source_addr_npi: 0 }
}

/**
 * An ESME (transmitter) of SMPP 3.4: one session bound on first use and kept, answered enquire_links,
 * rebound after the centre closes it; every operation bounded by `timeoutMs`.
 */
export function createSmppGateway (options: SmppOptions): SmsGateway {
  const url = new URL(options.url)
  const credentials = { system_id: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
  const endpoint = { host: url.hostname, port: url.port ? Number(url.port) : 2775 }
  let bound: Promise<Session> | undefined

  const within = <T>(what: string, work: (done: (value: T) => void, fail: (err: Error) => void) => void) => new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SmppError(`SMPP ${what} timed out after ${options.timeoutMs} ms`)), options.timeoutMs)
    work((v) => { clearTimeout(timer); resolve(v) }, (e) => { clearTimeout(timer); reject(e) })
  })

  function open (): Promise<Session> {
    const session = smpp.connect(endpoint)
    // a session's end forgets only itself: a stale one closing late leaves the newer binding alone
    const forget = () => { if (bound === attempt) bound = undefined }
    session.on('close', forget)
    session.on('error', forget)
    // the centre checks the link; an ESME must answer
    session.on('enquire_link', (pdu: PDU) => { session.send(pdu.response()) })
    session.on('unbind', (pdu: PDU) => { session.send(pdu.response()); session.close() })
    const attempt = within<Session>('bind', (done, fail) => {
      session.once('error', (err: Error) => fail(new SmppError(`SMPP connection to ${endpoint.host}:${endpoint.port} failed: ${err.message}`)))
      session.once('close', () => fail(new SmppError('The SMS centre closed the connection while binding')))
      session.on('connect', () => {
        session.bind_transmitter({ ...credentials, interface_version: 0x34 }, (pdu) => {
          if (pdu.command_status === 0) done(session)
          else fail(new SmppError(`The SMS centre refused the bind: ${statusNames.get(pdu.command_status) ?? pdu.command_status}`, pdu.command_status))
        })
      })
    }).catch((err: unknown) => { session.destroy(); throw err })
    return attempt
  }

  function session (): Promise<Session> {
    bound ??= open()
    const mine = bound
    mine.catch(() => { if (bound === mine) bound = undefined })
    return mine
  }

  return {
    send: (message: SmsMessage): Promise<string> => traced('smpp submit_sm', { 'network.protocol.name': 'smpp' }, async () => {
      const pending = session()
      const s = await pending
      const text = message.text
      const octets = GSM_TEXT.test(text) ? text.length : text.length * 2
      const body = octets <= SHORT_MESSAGE_OCTETS ? { short_message: text } : { message_payload: text }
      return within<string>('submit_sm', (done, fail) => {
        s.submit_sm({
          ...addressOf(options.source),
          destination_addr: message.to.replace(/^\+/, ''),
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          registered_delivery: 0,
          ...body,
        }, (pdu) => {
          if (pdu.command_status === 0) done(String(pdu.message_id ?? ''))
          else fail(new SmppError(`The SMS centre refused the message: ${statusNames.get(pdu.command_status) ?? pdu.command_status}`, pdu.command_status))
        })
      }).catch((err: unknown) => {
        // a session that timed out may be wedged: the next send binds afresh
        if (err instanceof SmppError && err.status === undefined) { s.destroy(); if (bound === pending) bound = undefined }
        throw err
      })
    }),

    async close () {
      const pending = bound
      bound = undefined
      if (!pending) return
      const s = await pending.catch(() => undefined)
      if (!s) return
      await within<void>('unbind', (done) => {
        s.unbind(() => { s.close(); done() })
        s.once('close', () => done())
      }).catch(() => { s.destroy() })
    },
  }
}
