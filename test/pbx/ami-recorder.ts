// Records a real Asterisk's AMI traffic in the fixtures' format (test/fixtures/asterisk-ami/README.md):
// one connection logged in with `Events: on`, every byte received as it came, with markers saying
// when and what the test's phones did, so that the AMI test peer can replay it in CI.
import { connect, type Socket } from 'node:net'

/** an event as the recorder heard it: its fields, and when (performance.now()) */
export interface HeardEvent { at: number, fields: Record<string, string> }

export interface AmiRecorder {
  /** the events heard so far */
  events: HeardEvent[]
  /** a marker line: what the test did (`##### [pbx] ...`) */
  mark: (what: string) => void
  /** the transcript so far */
  text: () => string
  /** an action sent on the recorder's own session (its answer recorded like the rest: a fixture for the peer) */
  send: (action: Record<string, string>) => void
  close: () => void
}

export async function recordAmi (port: number, username: string, secret: string): Promise<AmiRecorder> {
  const started = Date.now()
  const since = () => `(+${((Date.now() - started) / 1000).toFixed(3)} s)`
  const parts: string[] = [`##### session ${new Date(started).toISOString()}, Asterisk 22.10.1 on 127.0.0.1:${port}\n`]
  const socket: Socket = connect({ host: '127.0.0.1', port })
  socket.setEncoding('latin1')
  let bannerSeen = false
  let pending = ''
  const events: HeardEvent[] = []
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.on('data', (chunk: string) => {
      if (!bannerSeen) {
        bannerSeen = true
        parts.push(chunk)
        const login = `Action: Login\r\nUsername: ${username}\r\nSecret: ${secret}\r\nEvents: on\r\nActionID: probe-0\r\n\r\n`
        parts.push(`##### >>> SENT Login ${since()}\n`, login.replace(`Secret: ${secret}`, 'Secret: labsecret'))
        socket.write(login)
        resolve()
        return
      }
      // whole messages under each marker (a marker inside a message would cut it in two for the reader)
      pending += chunk
      const end = pending.lastIndexOf('\r\n\r\n')
      if (end < 0) return
      const at = performance.now()
      parts.push(`##### <<< RECEIVED ${since()}\n`, pending.slice(0, end + 4))
      for (const block of pending.slice(0, end).split('\r\n\r\n')) {
        const fields = Object.fromEntries(block.split('\r\n').filter((l) => l.includes(': ')).map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]))
        if (fields.Event) events.push({ at, fields })
      }
      pending = pending.slice(end + 4)
    })
  })
  return {
    events,
    mark: (what) => { parts.push(`##### [pbx] ${what} ${since()}\n`) },
    text: () => parts.join(''),
    send: (action) => {
      const text = `${Object.entries(action).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`
      parts.push(`##### >>> SENT ${action.Action} ${since()}\n`, text)
      socket.write(text)
    },
    close: () => { socket.destroy() },
  }
}
