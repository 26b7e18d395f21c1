import type { CallControl, LiveChannel } from '../../integrations/ami/call-control.js'
import { askAsterisk } from '../../integrations/ami/ask.js'
import { memberInterface } from '../../integrations/asterisk/names.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError, ForbiddenError, RequestValidationError } from '../../lib/errors.js'
import { e164InArea } from '../../lib/phone.js'
import { diallingOf } from './dialling.js'
import type { PlacedCallRepo } from './repo.js'

const NO_AMI = 'Asterisk Manager Interface is not configured: calls are placed by Asterisk (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

/** The signed-in user as Asterisk knows them: their terminal, its phone, its call now; and Asterisk's answers or a 503 saying why none came. */
type OperatorRepo = Pick<PlacedCallRepo, 'terminalsOf' | 'organization' | 'dialArea' | 'personByPhone' | 'routesOf' | 'allowsLongDistance'>

export function operatorOnPbx ({ repo, control }: { repo: OperatorRepo, control?: CallControl }) {
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
    return { ...call, consulting: consultedBy(call, channels), threeWay: talkingWith.length >= 2, party: talkingWith.length === 1 ? talkingWith[0]!.channel : undefined }
  }

  /** how the terminal's context is given the number, or why the terminal may not call it */
  const diallingFor = async (terminal: { id: string, organization_id: number }, area: { areaCode: string | null, localDigits: number | null }, number: string) =>
    diallingOf(number, { ...area, routes: await repo.routesOf(terminal.organization_id), allowLongDistance: await repo.allowsLongDistance(terminal.id) })

  const notANumber = (raw: string) => RequestValidationError.field(['body', 'number'], 'Not a phone number: +7 and ten digits, 8 and ten digits, or a local number of your area', raw, 'phone_number')

  /** what is no number in any area is said before anything is looked up */
  function phoneShaped (raw: string): void {
    if (!/^\+?[\d\s\-().]+$/.test(raw)) throw notANumber(raw)
  }

  /**
   * A number outside the user may have their terminal reach (DESIGN 10), for a call they place and a
   * call they pass on alike: +7XXXXXXXXXX, and the extension its organization's context is given.
   * An operator reaches the citizen of an appeal (`allowed`) or of the references, a supervisor any
   * number; the organization's outbound routes and the terminal's long-distance permission decide
   * the rest (403 in words, rather than congestion heard).
   */
  async function outsideNumber (actor: Principal, terminal: { id: string, organization_id: number }, raw: string, allowed: string[] = []) {
    phoneShaped(raw)
    const org = await repo.organization(terminal.organization_id)
    if (!org || !org.is_active) throw new ConflictError('Your terminal\'s organization is inactive', 'no_terminal')
    const area = await repo.dialArea(org.region_id)
    const number = e164InArea(raw, area)
    if (number === undefined) throw notANumber(raw)
    const person = await repo.personByPhone(number)
    if (actor.role === 'operator' && !allowed.includes(number) && !person) {
      throw new ForbiddenError('You may call the citizen of an appeal or of the references; another number is dialled by a supervisor', 'number_not_allowed')
    }
    const dialling = await diallingFor(terminal, area, number)
    if ('refused' in dialling) throw new ForbiddenError(dialling.refused, 'not_permitted')
    return { number, exten: dialling.exten, person, prefix: org.prefix }
  }

  return { asked, ownTerminal, registered, callOf, outsideNumber, diallingFor, phoneShaped }
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
