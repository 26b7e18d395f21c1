import type { AppealAction, AppealStatus } from '../../db/schema/index.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError, ForbiddenError, NotFoundError, RequestValidationError, invalid, problem } from '../../lib/errors.js'
import type { WorkingCalendar } from '../calendar/index.js'
import type { NotificationInsert } from '../notifications/queries.js'
import { latestExtension } from './deadlines.js'
import { canSeeAppeal } from '../../lib/access.js'
import { judge, openActions, type Actor, type TransitionAction } from './lifecycle.js'
import { citizenNotice, managerNotices } from './notices.js'
import { createAppealRegistration, executorProblems, type AppealLiveEvent, type AppealRegistrationDeps } from './registration.js'
import { createAppealReads } from './reads.js'
import { createAppealReports } from './reports.js'
import { appealView as view } from './view.js'
import { CENTRE_MODULE, type AppealInsert, type AppealRepo, type AppealRow, type AppealTxRepo } from './repo.js'
import type {
  AnswerCheck, AppealAnswer, AppealAssign, AppealBulkAssign, AppealExtend, AppealRedirect, AppealReject, AppealResponse,
} from './schemas.js'

export type { AppealLiveEvent } from './registration.js'

export interface AppealServiceDeps extends AppealRegistrationDeps {
  publish: (event: AppealLiveEvent) => Promise<void>
  /** an answer committed without the console's review: reviews it in the background */
  reviewAnswer: (appeal: AppealRow, actor: Principal) => void
}

/** whether the principal is the call centre's staff: an admin, or staff of an active organization running the centre */
export function centreStaffCheck (repo: Pick<AppealRepo, 'organization'>) {
  return async (principal: Principal): Promise<boolean> => {
    if (principal.role === 'admin') return true
    if (principal.organization_id === null) return false
    const org = await repo.organization(principal.organization_id)
    return !!org?.is_active && org.modules.includes(CENTRE_MODULE)
  }
}

