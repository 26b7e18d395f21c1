import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import smpp, { type PDU, type Session } from 'smpp'

export interface ReceivedSms { to: string, from: string, text: string, dataCoding: number, viaPayload: boolean }

/** how the SMS centre answers a submit_sm: takes it, refuses it with a status, or never answers */
export type SmscMode = 'accept' | 'refuse' | 'silent'

const textOf = (field: unknown) => typeof field === 'object' && field !== null && 'message' in field ? String((field as { message: unknown }).message) : ''

/**
 * A real SMPP 3.4 server (an SMS centre) on 127.0.0.1, speaking the wire protocol through the `smpp`
 * package's server side: checks the bind's credentials, keeps what it receives, and can refuse or
 * ignore messages to play a failing peer.
 */
export async function startSmppServer (credentials = { system_id: 'centre109', password: 'secret12' }) {
  const received: ReceivedSms[] = []
  const sessions = new Set<Session>()
  let mode: SmscMode = 'accept'
  let nextId = 1000
  let binds = 0
  const server = smpp.createServer({}, (session: Session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
    session.on('error', () => sessions.delete(session))
    session.on('bind_transmitter', (pdu: PDU) => {
      const ok = pdu.system_id === credentials.system_id && pdu.password === credentials.password
      if (ok) binds++
      session.send(pdu.response({ command_status: ok ? smpp.ESME_ROK : smpp.ESME_RBINDFAIL }))
      if (!ok) session.close()
    })
    session.on('enquire_link', (pdu: PDU) => { session.send(pdu.response()) })
    session.on('unbind', (pdu: PDU) => { session.send(pdu.response()); session.close() })
    session.on('submit_sm', (pdu: PDU) => {
      if (mode === 'silent') return
      if (mode === 'refuse') { session.send(pdu.response({ command_status: smpp.ESME_RSYSERR })); return }
      const viaPayload = pdu.message_payload !== undefined
      received.push({
        to: String(pdu.destination_addr), from: String(pdu.source_addr), dataCoding: Number(pdu.data_coding), viaPayload,
        text: textOf(viaPayload ? pdu.message_payload : pdu.short_message),
      })
      session.send(pdu.response({ message_id: String(nextId++) }))
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `smpp://${credentials.system_id}:${credentials.password}@127.0.0.1:${port}`,
    port,
    received,
    get binds () { return binds },
    setMode (m: SmscMode) { mode = m },
    /** drops every connection, as a restarting SMS centre does */
    dropSessions () { for (const s of sessions) s.destroy() },
    async close () {
      for (const s of sessions) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
