import { readFileSync } from 'node:fs'

// The byte-exact transcripts of a real Asterisk 22.10.1 (test/fixtures/asterisk-ami, copied from the
// recordings this project was given): what was sent, and the messages Asterisk answered, as the wire
// carried them. The AMI test peer answers with these messages, its own values put in their fields.

const CRLF = '\r\n'

export interface Exchange {
  /** the action sent (its fields), or undefined for what Asterisk sent unasked */
  sent?: Record<string, string>
  /** the messages received after it, each as its lines (without the blank line that ends it) */
  received: string[][]
}

export function readRecording (name: string): Exchange[] {
  const text = readFileSync(new URL(`../fixtures/asterisk-ami/${name}`, import.meta.url), 'latin1')
  const exchanges: Exchange[] = []
  let current: Exchange | undefined
  let mode: 'sent' | 'received' | undefined
  let block: string[] = []
  const flush = () => {
    if (block.length === 0 || !current) { block = []; return }
    if (mode === 'sent') current.sent = Object.fromEntries(block.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]))
    else if (mode === 'received') current.received.push(block)
    block = []
  }
  for (const raw of text.split('\n')) {
    if (raw.startsWith('#####')) {
      flush()
      if (raw.includes('>>> SENT')) { current = { received: [] }; exchanges.push(current); mode = 'sent' } else if (raw.includes('<<< RECEIVED')) {
        if (!current || mode === undefined) { current = { received: [] }; exchanges.push(current) }
        mode = 'received'
      } else mode = undefined
      continue
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line === '') flush()
    else block.push(line)
  }
  flush()
  return exchanges
}

/** the first answer Asterisk gave to an action matching `sent` (every field given must be equal) */
export function recordedAnswer (exchanges: Exchange[], sent: Record<string, string>): string[][] {
  const found = exchanges.find((e) => e.sent && Object.entries(sent).every(([k, v]) => e.sent![k] === v))
  if (!found) throw new Error(`no recorded answer to ${JSON.stringify(sent)}`)
  return found.received
}

/** a recorded message with some of its fields given other values; every other line, and the order, as recorded */
export function withValues (message: string[], values: Record<string, string>): string {
  return `${message.map((line) => {
    const key = line.slice(0, line.indexOf(':'))
    return key in values ? `${key}: ${values[key]}` : line
  }).join(CRLF)}${CRLF}${CRLF}`
}

/** an event Asterisk sent unasked, with when it arrived: seconds since the session's connection opened */
export interface RecordedEvent { at: number, message: Record<string, string> }

/**
 * The events of one session of a recording (the queue recordings hold two: the first logged in with
 * `Events: on`, the second with `Events: call,agent`, which is what the service asks for), in order.
 */
export function recordedEvents (name: string, session: number): RecordedEvent[] {
  const text = readFileSync(new URL(`../fixtures/asterisk-ami/${name}`, import.meta.url), 'latin1')
  const sessions = text.split(/^##### session .*$/m).slice(1)
  const events: RecordedEvent[] = []
  let at = 0
  for (const block of (sessions[session] ?? '').split(/\r?\n\r?\n|\n(?=#####)/)) {
    let fields: string[] = []
    for (const raw of block.split('\n')) {
      const line = raw.replace(/\r$/, '')
      const marker = /^##### <<< RECEIVED \(\+([\d.]+) s\)/.exec(line)
      if (marker) at = Number(marker[1])
      else if (line !== '' && !line.startsWith('#####')) fields.push(line)
    }
    if (fields[0]?.startsWith('Event: ')) events.push({ at, message: Object.fromEntries(fields.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])) })
    fields = []
  }
  return events
}

/** the ActionIDs the recording's first session sent */
function sentActionIds (name: string): Set<string> {
  const text = readFileSync(new URL(`../fixtures/asterisk-ami/${name}`, import.meta.url), 'latin1')
  const first = text.split(/^##### session .*$/m)[1] ?? ''
  return new Set([...first.matchAll(/^##### >>> SENT[^\n]*\n(?:[^\n]+\n)*?ActionID: (\S+)/gm)].map((m) => m[1]!))
}

/**
 * The events the AMI test peer's `replay` indexes: what Asterisk sent unasked to the session that
 * logged in with `Events: on`, every class (the lists that answered its own actions left out; an
 * event naming another session's action, Originate's OriginateResponse, kept).
 */
export const replayedEvents = (name: string): RecordedEvent[] => {
  const own = sentActionIds(name)
  return recordedEvents(name, 0).filter((e) => e.message.ActionID === undefined || !own.has(e.message.ActionID))
}

/** Asterisk 22's event classes (manager.c's perms, less the action-only ones) */
const EVENT_CLASSES = ['system', 'call', 'log', 'verbose', 'command', 'agent', 'user', 'config', 'dtmf', 'reporting', 'cdr', 'dialplan', 'originate', 'agi', 'cc', 'aoc', 'test', 'security', 'message']

/** the classes a manager.conf `read` or a Login's `Events` names: on/yes/true for all, off/no/false for none, else a list */
export function eventClasses (value: string): Set<string> {
  const v = value.trim().toLowerCase()
  if (['on', 'yes', 'true', 'y', 't', 'all'].includes(v)) return new Set(EVENT_CLASSES)
  if (['off', 'no', 'false', 'n', 'f', ''].includes(v)) return new Set()
  return new Set(v.split(',').map((c) => c.trim()).filter((c) => EVENT_CLASSES.includes(c)))
}

/**
 * As manager.c decides: an event goes to a session only when every class of its `Privilege` (less
 * `all`) is both in the user's `read` and in the session's `Events`.
 */
export const delivered = (event: Record<string, string | undefined>, session: Set<string>, read: Set<string>) =>
  (event.Privilege ?? '').split(',').filter((c) => c !== '' && c !== 'all').every((c) => session.has(c) && read.has(c))
