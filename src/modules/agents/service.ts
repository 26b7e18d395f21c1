import type { FastifyBaseLogger } from 'fastify'
import type { QueueControl, QueueMemberState } from '../../integrations/ami/queue-control.js'
import { supervisorScope } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { groupBy } from '../../lib/collections.js'
import { askAsterisk } from '../../integrations/ami/ask.js'
import { ConflictError, RequestValidationError } from '../../lib/errors.js'
import type { BreakReasons } from './break-reasons.js'
import { memberInterface as interfaceOf, OFFLINE_PAUSE_REASON as OFFLINE } from '../../integrations/asterisk/names.js'
import { busiestState, memberState } from '../call-routing/member-state.js'
import type { AgentRepo } from './repo.js'
import type { AgentChoice, AgentStateValue, AgentView } from './schemas.js'

type Choice = Awaited<ReturnType<AgentRepo['choice']>>
type Members = Map<string, QueueMemberState[]> | 'not_configured' | 'unreachable'

/**
 * An operator's availability is Asterisk's queue member pause (DESIGN 9): ready is unpaused, a break
 * is paused with its reason, offline is paused with reason `offline` while no console of theirs is
 * open. The desk's choice is kept and put back when a console opens again or Asterisk restarts.
 */
export function createAgentService ({ repo, reasons, queues, clock, log, openConsoles }: {
  repo: AgentRepo
  /** the administrator's list a break's reason is one of */
  reasons: Pick<BreakReasons, 'check'>
  queues?: QueueControl
  clock: Clock
  log: FastifyBaseLogger
  /** the users with a console open on any instance */
  openConsoles: () => Promise<Set<number>>
}) {
  /** Asterisk's members: of these terminals only, or all */
  async function members (terminalIds?: string[]): Promise<Members> {
    if (!queues) return 'not_configured'
    try {
      const found = terminalIds ? (await Promise.all(terminalIds.map((id) => queues.members(interfaceOf(id))))).flat() : await queues.members()
      return groupBy(found, (m) => m.interface)
    } catch (err) {
      log.warn({ err }, 'Asterisk\'s queue members could not be read')
      return 'unreachable'
    }
  }

  /** what Asterisk says of a user's terminals now, in the board's words (member-state.ts): the busiest terminal's state */
  function stateOf (terminalIds: string[], found: Members): { state: AgentStateValue, reason: string | null } {
    if (terminalIds.length === 0) return { state: 'no_terminal', reason: null }
    if (typeof found === 'string') return { state: 'unknown', reason: null }
    const memberships = terminalIds.map((id) => found.get(interfaceOf(id)) ?? []).filter((m) => m.length > 0)
    if (memberships.length === 0) return { state: 'not_in_queue', reason: null }
    return busiestState(memberships.map((m) => memberState(m, { at: clock() })))!
  }

  function view (userId: number, terminalIds: string[], choice: Choice, found: Members): AgentView {
    const pbx = typeof found === 'string' ? found : 'connected'
    return {
      user_id: userId,
      ...stateOf(terminalIds, found),
      chosen: choice ? { state: choice.state, reason: choice.reason, changed_at: choice.changed_at.toISOString() } : null,
      terminals: terminalIds.map((id) => {
        const own = typeof found === 'string' ? [] : found.get(interfaceOf(id)) ?? []
        return { id, queues: own.map((m) => m.queue), paused: own.length === 0 ? null : own.every((m) => m.paused), reason: own.find((m) => m.paused)?.reason || null }
      }),
      pbx,
    }
  }

  /** pauses or unpauses the terminals in every queue; unreachable Asterisk is a 503 */
  async function apply (terminalIds: string[], paused: boolean, reason?: string): Promise<void> {
    if (!queues) return
    await askAsterisk(queues, async (q) => { for (const id of terminalIds) await q.pause(interfaceOf(id), paused, reason) }, { failed: 'Asterisk did not take the change' })
  }

  const applyChoice = (terminalIds: string[], choice: Choice) =>
    choice?.state === 'break' ? apply(terminalIds, true, choice.reason ?? 'break') : apply(terminalIds, false)
  const terminalIdsOf = async (userId: number) => (await repo.terminalsOf({ employeeId: userId })).map((t) => t.id)

  return {
    async me (actor: Principal): Promise<AgentView> {
      const [terminalIds, choice] = await Promise.all([terminalIdsOf(actor.id), repo.choice(actor.id)])
      return view(actor.id, terminalIds, choice, await members(terminalIds))
    },

    /** the desk's switch: the choice is kept, then put into Asterisk at once */
    async choose (actor: Principal, input: AgentChoice): Promise<AgentView> {
      const reason = input.state === 'break' ? input.reason ?? 'break' : null
      if (reason === OFFLINE) throw RequestValidationError.field(['body', 'reason'], 'offline is the service\'s own reason for a closed console', reason)
      if (input.state === 'ready' && input.reason) throw RequestValidationError.field(['body', 'reason'], 'Only a break has a reason', input.reason)
      if (reason !== null) await reasons.check(reason)
      const terminalIds = await terminalIdsOf(actor.id)
      if (terminalIds.length === 0) throw new ConflictError('You work at no SIP terminal: an administrator assigns you one', 'no_terminal')
      const choice = await repo.choose(actor.id, input.state, reason, clock())
      await apply(terminalIds, input.state === 'break', reason ?? undefined)
      return view(actor.id, terminalIds, choice, await members(terminalIds))
    },

    /** the operators of the supervisor's scope (an admin: every one; a manager: their organization's) */
    async list (actor: Principal): Promise<AgentView[]> {
      const { organizationId } = supervisorScope(actor, 'the operators\' states')
      const terminals = groupBy(await repo.terminalsOf({ organizationId }), (t) => t.employee_id!)
      const [choices, found] = await Promise.all([repo.choices([...terminals.keys()]), members()])
      return [...terminals].sort(([a], [b]) => a - b).map(([userId, own]) => view(userId, own.map((t) => t.id), choices.get(userId), found))
    },

    /** a console of the user opened: their choice (ready when they made none) goes back into Asterisk */
    async consoleOpened (userId: number): Promise<void> {
      const terminalIds = await terminalIdsOf(userId)
      if (terminalIds.length > 0) await applyChoice(terminalIds, await repo.choice(userId))
    },

    /** a console of the user closed; with no other open, they are offline and their phone no longer rings */
    async consoleClosed (userId: number, othersOpen: boolean): Promise<void> {
      if (othersOpen) return
      const terminalIds = await terminalIdsOf(userId)
      if (terminalIds.length > 0) await apply(terminalIds, true, OFFLINE)
    },

    /** every operator's state put back: their choice while a console is open, offline otherwise (after a restart) */
    async restoreAll (): Promise<number> {
      const terminals = groupBy(await repo.terminalsOf({}), (t) => t.employee_id!)
      const [choices, open] = await Promise.all([repo.choices([...terminals.keys()]), openConsoles()])
      for (const [userId, own] of terminals) {
        const ids = own.map((t) => t.id)
        if (open.has(userId)) await applyChoice(ids, choices.get(userId))
        else await apply(ids, true, OFFLINE)
      }
      return terminals.size
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
