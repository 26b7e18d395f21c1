import { Writable } from 'node:stream'

/** pino's numeric levels as a person reads them */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }
/** fields every line carries that a person at a terminal does not need */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v'])

/** a text as a terminal may be given it: control characters (an escape sequence in a caller's input) written as JSON escapes them */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
const safe = (text: string): string => CONTROL.test(text) ? JSON.stringify(text).slice(1, -1) : text

const shown = (value: unknown): string => {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' || CONTROL.test(value) ? JSON.stringify(value) : value
  return JSON.stringify(value)
}

/** one JSON log line as `12:04:05 WARN  message key=value ...`, an error's stack on the lines after it */
export function readableLine (json: string): string {
  let entry: Record<string, unknown>
  try { entry = JSON.parse(json) as Record<string, unknown> } catch { return json }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : ''
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5)
  const err = entry.err as { stack?: string } | undefined
  const fields = Object.entries(entry).filter(([k]) => !OMITTED.has(k) && !(k === 'err' && err?.stack)).map(([k, v]) => `${k}=${shown(v)}`)
  return [`${time} ${level} ${safe(String(entry.msg ?? ''))}`, ...fields].join(' ') + (err?.stack ? `\n${safe(err.stack.replaceAll('\n', '\u0001')).replaceAll('\\u0001', '\n')}` : '')
}

/** whether the log is written as readable lines: LOG_FORMAT, and `auto` on a terminal */
export const readableLogs = (format: 'auto' | 'json' | 'readable', terminal = process.stdout.isTTY === true): boolean =>
  format === 'readable' || (format === 'auto' && terminal)

/** a destination for pino that writes each line readably to `out` (a terminal) */
export function readableLog (out: NodeJS.WritableStream = process.stdout): Writable {
  let pending = ''
  return new Writable({
    write (chunk: Buffer, _encoding, done) {
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) if (line) out.write(`${readableLine(line)}\n`)
      done()
    },
  })
}