export function createAppealService (deps: AppealServiceDeps) {
  const { repo, transaction, clock, rules } = deps
  const isCentreStaff = centreStaffCheck(repo)
  const register = createAppealRegistration(deps)

  /** the caller as the lifecycle sees them */
  const actorOf = async (principal: Principal): Promise<Actor> => ({ principal, centre: await isCentreStaff(principal) })

  const announce = (row: AppealRow, action: AppealAction) => deps.publish({
    type: `appeal.${action}`, organization_id: row.executor_organization_id, appeal_id: row.id, number: row.number, status: row.status,
  })

  /**
   * The notices a change sends (DESIGN 7.4): the citizen hears of an answer and of a redirect; a new
   * executor's managers of the appeal handed to them.
   */
  async function noticesOf (tx: AppealTxRepo, action: AppealAction, from: AppealStatus, appeal: AppealRow, eventId: number, timeZone: string): Promise<NotificationInsert[]> {
    const out: NotificationInsert[] = []
    if (action === 'answer' || action === 'redirect') {
      const channel = await tx.responseChannel(appeal.response_method_id)
      const organizationName = action === 'redirect' ? (await tx.organization(appeal.executor_organization_id!))?.name : undefined
      const notice = citizenNotice(action, { appeal, channel, eventId, timeZone, organizationName })
      if (notice) out.push(notice)
    }
    const handedOver = (action === 'assign' && from === 'registered') || action === 'redirect'
    if (handedOver && appeal.executor_organization_id !== null) {
      out.push(...managerNotices(appeal, { kind: 'assign', eventId }, await tx.managerEmails(appeal.executor_organization_id), timeZone))
    }
    return out
  }

  interface Change { values: Partial<AppealInsert>, reason?: string, payload?: Record<string, unknown> }

  type ChangeOf = (row: AppealRow, tx: AppealTxRepo, calendar: WorkingCalendar) => Promise<Change>

  /**
   * One transition inside the caller's transaction: the row locked, the rule judged, the change and
   * its history row written together, its notices in the outbox. The change sees the calendar as it
   * was read before the transaction began (the calendar's kept copy refills through the plain
   * handle, which a transaction's work may not use).
   */
  async function step (tx: AppealTxRepo, actor: Actor, calendar: WorkingCalendar, id: number, action: TransitionAction, change: ChangeOf): Promise<{ row: AppealRow, notified: boolean }> {
    const current = await tx.lock(id)
    if (!current || !canSeeAppeal(actor, current.executor_organization_id)) throw new NotFoundError('Appeal')
    const verdict = judge(actor, current, action)
    if (!verdict.ok && verdict.why === 'role') throw new ForbiddenError(`You may not ${action} appeal ${current.number}`, 'action_not_yours')
    if (!verdict.ok) {
      const open = openActions(current)
      throw new ConflictError(`Appeal ${current.number} is ${current.status}: ${action} is not allowed now (allowed: ${open.length > 0 ? open.join(', ') : 'none'})`, 'invalid_transition')
    }
    const { values, reason, payload } = await change(current, tx, calendar)
    const at = clock()
    const row = await tx.update(id, { ...values, status: verdict.to })
    const eventId = await tx.addEvent({ appeal_id: id, at, actor_id: actor.principal.id, action, from_status: current.status, to_status: verdict.to, reason: reason ?? null, payload: payload ?? {} })
    const notified = await tx.enqueue(await noticesOf(tx, action, current.status, row, eventId, calendar.timeZone), at) > 0
    return { row, notified }
  }

  /** what follows a committed transition: the deadline job told, the consoles and the notification worker woken */
  async function afterCommit (row: AppealRow, action: TransitionAction, notified: boolean) {
    if (action === 'extend') deps.deadlineSet(row.close_due_at)
    await announce(row, action)
    if (notified) deps.notify()
  }

  async function transition (principal: Principal, id: number, action: TransitionAction, change: ChangeOf, after?: (row: AppealRow) => void): Promise<AppealResponse> {
    const [actor, calendar] = await Promise.all([actorOf(principal), deps.calendar()])
    const { row, notified } = await transaction((tx) => step(tx, actor, calendar, id, action, change))
    await afterCommit(row, action, notified)
    after?.(row)
    return view(row, actor)
  }

  /** the executor (and employee) an assignment sets, checked against the appeal's state */
  const assignment = (input: AppealAssign): ChangeOf => async (row, tx) => {
    const from = row.status === 'registered'
    if (from && input.executor_organization_id === undefined) {
      throw RequestValidationError.field(['body', 'executor_organization_id'], 'Field required: the executor organization', undefined, 'missing')
    }
    if (!from && input.executor_organization_id !== undefined && input.executor_organization_id !== row.executor_organization_id) {
      throw RequestValidationError.field(['body', 'executor_organization_id'], 'The appeal has an executor: redirect it to change the organization', input.executor_organization_id)
    }
    const organizationId = input.executor_organization_id ?? row.executor_organization_id!
    invalid(await executorProblems(tx, from ? organizationId : undefined, input.executor_employee_id, ['body']))
    if (!from && input.executor_employee_id != null && await tx.employeeOrganization(input.executor_employee_id) !== organizationId) {
      throw RequestValidationError.field(['body', 'executor_employee_id'], `Employee ${input.executor_employee_id} does not work in organization ${organizationId}`, input.executor_employee_id)
    }
    const employeeId = input.executor_employee_id ?? null
    return { values: { executor_organization_id: organizationId, executor_employee_id: employeeId }, payload: { executor_organization_id: organizationId, executor_employee_id: employeeId } }
  }

  /**
   * Several appeals assigned at once (a manager handing them to an employee): all in one
   * transaction, locked in id order, so either every one is assigned or none; the first that cannot
   * be says why, naming it.
   */
  async function bulkAssign (principal: Principal, input: AppealBulkAssign): Promise<{ items: AppealResponse[] }> {
    const { appeal_ids: ids, ...assign } = input
    const seen = new Map<number, number>()
    invalid(ids.flatMap((id, i) => {
      const first = seen.get(id)
      seen.set(id, first ?? i)
      return first === undefined ? [] : [problem(['body', 'appeal_ids', i], `Appeal ${id} is listed twice (also at ${first})`, id)]
    }))
    const [actor, calendar] = await Promise.all([actorOf(principal), deps.calendar()])
    const change = assignment(assign)
    const done = await transaction(async (tx) => {
      const out = new Map<number, { row: AppealRow, notified: boolean }>()
      for (const id of [...ids].sort((a, b) => a - b)) {
        try {
          out.set(id, await step(tx, actor, calendar, id, 'assign', change))
        } catch (error) {
          if (error instanceof NotFoundError) throw RequestValidationError.field(['body', 'appeal_ids', ids.indexOf(id)], `Appeal ${id} does not exist`, id)
          throw error
        }
      }
      return out
    })
    const rows = ids.map((id) => done.get(id)!)
    for (const { row, notified } of rows) await afterCommit(row, 'assign', notified)
    return { items: rows.map(({ row }) => view(row, actor)) }
  }

  const reads = createAppealReads(repo, actorOf)

  return {
    register,
    ...reads,

    /** the numbers a call for the appeal may be placed to (its citizen's), to whoever may see it; else 404 */
    async callTarget (principal: Principal, id: number): Promise<{ appeal_id: number, person_id: number | null, phones: string[] }> {
      const row = await reads.visibleRow(principal, id)
      const person = row.person_id === null ? undefined : await repo.person(row.person_id)
      return { appeal_id: row.id, person_id: row.person_id, phones: [row.citizen_phone, person?.phone ?? null].filter((p): p is string => p !== null) }
    },

    /** a call placed for the appeal ended: a line of its history (the status stays), told to its viewers */
    async callEnded (entry: { appeal_id: number, actor_id: number | null, at: Date, payload: Record<string, unknown> }): Promise<void> {
      const row = await repo.find(entry.appeal_id)
      if (!row) return
      await repo.addEvent({ appeal_id: row.id, at: entry.at, actor_id: entry.actor_id, action: 'call', from_status: row.status, to_status: row.status, reason: null, payload: entry.payload })
      await announce(row, 'call')
    },

    /** what the register is to this user: the centre's (registers, sees all) or an executor's (its organization's appeals) */
    async workplace (principal: Principal) {
      const centre = await isCentreStaff(principal)
      return { centre_staff: centre, registers: centre, organization_id: principal.organization_id }
    },
    ...createAppealReports({ repo, calendar: deps.calendar, clock, actorOf }),

    assign: (principal: Principal, id: number, input: AppealAssign) => transition(principal, id, 'assign', assignment(input)),
    bulkAssign,

    take: (principal: Principal, id: number) => transition(principal, id, 'take', async (row) => ({
      values: { taken_at: clock(), executor_employee_id: row.executor_employee_id ?? principal.id },
    })),

    redirect: (principal: Principal, id: number, input: AppealRedirect) => transition(principal, id, 'redirect', async (row, tx) => {
      if (input.executor_organization_id === row.executor_organization_id) {
        throw RequestValidationError.field(['body', 'executor_organization_id'], 'The appeal is with this organization already', input.executor_organization_id)
      }
      invalid(await executorProblems(tx, input.executor_organization_id, undefined, ['body']))
      return {
        values: { executor_organization_id: input.executor_organization_id, executor_employee_id: null, taken_at: null },
        reason: input.reason,
        payload: { from_organization_id: row.executor_organization_id, to_organization_id: input.executor_organization_id },
      }
    }),

    extend: (principal: Principal, id: number, input: AppealExtend) => transition(principal, id, 'extend', async (row, _tx, calendar) => {
      const until = new Date(input.until)
      const latest = latestExtension(calendar, rules, row.received_at)
      if (until.getTime() <= row.close_due_at.getTime()) {
        throw RequestValidationError.field(['body', 'until'], `Must be later than the current deadline ${row.close_due_at.toISOString()}`, input.until)
      }
      if (until.getTime() > latest.getTime()) {
        throw RequestValidationError.field(['body', 'until'], `Must not pass the legal maximum of ${rules.maxDays} working days: ${latest.toISOString()}`, input.until)
      }
      return { values: { extended_until: until, close_due_at: until, extension_reason: input.reason }, reason: input.reason, payload: { from: row.close_due_at.toISOString(), to: until.toISOString() } }
    }),

    answer: (principal: Principal, id: number, input: AppealAnswer) => transition(principal, id, 'answer', async (_row, tx) => {
      if (input.call_id !== undefined) {
        const call = await tx.placedCall(input.call_id, id)
        if (!call) throw RequestValidationError.field(['body', 'call_id'], `Call ${input.call_id} was not placed for this appeal`, input.call_id)
        if (call.connected_at === null) throw RequestValidationError.field(['body', 'call_id'], `Call ${input.call_id} did not reach the citizen`, input.call_id, 'call_not_connected')
      }
      const check: AnswerCheck = input.check
        ? { status: 'done', source: 'console', result: input.check, provider: null, model: null, error: null, checked_at: clock().toISOString() }
        : { status: 'pending', source: 'service', result: null, provider: null, model: null, error: null, checked_at: null }
      return {
        values: { answer_text: input.text, answer_language: input.language, answer_attachments: input.attachments ?? [], answer_check: check, answered_at: clock(), answer_call_id: input.call_id ?? null },
        payload: { language: input.language, attachments: (input.attachments ?? []).length, ...(input.call_id === undefined ? {} : { call_id: input.call_id }) },
      }
    }, (row) => { if (!input.check) deps.reviewAnswer(row, principal) }),

    return: (principal: Principal, id: number, reason: string) => transition(principal, id, 'return', async (row) => ({
      values: { answered_at: null, answer_text: null, answer_language: null, answer_attachments: null, answer_check: null, answer_call_id: null },
      reason,
      // the returned answer stays in the history
      payload: { answer: { text: row.answer_text, language: row.answer_language, answered_at: row.answered_at?.toISOString() ?? null } },
    })),

    close: (principal: Principal, id: number) => transition(principal, id, 'close', async () => ({ values: { closed_at: clock() } })),

    reject: (principal: Principal, id: number, input: AppealReject) => transition(principal, id, 'reject', async () => ({
      values: { rejection_kind: input.kind, closed_at: clock() }, reason: input.reason, payload: { kind: input.kind },
    })),
  }
}

export type AppealService = ReturnType<typeof createAppealService>
