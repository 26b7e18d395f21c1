import { once } from 'node:events'
import { createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { delivered, eventClasses, readRecording, recordedAnswer, replayedEvents, withValues } from './ami-recording.js'

// A fake Asterisk 22 on 127.0.0.1 speaking AMI byte for byte as the transcripts in
// shared/data/asterisk-ami show it (banner, CRLF lines, blank-line terminators, Output lines,
// EventList lists, the bare LF after "No endpoints found").

export interface PeerContact { endpoint: string, uri: string, userAgent: string, status: string, roundtripUsec: string }
/** a queue member as Asterisk knows it: the peer answers QueueStatus and QueuePause with them */
export interface PeerMember { queue: string, name: string, interface: string, paused: boolean, reason: string, lastPause: number, inCall?: boolean }
/** a caller waiting in a queue: the peer's QueueStatus lists them (QueueEntry), in order */
export interface PeerCaller { queue: string, uniqueid: string, callerNumber: string, wait: number }

// the real Asterisk's answers to QueueStatus and QueuePause (queue-pause.txt), its values replaced by the peer's
const queuePause = readRecording('queue-pause.txt')
const recorded = {
  status: recordedAnswer(queuePause, { Action: 'QueueStatus', ActionID: 'probe-1' }),
  entry: recordedAnswer(queuePause, { Action: 'QueueStatus', ActionID: 'probe-6' }).find((m) => m[0] === 'Event: QueueEntry')!,
  paused: recordedAnswer(queuePause, { Action: 'QueuePause', Interface: 'PJSIP/101001', Paused: 'true' })[0]!,
  unpaused: recordedAnswer(queuePause, { Action: 'QueuePause', Paused: 'false' })[0]!,
  notFound: recordedAnswer(queuePause, { Action: 'QueuePause', Interface: 'PJSIP/999999' })[0]!,
  incomplete: recordedAnswer(queuePause, { Action: 'QueuePause', ActionID: 'probe-18' })[0]!,
  // a trunk's registration as Asterisk lists it, with its outbound auth (trunks.txt)
  registrations: recordedAnswer(readRecording('trunks.txt'), { Action: 'PJSIPShowRegistrationsOutbound' }),
  // a caller in the language menu, as Asterisk listed it (core-show-channels.txt)
  channels: recordedAnswer(readRecording('core-show-channels.txt'), { Action: 'CoreShowChannels' }),
  // a terminal's endpoint with its phone registered, and an endpoint Asterisk has not (placed-call.txt)
  // (the recorder asked before its login was answered: the answer's own messages are those naming its ActionID)
  endpoint: recordedAnswer(readRecording('placed-call.txt'), { Action: 'PJSIPShowEndpoint', ActionID: 'placed-1' }).filter((m) => m.includes('ActionID: placed-1')),
  noEndpoint: recordedAnswer(readRecording('placed-call.txt'), { Action: 'PJSIPShowEndpoint', ActionID: 'placed-3' }).find((m) => m.includes('ActionID: placed-3'))!,
}

/** a channel up on the PBX: the peer's CoreShowChannels lists these, and one for each caller waiting in a queue */
/** a channel up besides the callers waiting; `channel`: its name (else `PJSIP/trunk-<uniqueid>`, a caller's) */
export interface PeerChannel { uniqueid: string, linkedid: string, context: string, application: string, channel?: string, bridge?: string }
export type PeerMode = 'normal' | 'silent' | 'drop'
/** an outbound registration (a trunk's) and what Asterisk says of it */
export interface PeerRegistration { name: string, status: 'Registered' | 'Unregistered' | 'Rejected', serverUri: string }

/** a repeatable sequence in [0, 1) (mulberry32): a failing cut can be replayed from its seed */
export function seededRandom (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CRLF = '\r\n'
const message = (lines: string[]) => `${lines.join(CRLF)}${CRLF}${CRLF}`

export async function startAmiPeer (options: { username?: string, secret?: string, read?: string } = {}) {
  const username = options.username ?? 'appeals'
  const secret = options.secret ?? 'ami-secret'
  /** the AMI user's `read` in manager.conf: what docs/deployment.md tells a deployment to grant */
  const read = eventClasses(options.read ?? 'system,call,agent,user,reporting')
  const state = { mode: 'normal' as PeerMode, endpoints: [] as string[], contacts: [] as PeerContact[], members: [] as PeerMember[], callers: [] as PeerCaller[], startup: '2026-11-21 23:08:02', received: [] as Record<string, string>[], connections: 0,
    /** an action's answer held this long, by its Command (or Action): as Asterisk, a session's later actions wait behind it */
    delays: {} as Record<string, number>,
    /** an action done at once, its answer on the way this long (a slow network back: the session's later actions are not held) */
    answerLatency: {} as Record<string, number>,
    /** QueueStatus answered this much later (a large PBX's status, read while events go on) */
    statusDelayMs: 0,
    /** channels up besides the callers waiting (in a menu, an announcement) */
    channels: [] as PeerChannel[],
    /** the transfer actions it refuses as Asterisk does a transfer a bridge forbids ("Transfer not permitted") */
    refusing: [] as string[],
    registrations: [] as PeerRegistration[],
    /** Asterisk's database (AstDB): `<family>/<key>` to its value */
    db: new Map<string, string>(),
    /** what Asterisk would have logged as WARNINGs of its database (a key deleted that was not there) */
    dbWarnings: [] as string[],
    /** told each action as it arrives (a benchmark times them) */
    onAction: undefined as ((action: Record<string, string>, at: number) => void) | undefined }
  const sockets = new Set<Socket>()
  /** the connections that logged in asking for events, and the classes they asked for */
  const streams = new Map<Socket, Set<string>>()

  const respond = (socket: Socket, a: Record<string, string>): void => {
    const id = a.ActionID ?? ''
    const latency = state.answerLatency[a.Action ?? '']
    const write = (text: string) => { if (latency) setTimeout(() => { if (!socket.destroyed) socket.write(text) }, latency); else socket.write(text) }
    switch (a.Action) {
      case 'Login':
        if (a.Username === username && a.Secret === secret) {
          write(message(['Response: Success', `ActionID: ${id}`, 'Message: Authentication accepted']))
          // a Login without Events gets them all, as Asterisk's does
          const classes = eventClasses(a.Events ?? 'on')
          if (classes.size > 0) streams.set(socket, classes)
        } else write(message(['Response: Error', `ActionID: ${id}`, 'Message: Authentication failed']))
        return
      case 'CoreStatus':
        write(message(['Response: Success', `ActionID: ${id}`, `CoreStartupDate: ${state.startup.split(' ')[0]}`, `CoreStartupTime: ${state.startup.split(' ')[1]}`, 'CoreReloadDate: 2026-11-21', 'CoreReloadTime: 23:08:02', 'CoreCurrentCalls: 2', 'CoreProcessedCalls: 17']))
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
      // main/db.c's answers
      case 'DBPut':
        state.db.set(`${a.Family}/${a.Key}`, a.Val ?? '')
        write(message(['Response: Success', `ActionID: ${id}`, 'Message: Updated database successfully']))
        return
      case 'DBDel':
        if (state.db.delete(`${a.Family}/${a.Key}`)) write(message(['Response: Success', `ActionID: ${id}`, 'Message: Key deleted successfully']))
        else {
          // Asterisk logs it: WARNING[..]: db.c: AstDB key /<family>/<key> does not exist
          state.dbWarnings.push(`AstDB key /${a.Family}/${a.Key} does not exist`)
          write(message(['Response: Error', `ActionID: ${id}`, 'Message: Database entry could not be deleted']))
        }
        return
      case 'DBGetTree': {
        const prefix = a.Family ? `${a.Family}/${a.Key ? `${a.Key}` : ''}` : ''
        const entries = [...state.db].filter(([key]) => key.startsWith(prefix))
        write(message(['Response: Success', `ActionID: ${id}`, 'EventList: start', 'Message: Result will follow']))
        for (const [key, value] of entries) write(message(['Event: DBGetTreeResponse', `Key: /${key}`, `Val: ${value}`, `ActionID: ${id}`]))
        write(message(['Event: DBGetTreeComplete', `ActionID: ${id}`, 'EventList: Complete', `ListItems: ${entries.length}`]))
        return
      }
      case 'PJSIPShowRegistrationsOutbound': {
        // the listack, each registration's detail then its auth's (whose digests Asterisk sends too), the completion with the counts
        const byEvent = (name: string) => recorded.registrations.find((m) => m.includes(`Event: ${name}`))!
        write(withValues(recorded.registrations[0]!, { ActionID: id }))
        for (const r of state.registrations) {
          write(withValues(byEvent('OutboundRegistrationDetail'), { ActionID: id, ObjectName: r.name, Endpoint: r.name, OutboundAuth: r.name, Status: r.status, ServerUri: r.serverUri, NextReg: r.status === 'Registered' ? '540' : '0' }))
          write(withValues(byEvent('AuthDetail'), { ActionID: id, ObjectName: r.name }))
        }
        const registered = state.registrations.filter((r) => r.status === 'Registered').length
        write(withValues(byEvent('OutboundRegistrationDetailComplete'), { ActionID: id, ListItems: String(state.registrations.length), Registered: String(registered), NotRegistered: String(state.registrations.length - registered) }))
        return
      }
      case 'PJSIPShowEndpoint': {
        if (!state.endpoints.includes(a.Endpoint ?? '')) { write(withValues(recorded.noEndpoint, { ActionID: id, Message: `Unable to retrieve endpoint ${a.Endpoint}` })); return }
        const registered = state.contacts.some((c) => c.endpoint === a.Endpoint)
        // the recorded endpoint's detail, aor, auth, contact and transport: its name and device state the peer's
        const listed = recorded.endpoint.filter((m) => registered || !m.includes('Event: ContactStatusDetail'))
        for (const m of listed) {
          write(withValues(m, { ActionID: id, ObjectName: a.Endpoint!, Endpoint: a.Endpoint!, ListItems: String(listed.length - 2), ...(m.includes('Event: EndpointDetail') ? { DeviceState: registered ? 'Not in use' : 'Unavailable' } : {}) }))
        }
        return
      }
      case 'Originate':
        // main/manager.c's answer to an Async Originate; what becomes of the call comes as events (the test replays them)
        write(message(['Response: Success', `ActionID: ${id}`, 'Message: Originate successfully queued']))
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
      case 'QueueStatus': {
        const [response, params, member, complete] = [recorded.status[0]!, recorded.status[1]!, recorded.status[2]!, recorded.status.at(-1)!]
        const members = state.members.filter((m) => (!a.Queue || m.queue === a.Queue) && (!a.Member || m.interface === a.Member || m.name === a.Member))
        // a Member filter lists no callers
        const callers = a.Member ? [] : state.callers.filter((c) => !a.Queue || c.queue === a.Queue)
        const queues = [...new Set([...members.map((m) => m.queue), ...callers.map((c) => c.queue)])]
        write(withValues(response, { ActionID: id }))
        for (const queue of queues) write(withValues(params, { Queue: queue, Calls: String(callers.filter((c) => c.queue === queue).length), ActionID: id }))
        for (const m of members) {
          write(withValues(member, {
            Queue: m.queue, Name: m.name, Location: m.interface, StateInterface: m.interface, LastPause: String(m.lastPause), Paused: m.paused ? '1' : '0', PausedReason: m.reason,
            InCall: m.inCall ? '1' : '0', ...(m.inCall ? { Status: '2' } : {}), ActionID: id,
          }))
        }
        for (const queue of queues) {
          callers.filter((c) => c.queue === queue).forEach((c, i) => {
            write(withValues(recorded.entry, { Queue: c.queue, Position: String(i + 1), Channel: `PJSIP/citizen-${c.uniqueid}`, Uniqueid: c.uniqueid, CallerIDNum: c.callerNumber, Wait: String(c.wait), ActionID: id }))
          })
        }
        write(withValues(complete, { ActionID: id, ListItems: String(queues.length + members.length + callers.length) }))
        return
      }
      case 'CoreShowChannels': {
        const [response, channel, complete] = [recorded.channels[0]!, recorded.channels[1]!, recorded.channels.at(-1)!]
        const channels = [...state.channels, ...state.callers.map((c) => ({ uniqueid: c.uniqueid, linkedid: c.uniqueid, context: 'appeals-queue', application: 'Queue' }))]
        write(withValues(response, { ActionID: id }))
        for (const c of channels) {
          write(withValues(channel, { ActionID: id, Channel: (c as PeerChannel).channel ?? `PJSIP/trunk-${c.uniqueid}`, Uniqueid: c.uniqueid, Linkedid: c.linkedid, Context: c.context, Application: c.application, BridgeId: (c as PeerChannel).bridge ?? '' }))
        }
        write(withValues(complete, { ActionID: id, ListItems: String(channels.length) }))
        return
      }
      case 'QueuePause': {
        if (!a.Interface || !a.Paused) { write(withValues(recorded.incomplete, { ActionID: id })); return }
        const members = state.members.filter((m) => m.interface === a.Interface && (!a.Queue || m.queue === a.Queue))
        if (members.length === 0) { write(withValues(recorded.notFound, { ActionID: id })); return }
        const paused = a.Paused === 'true'
        for (const m of members) Object.assign(m, { paused, reason: paused ? a.Reason ?? '' : '', lastPause: paused ? Math.floor(Date.now() / 1000) : m.lastPause })
        write(withValues(paused ? recorded.paused : recorded.unpaused, { ActionID: id }))
        return
      }
      // the transfers, answered as Asterisk 22.10.1's manager.c answers them
      case 'BlindTransfer':
      case 'Atxfer':
      case 'CancelAtxfer':
      case 'Hangup': {
        if (state.refusing.includes(a.Action)) { write(message(['Response: Error', `ActionID: ${id}`, 'Message: Transfer not permitted'])); return }
        const known = state.channels.some((c) => (c as PeerChannel).channel === a.Channel)
        const said = { BlindTransfer: 'Transfer succeeded', Atxfer: 'Atxfer successfully queued', CancelAtxfer: 'CancelAtxfer successfully queued', Hangup: 'Channel Hungup' }[a.Action]
        write(message(known ? ['Response: Success', `ActionID: ${id}`, `Message: ${said}`] : ['Response: Error', `ActionID: ${id}`, `Message: ${a.Action === 'Hangup' ? 'No such channel' : 'Channel specified does not exist'}`]))
        return
      }
      // as manager.c answers a variable, and app_senddtmf.c a digit (queued whether or not a feature awaits it)
      case 'Getvar': {
        const known = state.channels.some((c) => c.channel === a.Channel)
        write(message(known ? ['Response: Success', `ActionID: ${id}`, `Variable: ${a.Variable ?? ''}`, `Value: ${a.Variable === 'FEATURE(atxferthreeway)' ? '*3' : ''}`] : ['Response: Error', `ActionID: ${id}`, 'Message: No such channel']))
        return
      }
      case 'Setvar': {
        const known = state.channels.some((c) => c.channel === a.Channel)
        write(message(known ? ['Response: Success', `ActionID: ${id}`, 'Message: Variable Set'] : ['Response: Error', `ActionID: ${id}`, 'Message: Channel not found']))
        return
      }
      case 'PlayDTMF': {
        const known = state.channels.some((c) => c.channel === a.Channel)
        write(message(known ? ['Response: Success', `ActionID: ${id}`, 'Message: DTMF successfully queued'] : ['Response: Error', `ActionID: ${id}`, 'Message: Channel not found']))
        return
      }
      case 'Ping':
        write(message(['Response: Success', `ActionID: ${id}`, 'Ping: Pong', `Timestamp: ${(Date.now() / 1000).toFixed(6)}`]))
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
    socket.setNoDelay(true)
    sockets.add(socket)
    socket.on('close', () => { sockets.delete(socket); streams.delete(socket) })
    socket.on('error', () => {})
    socket.write(`Asterisk Call Manager/11.0.0${CRLF}`)
    let buffer = ''
    /** Asterisk answers one session's actions in turn */
    let turn: Promise<void> = Promise.resolve()
    const answer = (action: Record<string, string>) => {
      const delay = state.delays[action.Command ?? action.Action ?? ''] ?? (action.Action === 'QueueStatus' ? state.statusDelayMs : 0)
      turn = turn.then(() => new Promise((resolve) => setTimeout(() => { if (!socket.destroyed) respond(socket, action); resolve() }, delay)))
    }
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      for (let end = buffer.indexOf(`${CRLF}${CRLF}`); end >= 0; end = buffer.indexOf(`${CRLF}${CRLF}`)) {
        const action = Object.fromEntries(buffer.slice(0, end).split(CRLF).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]))
        buffer = buffer.slice(end + 4)
        state.received.push(action)
        state.onAction?.(action, performance.now())
        if (state.mode === 'silent') continue
        if (state.mode === 'drop' && action.Action !== 'Login') { socket.destroy(); return }
        answer(action)
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
    /** the service's AMI settings for this peer (AMI_TIMEOUT 2 s unless `overrides` say otherwise) */
    env: (overrides: Record<string, string> = {}): Record<string, string> => ({
      AMI_HOST: '127.0.0.1', AMI_PORT: String((server.address() as AddressInfo).port), AMI_USERNAME: username, AMI_SECRET: secret, AMI_TIMEOUT: '2s', ...overrides,
    }),
    /** connections streaming events now */
    streaming: () => streams.size,
    /**
     * Sends the calls of a recording (its session that logged in with every event, `Events: on`) to
     * every connection streaming events, as Asterisk sent them: every field, in order, each event only
     * to the connections whose classes take it; `from`/`to` pick a part (by index), `rewrite` changes
     * fields (another call's ids, another member) keeping their order.
     */
    replay: (recording: string, { from = 0, to = Infinity, rewrite }: { from?: number, to?: number, rewrite?: (m: Record<string, string>) => Record<string, string | undefined> } = {}) => {
      const events = replayedEvents(recording).slice(from, to).map((e) => rewrite ? { ...e, message: rewrite(e.message) } : e)
      for (const [socket, classes] of streams) {
        for (const e of events) if (delivered(e.message, classes, read)) socket.write(message(Object.entries(e.message).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}`)))
      }
      return events.length
    },
    /**
     * As `replay`, each message written in two TCP segments a moment apart, cut inside its first
     * character of more than one byte in UTF-8 (else in its middle): what a busy network does to a
     * Cyrillic caller name or member name.
     */
    replaySplit: async (recording: string, rewrite?: (m: Record<string, string>) => Record<string, string | undefined>) => {
      const events = replayedEvents(recording).map((e) => rewrite ? rewrite(e.message) : e.message)
      for (const e of events) {
        const bytes = Buffer.from(message(Object.entries(e).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}`)), 'utf8')
        const wide = bytes.findIndex((b) => b >= 0xc0)
        const cut = wide >= 0 ? wide + 1 : bytes.length >> 1
        for (const [socket, classes] of streams) {
          if (!delivered(e, classes, read)) continue
          socket.write(bytes.subarray(0, cut))
        }
        await new Promise((resolve) => setTimeout(resolve, 15))
        for (const [socket, classes] of streams) if (delivered(e, classes, read)) socket.write(bytes.subarray(cut))
      }
      return events.length
    },
    /**
     * As `replay`, the whole stream cut at random byte offsets (pieces of 1 to 200 bytes, a seeded
     * choice, written a moment apart): inside a field, a line end, a character, the blank line.
     */
    replayInPieces: async (recording: string, seed: number, rewrite?: (m: Record<string, string>) => Record<string, string | undefined>) => {
      const events = replayedEvents(recording).map((e) => rewrite ? rewrite(e.message) : e.message)
      const random = seededRandom(seed)
      for (const [socket, classes] of streams) {
        const bytes = Buffer.from(events.filter((e) => delivered(e, classes, read)).map((e) => message(Object.entries(e).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}`))).join(''), 'utf8')
        for (let at = 0; at < bytes.length;) {
          const next = Math.min(bytes.length, at + 1 + Math.floor(random() * 200))
          socket.write(bytes.subarray(at, next))
          at = next
          await new Promise((resolve) => setImmediate(resolve))
        }
      }
      return events.length
    },
    /** one event, as given, to every connection whose classes take it */
    sendEvent: (fields: Record<string, string>) => {
      for (const [socket, classes] of streams) if (delivered(fields, classes, read)) socket.write(message(Object.entries(fields).map(([k, v]) => `${k}: ${v}`)))
    },
    /** drops the connections streaming events, as a restarting Asterisk or a network cut would */
    dropStreams: () => {
      for (const socket of streams.keys()) socket.destroy()
      streams.clear()
    },
    close: async () => { for (const s of sockets) s.destroy(); server.close(); await once(server, 'close').catch(() => {}) },
  }
}
