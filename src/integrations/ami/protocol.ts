// The Asterisk Manager Interface wire format: `Key: Value` lines ending in CRLF, a blank line ending
// each message. A key may repeat (Command's `Output:` lines), so values can be lists.

export type AmiMessage = Record<string, string | string[]>

export const MESSAGE_END = '\r\n\r\n'

export function encodeAction (fields: Record<string, string>): string {
  return `${Object.entries(fields).map(([k, v]) => `${k}: ${v.replace(/[\r\n]/g, ' ')}`).join('\r\n')}${MESSAGE_END}`
}

/** one message block (without its terminator); tolerates the bare LF Asterisk puts after some messages */
export function decodeMessage (block: string): AmiMessage {
  const message: AmiMessage = {}
  for (const line of block.split(/\r?\n/)) {
    if (line === '') continue
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const key = line.slice(0, colon)
    const value = line.slice(colon + 1).replace(/^ /, '')
    const previous = message[key]
    message[key] = previous === undefined ? value : ([] as string[]).concat(previous, value)
  }
  return message
}

export const field = (m: AmiMessage, key: string): string | undefined => {
  const v = m[key]
  return Array.isArray(v) ? v[0] : v
}

export const fieldList = (m: AmiMessage, key: string): string[] => {
  const v = m[key]
  return v === undefined ? [] : ([] as string[]).concat(v)
}
