// SIP phones for `npm run test:pbx`: PJProject's pjsua, driven through its menu on standard input
// (m: call, #: RFC 4733 DTMF, x: blind transfer by REFER, h: hang up, q: quit), with no sound device.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { eventually } from '../helpers/http-target.js'
import { SIP_PORT, TRUNK_ADDRESS } from './asterisk.js'

export interface Phone {
  /** what it has printed so far */
  output: () => string
  /** waits until its output, after `from` characters, matches */
  waitFor: (pattern: RegExp, what: string, timeoutMs?: number, from?: number) => Promise<void>
  dial: (uri: string) => void
  dtmf: (digits: string) => void
  hangUp: () => void
  /** the phone's own transfer key: the call passed on blind (SIP REFER) */
  transfer: (uri: string) => void
  close: () => Promise<void>
}

let rtpPort = 22_000

function startPjsua (pjsua: string, args: string[], logLevel = 3, { vad = false } = {}): Phone {
  rtpPort += 20
  // pjsua's output to a pipe is block-buffered: stdbuf makes it line by line, so that it can be waited for
  const child: ChildProcessWithoutNullStreams = spawn('stdbuf', ['-oL', '-eL', pjsua,
    ...args, '--null-audio', '--no-tcp', ...(vad ? [] : ['--no-vad']), '--max-calls=4', `--rtp-port=${rtpPort}`, `--log-level=${logLevel}`, `--app-log-level=${logLevel}`, '--add-codec=PCMA', '--add-codec=PCMU',
  ])
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { out += d.toString() })
  const say = (line: string) => { child.stdin.write(`${line}\n`) }
  return {
    output: () => out,
    waitFor: async (pattern, what, timeoutMs = 20_000, from = 0) => {
      await eventually(async () => {
        if (child.exitCode !== null) throw new Error(`pjsua exited while waiting for ${what}: ${out.slice(-2000)}`)
        return pattern.test(out.slice(from))
      }, timeoutMs, what)
    },
    dial: (uri) => { say('m'); say(uri) },
    dtmf: (digits) => { say('#'); say(digits) },
    hangUp: () => { say('h') },
    transfer: (uri) => { say('x'); say(uri) },
    close: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      say('q')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * an operator's phone: registers its terminal with Asterisk and answers every call at once;
 * `playing`: a WAV it says into every call, over and over (`once`: once); `recording`: where it keeps what it hears; `vad`: it sends nothing while silent;
 * `tlsPort`: it registers over TLS there
 * (many desk phones do: a channel that waits for its frames then waits for good)
 */
export async function operatorPhone (pjsua: string, terminal: string, password: string, port: number, playing?: string, { vad = false, once = false, recording, tlsPort, answer = 200 }: { vad?: boolean, once?: boolean, recording?: string, tlsPort?: number, answer?: 180 | 200 } = {}): Promise<Phone> {
  const phone = startPjsua(pjsua, [
    `--id=sip:${terminal}@127.0.0.1`, tlsPort ? `--registrar=sip:127.0.0.1:${tlsPort};transport=tls` : `--registrar=sip:127.0.0.1:${SIP_PORT}`, ...(tlsPort ? ['--use-tls'] : []), '--realm=*', `--username=${terminal}`, `--password=${password}`,
    `--local-port=${port}`, '--bound-addr=127.0.0.1', '--ip-addr=127.0.0.1', `--auto-answer=${answer}`,
    ...(playing ? [`--play-file=${playing}`, '--auto-play', ...(once ? [] : ['--auto-loop'])] : []),
    // what it hears, into a WAV at its clock's rate (16 kHz)
    ...(recording ? [`--rec-file=${recording}`, '--auto-rec'] : []),
  ], 3, { vad })
  await phone.waitFor(/registration success/i, `${terminal} registered`)
  return phone
}

/** a citizen on the public network: the trunk's address, the caller's number as its user; `playing`: a WAV it says into every call, over and over; `answering`: it answers calls, its SIP messages printed */
export function citizenPhone (pjsua: string, number: string, port: number, playing?: string, answering = false): Phone {
  return startPjsua(pjsua, [`--id=sip:${number}@${TRUNK_ADDRESS}`, `--local-port=${port}`, `--bound-addr=${TRUNK_ADDRESS}`, `--ip-addr=${TRUNK_ADDRESS}`,
    ...(playing ? [`--play-file=${playing}`, '--auto-play', '--auto-loop'] : []), ...(answering ? ['--auto-answer=200'] : [])],
  // one that answers prints the SIP messages it is sent (level 5): what the trunk sends is asserted
  answering ? 5 : 3)
}

/** the line's number as the trunk delivers it */
export const lineUri = (number: string) => `sip:${number}@127.0.0.1:${SIP_PORT}`
