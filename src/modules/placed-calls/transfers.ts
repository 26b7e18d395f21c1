import type { CallControl } from '../../integrations/ami/call-control.js'
import { AmiRefusal } from '../../integrations/ami/client.js'
import { INBOUND_CONTEXT, internalContext, queueExtension } from '../../integrations/asterisk/names.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError, NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { operatorOnPbx } from './operator.js'
import type { PlacedCallRepo } from './repo.js'
import type { TransferRequest } from './schemas.js'

/** the organization's own queue, as its terminals dial it */
const OWN_QUEUE_EXTEN = '0'
/** the queues the transfer form offers, at most */
const QUEUES_AT_MOST = 200

/**
 * An operator passes the call they are on (DESIGN 11), the same for a desk phone and a browser phone:
 * Asterisk does it (BlindTransfer, Atxfer), so a desk phone's own transfer key keeps working beside it.
 * Blind: the caller goes at once to the destination and the operator is free. Attended: the operator
 * talks to the destination first, the caller on hold; `complete` hangs the operator up (the caller and
 * the destination then talk), `cancel` ends the consultation and brings the caller back.
 */
type TransferRepo = Pick<PlacedCallRepo, 'terminalsOf' | 'terminal' | 'organization' | 'lineByNumber' | 'queuesOf' | 'queue' | 'dialArea' | 'personByPhone' | 'routesOf' | 'allowsLongDistance'>

