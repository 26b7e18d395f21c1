import { open, stat } from 'node:fs/promises'

// Asterisk says what it refused in a reloaded file only in its log ("Error parsing allow=nosuchcodec
// at line 6 of …/orgs/101/pjsip.conf"): AMI's reload answers success either way. The service reads
// the lines a reload added to the log (a `logger.conf` file channel with warnings and errors).

/** one warning or error, as Asterisk wrote it: `[date] ERROR[thread] config_options.c: message` */
export interface AsteriskLogLine {
  level: 'WARNING' | 'ERROR'
  /** the source file that logged it: `config_options.c`, `pbx_config.c`, `app_queue.c` */
  source: string
  message: string
}

/** a reload logs a few lines per refused object; this much of the log is read after one at most */
const MAX_READ_BYTES = 1 << 20
/** Asterisk's logger thread writes a moment after the reload has answered: read this much later */
const SETTLE_MS = 250

const LINE = /^\[[^\]]*\]\s+(WARNING|ERROR)\[\d+\](?:\[[^\]]*\])*:?\s+([\w.-]+):\s+(.*)$/

export function parseAsteriskLog (text: string): AsteriskLogLine[] {
  const lines: AsteriskLogLine[] = []
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw.trimEnd())
    if (m) lines.push({ level: m[1] as AsteriskLogLine['level'], source: m[2]!, message: m[3]! })
  }
  return lines
}

export interface AsteriskLog {
  /** where the log ends now: what a reload adds comes after it */
  mark: () => Promise<number>
  /** the warnings and errors written since `mark` (from the start when the log was rotated) */
  since: (mark: number) => Promise<AsteriskLogLine[]>
}

const sizeOf = async (path: string) => (await stat(path).catch(() => undefined))?.size ?? 0
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function openAsteriskLog (path: string): AsteriskLog {
  return {
    mark: () => sizeOf(path),
    async since (mark) {
      await pause(SETTLE_MS)
      const size = await sizeOf(path)
      const from = size < mark ? 0 : mark
      const length = Math.min(size - from, MAX_READ_BYTES)
      if (length <= 0) return []
      const handle = await open(path, 'r')
      try {
        const buffer = Buffer.alloc(length)
        const { bytesRead } = await handle.read(buffer, 0, length, from)
        // a line still being written is not read: only up to the last line's end
        const end = buffer.subarray(0, bytesRead).lastIndexOf(0x0a) + 1
        return parseAsteriskLog(buffer.subarray(0, end).toString('utf8'))
      } finally {
        await handle.close()
      }
    },
  }
}
