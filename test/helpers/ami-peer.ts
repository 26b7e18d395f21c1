import { once } from 'node:events'
import { createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

// A fake Asterisk 22 on 127.0.0.1 speaking AMI byte for byte as the transcripts in
// shared/data/asterisk-ami show it (banner, CRLF lines, blank-line terminators, Output lines,
// EventList lists, the bare LF after "No endpoints found").

export interface PeerContact { endpoint: string, uri: string, userAgent: string, status: string, roundtripUsec: string }
export type PeerMode = 'normal' | 'silent' | 'drop'

const CRLF = '\r\n'
const message = (lines: string[]) => `${lines.join(CRLF)}${CRLF}${CRLF}`

export async function startAmiPeer (options: { username?: string, secret?: string } = {}) {
  const username = options.username ?? 'appeals'
  const secret = options.secret ?? 'ami-secret'
  const state = { mode: 'normal' as PeerMode, endpoints: [] as string[], contacts: [] as PeerContact[], received: [] as Record<string, string>[], connections: 0 }
  const sockets = new Set<Socket>()

  const respond = (socket: Socket, a: Record<string, string>): void => {
    const id = a.ActionID ?? ''
    const write = (text: string) => socket.write(text)
    switch (a.Action) {
      case 'Login':
        if (a.Username === username && a.Secret === secret) write(message(['Response: Success', `ActionID: ${id}`, 'Message: Authentication accepted']))
        else write(message(['Response: Error', `ActionID: ${id}`, 'Message: Authentication failed']))
        return
      case 'CoreStatus':
        write(message(['Response: Success', `ActionID: ${id}`, 'CoreStartupDate: 2026-11-21', 'CoreStartupTime: 23:08:02', 'CoreReloadDate: 2026-11-21', 'CoreReloadTime: 23:08:02', 'CoreCurrentCalls: 2', 'CoreProcessedCalls: 17']))
        return
      case 'CoreSettings':
        write(message(['Response: Success', `ActionID: ${id}`, 'AMIversion: 11.0.0', 'AsteriskVersion: 22.10.1', 'SystemName: asterisk-lab', 'CoreMaxCalls: 0']))
        return
      case 'Command': {
        const outputs: Record<string, string[]> = {
          'module reload res_pjsip.so': ["Module 'res_pjsip.so' reloaded successfully."],
          'dialplan reload': ['Dialplan reloaded.'],
          'queue reload all': [''],
          'core show uptime seconds': ['System uptime: 3600', 'Last reload: 120'],
        }
        const output = outputs[a.Command ?? '']
        if (!output) { write(message(['Response: Error', `ActionID: ${id}`, 'Message: Command output follows', 'Output: No such command'])); return }
        // an unrelated event interleaved before the answer, as a busy Asterisk would
        write(message(['Event: PeerStatus', 'Privilege: system,all', 'ChannelType: PJSIP', 'Peer: PJSIP/999999', 'PeerStatus: Unreachable']))
        write(message(['Response: Success', `ActionID: ${id}`, 'Message: Command output follows', ...output.map((o) => `Output: ${o}`)]))
        return
      }
      case 'PJSIPShowEndpoints':
        if (state.endpoints.length === 0) { write(`Response: Error${CRLF}ActionID: ${id}${CRLF}Message: No endpoints found\n${CRLF}${CRLF}`); return }
        write(message(['Response: Success', `ActionID: ${id}`, 'EventList: start', 'Message: A listing of Endpoints follows, presented as EndpointList events']))
        for (const e of state.endpoints) {
          const registered = state.contacts.some((c) => c.endpoint === e)
          write(message(['Event: EndpointList', `ActionID: ${id}`, 'ObjectType: endpoint', `ObjectName: ${e}`, 'Transport: transport-udp', `Aor: ${e}`, `Auths: ${e}`, 'OutboundAuths: ', `Contacts: ${registered ? `${e}/sip:${e}@127.0.0.1:5070,` : ''}`, `DeviceState: ${registered ? 'Not in use' : 'Unavailable'}`, 'ActiveChannels: 0']))
        }
        write(message(['Event: EndpointListComplete', `ActionID: ${id}`, 'EventList: Complete', `ListItems: ${state.endpoints.length}`]))
        return
      case 'PJSIPShowContacts':
        if (state.contacts.length === 0) { write(`Response: Error${CRLF}ActionID: ${id}${CRLF}Message: No Contacts found\n${CRLF}${CRLF}`); return }
        write(message(['Response: Success', `ActionID: ${id}`, 'EventList: start', 'Message: A listing of Contacts follows, presented as ContactList events']))
        for (const c of state.contacts) {
          write(message(['Event: ContactList', `ActionID: ${id}`, 'ObjectType: contact', `ObjectName: ${c.endpoint};@c5dc8fdb31e19059b17603ef6f314acc`, 'ViaAddr: 127.0.0.1',
            `Endpoint: ${c.endpoint}`, `Uri: ${c.uri}`, `UserAgent: ${c.userAgent}`, `Status: ${c.status}`, `RoundtripUsec: ${c.roundtripUsec}`]))
        }
        write(message(['Event: ContactListComplete', `ActionID: ${id}`, 'EventList: Complete', `ListItems: ${state.contacts.length}`]))
        return
      case 'Logoff':
        write(message(['Response: Goodbye', `ActionID: ${id}`, 'Message: Thanks for all the fish.']))
        socket.end()
        return
      default:
        write(message(['Response: Error', `ActionID: ${id}`, 'Message: Invalid/unknown command']))
    }
  }

  const server = createServer((socket) => {
    state.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.write(`Asterisk Call Manager/11.0.0${CRLF}`)
    let buffer = ''
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      for (let end = buffer.indexOf(`${CRLF}${CRLF}`); end >= 0; end = buffer.indexOf(`${CRLF}${CRLF}`)) {
        const action = Object.fromEntries(buffer.slice(0, end).split(CRLF).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]))
        buffer = buffer.slice(end + 4)
        state.received.push(action)
        if (state.mode === 'silent') continue
        if (state.mode === 'drop' && action.Action !== 'Login') { socket.destroy(); return }
        respond(socket, action)
      }
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as AddressInfo).port,
    username,
    secret,
    state,
    close: async () => { for (const s of sockets) s.destroy(); server.close(); await once(server, 'close').catch(() => {}) },
  }
}