export function createTransferService ({ repo, control }: { repo: TransferRepo, control?: CallControl }) {
  const { asked, ownTerminal, callOf, outsideNumber } = operatorOnPbx({ repo, control })

  /** where the caller goes, in Asterisk's words; 422 on the field a kind needs, 404 for a destination that is not there */
  async function destination (actor: Principal, terminal: { id: string, organization_id: number }, body: TransferRequest): Promise<{ context: string, exten: string }> {
    const org = await repo.organization(terminal.organization_id)
    if (!org) throw new NotFoundError('Organization')
    if (body.to === 'outside') {
      if (body.number === undefined) throw RequestValidationError.field(['body', 'number'], 'Field required: the number to pass the call to', undefined, 'missing')
      return { context: internalContext(org.prefix), exten: (await outsideNumber(actor, terminal, body.number)).exten }
    }
    if (body.to === 'queue') {
      if (body.queue_id === undefined) return { context: internalContext(org.prefix), exten: OWN_QUEUE_EXTEN }
      const queue = await repo.queue(terminal.organization_id, body.queue_id)
      if (!queue) throw new NotFoundError('Queue')
      // dialled as the organization's terminals dial it: the queue entered as from a line, its overflow and rating included
      return { context: internalContext(org.prefix), exten: queue.is_default ? OWN_QUEUE_EXTEN : queueExtension(queue.id) }
    }
    if (body.to === 'terminal') {
      if (body.extension === undefined) throw RequestValidationError.field(['body', 'extension'], 'Field required: the colleague\'s extension', undefined, 'missing')
      const colleague = await repo.terminal(`${org.prefix}${body.extension}`)
      if (!colleague || colleague.organization_id !== terminal.organization_id) throw new NotFoundError('Terminal')
      if (colleague.id === terminal.id) throw new ConflictError('That is your own terminal', 'own_terminal')
      return { context: internalContext(org.prefix), exten: body.extension }
    }
    if (body.number === undefined) throw RequestValidationError.field(['body', 'number'], 'Field required: the line\'s number', undefined, 'missing')
    const line = /^[0-9]{1,20}$/.test(body.number) ? await repo.lineByNumber(body.number) : undefined
    if (!line || !(await repo.organization(line.organization_id))?.is_active) throw new NotFoundError('Line')
    return { context: INBOUND_CONTEXT, exten: body.number }
  }

  /** Asterisk's refusal of the order (no such transfer, a channel gone meanwhile) is the request's: 409 in its words */
  const refusedAs = (code: string, work: (control: CallControl) => Promise<void>) => asked(async (c) => {
    try {
      await work(c)
    } catch (err) {
      if (err instanceof AmiRefusal) throw new ConflictError(`Asterisk refused: ${err.message}`, code)
      throw err
    }
  })

  async function ownCall (actor: Principal) {
    const terminal = await ownTerminal(actor)
    return { terminal, call: await callOf(terminal.id) }
  }

  /**
   * The outbound dialplan checks the dialling channel's long-distance permission (its terminal's
   * `set_var`) and presents its terminal's number (`APPEALS_CALLER`): a blind transfer dials from the
   * caller's channel, an attended one from a Local channel of the operator's, so the operator's
   * terminal's are given to the one that will dial (inherited, `__`, by the Local channel).
   */
  async function carryPermission (c: CallControl, terminal: { id: string }, call: { channel: string, party?: string }, mode: TransferRequest['mode']) {
    const long = (await repo.allowsLongDistance(terminal.id)) ? 'yes' : 'no'
    const [channel, inherit] = mode === 'blind' ? [call.party, ''] : [call.channel, '__']
    if (channel === undefined) throw new ConflictError('The call has more than one other party: pass it on once it has one', 'transfer_refused')
    await c.setVariable(channel, `${inherit}ALLOW_LONG_DISTANCE`, long)
    await c.setVariable(channel, `${inherit}APPEALS_CALLER`, terminal.id)
  }

  /**
   * The operator's call, consulting someone (or, for `complete`, talking three): 409 no_transfer when
   * not, for completing would hang the caller up. A three-way call is one bridge of the three, the
   * Local channel of the consultation gone from it.
   */
  async function consultation (actor: Principal, orThree = false) {
    const { terminal, call } = await ownCall(actor)
    if (!call.consulting && !(orThree && call.threeWay)) throw new ConflictError(`Terminal ${terminal.id} is not consulting anyone: there is no transfer to complete, join or cancel`, 'no_transfer')
    return call
  }

  return {
    /** the queues of the user's terminal's organization, its own first: where the transfer form may send a call */
    async queues (actor: Principal) {
      const terminal = await ownTerminal(actor)
      return repo.queuesOf(terminal.organization_id, QUEUES_AT_MOST)
    },
    async transfer (actor: Principal, body: TransferRequest) {
      const { terminal, call } = await ownCall(actor)
      if (call.consulting) throw new ConflictError('You are consulting someone: complete, join or cancel that transfer first', 'in_consultation')
      const { context, exten } = await destination(actor, terminal, body)
      await refusedAs('transfer_refused', async (c) => {
        if (body.to === 'outside') await carryPermission(c, terminal, call, body.mode)
        await (body.mode === 'blind' ? c.blindTransfer(call.channel, context, exten) : c.attendedTransfer(call.channel, context, exten))
      })
      return { call_id: call.linkedid, mode: body.mode, to: `${exten}@${context}` }
    },
    /** the consultation (or the three-way call) over, the operator leaves: the caller and the destination talk */
    async complete (actor: Principal) {
      const call = await consultation(actor, true)
      await refusedAs('not_in_call', (c) => c.hangUp(call.channel))
      return { call_id: call.linkedid }
    },
    /** the consultation ended without a transfer: the caller is back with the operator */
    async cancel (actor: Principal) {
      const call = await consultation(actor)
      await refusedAs('no_transfer', (c) => c.cancelTransfer(call.channel))
      return { call_id: call.linkedid }
    },
    /** the consultation becomes a three-way call; the operator's hang-up then leaves the other two talking */
    async conference (actor: Principal) {
      const call = await consultation(actor)
      await refusedAs('no_transfer', (c) => c.joinConsultation(call.channel))
      return { call_id: call.linkedid }
    },
  }
}

export type TransferService = ReturnType<typeof createTransferService>
