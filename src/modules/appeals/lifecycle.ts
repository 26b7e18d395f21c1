// DESIGN 7.2: which action may be taken from which state, by whom, and where it leads.
import type { AppealAction, AppealStatus } from '../../db/schema/index.js'
import type { AppealViewer } from '../../lib/access.js'

/** centre: staff of a call-centre organization; executor: staff of the appeal's executor organization */
export type Capacity = 'centre' | 'executor' | 'executor_manager'

interface Rule { from: readonly AppealStatus[], to: AppealStatus | 'same', by: readonly Capacity[] }

export type TransitionAction = Exclude<AppealAction, 'register' | 'overdue' | 'call'>

const RULES: Record<TransitionAction, readonly Rule[]> = {
  assign: [
    { from: ['registered'], to: 'assigned', by: ['centre'] },
    // the executor's manager hands the appeal to one of its employees (the organization stays)
    { from: ['assigned', 'in_work'], to: 'same', by: ['executor_manager', 'centre'] },
  ],
  take: [{ from: ['assigned'], to: 'in_work', by: ['executor'] }],
  redirect: [{ from: ['assigned', 'in_work'], to: 'assigned', by: ['executor_manager', 'centre'] }],
  extend: [{ from: ['assigned', 'in_work'], to: 'same', by: ['executor_manager'] }],
  answer: [{ from: ['in_work'], to: 'answered', by: ['executor'] }],
  return: [{ from: ['answered'], to: 'in_work', by: ['centre'] }],
  close: [{ from: ['answered'], to: 'closed', by: ['centre'] }],
  reject: [{ from: ['registered', 'assigned'], to: 'rejected', by: ['centre'] }],
}

export const TRANSITIONS = Object.keys(RULES) as TransitionAction[]

/** The caller as the lifecycle sees them: whether they are centre staff is looked up once per request. */
export type Actor = AppealViewer

export interface AppealState { status: AppealStatus, executor_organization_id: number | null, extended_until: Date | null }

export function capacitiesOf (actor: Actor, appeal: Pick<AppealState, 'executor_organization_id'>): Set<Capacity> {
  const p = actor.principal
  if (p.role === 'admin') return new Set(['centre', 'executor', 'executor_manager'])
  const out = new Set<Capacity>()
  if (actor.centre) out.add('centre')
  if (p.organization_id !== null && p.organization_id === appeal.executor_organization_id) {
    out.add('executor')
    if (p.role === 'manager') out.add('executor_manager')
  }
  return out
}

/** the actions open in this state, whoever takes them (extension is once only) */
export function openActions (appeal: AppealState): TransitionAction[] {
  return TRANSITIONS.filter((a) => RULES[a].some((r) => r.from.includes(appeal.status)) && !(a === 'extend' && appeal.extended_until))
}

/** the actions this caller may take now */
export function allowedActions (actor: Actor, appeal: AppealState): TransitionAction[] {
  const capacities = capacitiesOf(actor, appeal)
  return openActions(appeal).filter((a) => RULES[a].some((r) => r.from.includes(appeal.status) && r.by.some((c) => capacities.has(c))))
}

export type Verdict = { ok: true, to: AppealStatus, by: Set<Capacity> } | { ok: false, why: 'state' | 'role' }

/** whether the caller may take the action now, and the state it leads to */
export function judge (actor: Actor, appeal: AppealState, action: TransitionAction): Verdict {
  if (!openActions(appeal).includes(action)) return { ok: false, why: 'state' }
  const capacities = capacitiesOf(actor, appeal)
  const rule = RULES[action].find((r) => r.from.includes(appeal.status) && r.by.some((c) => capacities.has(c)))
  if (!rule) return { ok: false, why: 'role' }
  return { ok: true, to: rule.to === 'same' ? appeal.status : rule.to, by: capacities }
}
