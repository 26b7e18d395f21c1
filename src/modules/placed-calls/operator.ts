import type { CallControl, LiveChannel } from '../../integrations/ami/call-control.js'
import { askAsterisk } from '../../integrations/ami/ask.js'
import { memberInterface } from '../../integrations/asterisk/names.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError } from '../../lib/errors.js'
import type { PlacedCallRepo } from './repo.js'

const NO_AMI = 'Asterisk Manager Interface is not configured: calls are placed by Asterisk (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

/** The signed-in user as Asterisk knows them: their terminal, its phone, its call now; and Asterisk's answers or a 503 saying why none came. */
export function operatorOnPbx ({ repo, control }: { repo: Pick<PlacedCallRepo, 'terminalsOf'>, control?: CallControl }) {
  const asked = <T>(what: (control: CallControl) => Promise<T>, failed?: string) => askAsterisk(control, what, { unconfigured: NO_AMI, failed })

  /** the user's own terminal: the phone rung first */
  async function ownTerminal (actor: Principal) {
    const [terminal] = await repo.terminalsOf(actor.id)
    if (!terminal) throw new ConflictError('You have no terminal: an administrator gives you one (SIP terminals)', 'no_terminal')
    return terminal
  }

  /** a phone registered at the terminal (else it cannot ring) */
  async function registered<T extends { id: string }> (terminal: T): Promise<T> {
    const state = await asked((c) => c.deviceState(terminal.id))
    if (state === null || state === 'Unavailable') throw new ConflictError(`Your terminal ${terminal.id} is not registered: its phone is off or not connected`, 'terminal_offline', { terminal_id: terminal.id })
    return terminal
  }

  /** a terminal's call now: its own channel, answered (409 when it talks to nobody), and the channels up beside it */
  async function callOf (terminalId: string) {
    const prefix = `${memberInterface(terminalId)}-`
    const channels = await asked((c) => c.channels())
    const call = channels.find((c) => c.channel.startsWith(prefix) && c.state === 'Up')
    if (!call) throw new ConflictError(`Terminal ${terminalId} is not in a call now`, 'not_in_call')
    const talkingWith = call.bridge === '' ? [] : channels.filter((c) => c.bridge === call.bridge && c.channel !== call.channel)
    return { ...call, consulting: consultedBy(call, channels), threeWay: talkingWith.length >= 2 }
  }

  return { asked, ownTerminal, registered, callOf }
}

/**
 * The party an attended transfer's consultation rings or talks to, if the channel is in one: Asterisk
 * dials the destination as a Local channel whose `;1` side it bridges with the transferer (the party
 * on hold stays in the call's first bridge), so the transferer shares its bridge with such a channel.
 */
export function consultedBy (own: LiveChannel, channels: LiveChannel[]): LiveChannel | undefined {
  if (own.bridge === '') return undefined
  return channels.find((c) => c.bridge === own.bridge && c.channel !== own.channel && c.channel.startsWith('Local/') && c.channel.endsWith(';1'))
}
