import type { Transactional } from '../../db/client.js'
import type { NotifyMessage } from '../../db/notify.js'
import type { AppealAction, AppealStatus } from '../../db/schema/index.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { ConflictError, ForbiddenError, NotFoundError, RequestValidationError, type FieldError, invalid, problem } from '../../lib/errors.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import { localDate, type WorkingCalendar } from '../calendar/index.js'
import { cleanPersonContact } from '../references/person-input.js'
import type { NotificationInsert } from '../notifications/queries.js'
import { deadlinesOf, latestExtension, type DeadlineRules } from './deadlines.js'
import { appealExecutorScope, canSeeAppeal } from '../../lib/access.js'
import { decodeCursor, encodeCursor, filterFor } from './filters.js'
import { judge, openActions, type Actor, type TransitionAction } from './lifecycle.js'
import { citizenNotice, managerNotices, registrationNotices } from './notices.js'
import { createAppealReports } from './reports.js'
import { lineCallView } from '../line-calls/queries.js'
import { appealView as view } from './view.js'
import { CENTRE_MODULE, type AppealInsert, type AppealRepo, type AppealRow, type AppealTxRepo, type RegistrationNotices, type RegistrationValues } from './repo.js'
import type {
  AnswerCheck, AppealAnswer, AppealAssign, AppealBulkAssign, AppealCreate, AppealInboxQuery, InboxState, AppealEvent, AppealExtend, AppealListQuery, AppealRedirect, AppealReject, AppealResponse, AppealTranscript,
} from './schemas.js'

const REPEAT_WINDOW_MS = 30 * 86_400_000

/** what each view of the inbox holds */
const INBOX_VIEWS: Record<InboxState, { statuses: readonly AppealStatus[], overdue?: true, mine?: true }> = {
  open: { statuses: ['assigned', 'in_work'] },
  assigned: { statuses: ['assigned'] },
  in_work: { statuses: ['in_work'] },
  answered: { statuses: ['answered'] },
  overdue: { statuses: ['assigned', 'in_work'], overdue: true },
  mine: { statuses: ['assigned', 'in_work'], mine: true },
}

export interface AppealLiveEvent { type: `appeal.${AppealAction | 'answer_checked'}`, organization_id: number | null, appeal_id: number, number: string, status: AppealStatus }

export interface AppealServiceDeps {
  repo: AppealRepo
  transaction: Transactional<AppealTxRepo>
  calendar: () => Promise<WorkingCalendar>
  rules: DeadlineRules
  clock: Clock
  publish: (event: AppealLiveEvent) => Promise<void>
  /** the same event as a message a statement sends with its commit */
  liveMessage: (event: AppealLiveEvent) => NotifyMessage
  /** a deadline was set: the deadline job looks at it in time */
  deadlineSet: (dueAt: Date) => void
  /** wakes the notification worker: a transaction put notices in the outbox */
  notify: () => void
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

type RegistrationFacts = Awaited<ReturnType<AppealRepo['registrationFacts']>>

export function createAppealService (deps: AppealServiceDeps) {
  const { repo, transaction, clock, rules } = deps
  const isCentreStaff = centreStaffCheck(repo)

  /** the caller as the lifecycle sees them */
  const actorOf = async (principal: Principal): Promise<Actor> => ({ principal, centre: await isCentreStaff(principal) })

  const announce = (row: AppealRow, action: AppealAction) => deps.publish({
    type: `appeal.${action}`, organization_id: row.executor_organization_id, appeal_id: row.id, number: row.number, status: row.status,
  })

  /**
   * An executor must be an active organization; its employee must work there. `executorActive`: null
   * when there is no such organization; `employeeOrganization`: null when there is no such employee,
   * 0 when the employee has no organization.
   */
  function executorProblemsOf (facts: Pick<RegistrationFacts, 'executorActive' | 'employeeOrganization'>, organizationId: number | undefined, employeeId: number | null | undefined, at: string[]): FieldError[] {
    const out: FieldError[] = []
    if (organizationId !== undefined && facts.executorActive === null) out.push(problem([...at, 'executor_organization_id'], `Organization ${organizationId} does not exist`, organizationId))
    if (organizationId !== undefined && facts.executorActive === false) out.push(problem([...at, 'executor_organization_id'], `Organization ${organizationId} is inactive`, organizationId))
    if (employeeId != null) {
      if (facts.employeeOrganization === null) out.push(problem([...at, 'executor_employee_id'], `Employee ${employeeId} does not exist`, employeeId))
      else if (organizationId !== undefined && facts.employeeOrganization !== organizationId) {
        out.push(problem([...at, 'executor_employee_id'], `Employee ${employeeId} does not work in organization ${organizationId}`, employeeId))
      }
    }
    return out
  }

  /** executorProblemsOf with the facts read in the caller's transaction */
  async function executorProblems (on: AppealTxRepo, organizationId: number | undefined, employeeId: number | null | undefined, at: string[]): Promise<FieldError[]> {
    const [org, employeeOrg] = await Promise.all([
      organizationId === undefined ? undefined : on.organization(organizationId),
      employeeId == null ? undefined : on.employeeOrganization(employeeId),
    ])
    const facts = { executorActive: org?.is_active ?? null, employeeOrganization: employeeOrg === undefined ? null : employeeOrg ?? 0 }
    return executorProblemsOf(facts, organizationId, employeeId, at)
  }

  function referenceProblems (input: AppealCreate, facts: RegistrationFacts): FieldError[] {
    const out: FieldError[] = []
    const at = (field: string) => ['body', field]
    if (!facts.subcategory?.is_active) out.push(problem(at('subcategory_id'), `Subcategory ${input.subcategory_id} does not exist or is inactive`, input.subcategory_id))
    if (!facts.source) out.push(problem(at('source_id'), `Source ${input.source_id} does not exist or is inactive`, input.source_id))
    if (!facts.method) out.push(problem(at('response_method_id'), `Response method ${input.response_method_id} does not exist or is inactive`, input.response_method_id))
    if (input.region_id != null && !facts.region) out.push(problem(at('region_id'), `Region ${input.region_id} does not exist`, input.region_id))
    const orgId = input.executor_organization_id
    if (input.executor_employee_id != null && orgId === undefined) {
      out.push(problem(at('executor_employee_id'), 'An executor employee needs executor_organization_id', input.executor_employee_id))
      return out
    }
    return [...out, ...executorProblemsOf(facts, orgId, input.executor_employee_id, ['body'])]
  }

  /** who the citizen is: an existing person, a new one (with an IIN), anonymous, or (none given) the person the call was matched to */
  async function citizenOf (input: AppealCreate, call: { person_id: number | null } | undefined, callPhone: string | null) {
    const at = ['body', 'citizen']
    const c = input.citizen ?? (call?.person_id != null ? { person_id: call.person_id } : undefined)
    if (!c) {
      throw RequestValidationError.field(at, input.call_row_id === undefined ? 'Field required: the citizen' : 'Field required: the call was not matched to a person, name the citizen', undefined, 'missing')
    }
    if (c.person_id !== undefined) {
      const person = await repo.person(c.person_id)
      if (!person) throw RequestValidationError.field([...at, 'person_id'], `Person ${c.person_id} does not exist`, c.person_id)
      return { personId: person.id, iin: null, name: person.full_name, phone: person.phone ?? callPhone, email: person.email }
    }
    if (!c.full_name) throw RequestValidationError.field([...at, 'full_name'], 'Field required: the citizen\'s name (or person_id)', undefined, 'missing')
    const contact = cleanPersonContact({ iin: c.iin ?? null, phone: c.phone ?? null, email: c.email ?? null }, clock(), at)
    const phone = contact.phone ?? callPhone
    if (!contact.iin && !phone) throw RequestValidationError.field([...at, 'phone'], 'An anonymous citizen needs a phone (or a call it came from)', undefined, 'missing')
    return { personId: null, iin: contact.iin ?? null, name: c.full_name, phone, email: contact.email ?? null }
  }

  async function register (principal: Principal, input: AppealCreate): Promise<AppealResponse> {
    const [facts, call] = await Promise.all([
      repo.registrationFacts({
        actorOrganizationId: principal.organization_id, subcategoryId: input.subcategory_id, sourceId: input.source_id, methodId: input.response_method_id,
        regionId: input.region_id, executorId: input.executor_organization_id, employeeId: input.executor_employee_id,
      }),
      input.call_row_id === undefined ? undefined : repo.call(input.call_row_id),
    ])
    const actor: Actor = { principal, centre: principal.role === 'admin' || facts.centre === true }
    if (!actor.centre) throw new ForbiddenError('Only the call centre\'s staff register appeals', 'centre_staff_only')
    const problems = referenceProblems(input, facts)
    if (input.call_row_id !== undefined && !call) problems.push(problem(['body', 'call_row_id'], `Call ${input.call_row_id} does not exist`, input.call_row_id))
    invalid(problems)
    const subcategory = facts.subcategory
    const callPhone = call?.caller_phone ? normalizeKzPhone(call.caller_phone) ?? call.caller_phone : null
    const citizen = await citizenOf(input, call, callPhone)
    const receivedAt = clock()
    const calendar = await deps.calendar()
    const due = deadlinesOf(calendar, rules, receivedAt, subcategory!)
    const isRepeat = repo.repeatFlag({
      personId: citizen.personId, phone: citizen.phone, subcategoryId: subcategory!.subcategory_id, since: new Date(receivedAt.getTime() - REPEAT_WINDOW_MS), before: receivedAt,
    })

    const executor = input.executor_organization_id === undefined
      ? undefined
      : { organizationId: input.executor_organization_id, employeeId: input.executor_employee_id ?? null, managers: facts.managers ?? [] }
    const year = Number(localDate(calendar.timeZone, receivedAt).slice(0, 4))

    const values = (personId: number | null): RegistrationValues => ({
      status,
      received_at: receivedAt,
      source_id: input.source_id,
      call_row_id: call?.id ?? null,
      person_id: personId,
      citizen_name: citizen.name,
      citizen_phone: citizen.phone,
      citizen_email: citizen.email,
      language: input.language,
      text: input.text,
      subcategory_id: subcategory!.subcategory_id,
      category_id: subcategory!.category_id,
      appeal_type_id: subcategory!.appeal_type_id,
      classifier_id: subcategory!.classifier_id,
      priority: subcategory!.priority,
      region_id: input.region_id ?? null,
      address: input.address ?? null,
      response_method_id: input.response_method_id,
      executor_organization_id: executor?.organizationId ?? null,
      executor_employee_id: executor?.employeeId ?? null,
      operator_id: principal.id,
      ...due,
      is_repeat: isRepeat,
    })
    const events = [
      { at: receivedAt, actor_id: principal.id, action: 'register' as const, to_status: 'registered' as const, payload: { call_row_id: call?.id ?? null } },
      ...(executor
        ? [{
            at: receivedAt, actor_id: principal.id, action: 'assign' as const, from_status: 'registered' as const, to_status: 'assigned' as const,
            payload: { executor_organization_id: executor.organizationId, executor_employee_id: executor.employeeId },
          }]
        : []),
    ]
    // the id and number are the statement's to give: the notices are written over them
    const notices: RegistrationNotices = (appeal) => executor ? registrationNotices({ ...appeal, ...due }, executor.managers, calendar.timeZone) : []
    // the statement fills in the id and the number, and announces the appeal with its commit
    const status = executor ? 'assigned' : 'registered'
    const announcement = deps.liveMessage({ type: `appeal.${executor ? 'assign' : 'register'}`, organization_id: executor?.organizationId ?? null, appeal_id: 0, number: '', status })
    const write = (on: AppealRepo | AppealTxRepo, personId: number | null) => on.registerAppeal(values(personId), year, events, notices, receivedAt, announcement)

    // one statement is a transaction of its own; a new person needs one around both
    const row = !citizen.iin
      ? await write(repo, citizen.personId)
      : await transaction(async (tx) => {
        const personId = await tx.insertPersonIfNew({ full_name: citizen.name, iin: citizen.iin!, phone: citizen.phone, email: citizen.email })
        if (personId === undefined) {
          const known = await tx.personByIin(citizen.iin!)
          throw new ConflictError(`A person with this IIN is registered already (id ${known?.id}, ${known?.full_name}): pass citizen.person_id`, 'person_exists')
        }
        return write(tx, personId)
      })
    deps.deadlineSet(row.work_due_at)
    if (row.status === 'assigned') deps.notify()
    return view(row, actor)
  }

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

  /** an inbox: the views' counts and a page of one view, the nearest answer deadline first */
  async function inbox (principal: Principal, q: AppealInboxQuery) {
    const actor = await actorOf(principal)
    const scope = appealExecutorScope(actor)
    if (scope !== undefined && q.executor_organization_id !== undefined && q.executor_organization_id !== scope) {
      throw RequestValidationError.field(['query', 'executor_organization_id'], 'An executor\'s staff see only their own organization\'s inbox', q.executor_organization_id)
    }
    const organizationId = scope ?? q.executor_organization_id
    const shown = INBOX_VIEWS[q.state]
    const [counts, rows] = await Promise.all([
      repo.inboxCounts(organizationId, principal.id),
      repo.inbox({
        executorOrganizationId: organizationId, statuses: shown.statuses, overdue: shown.overdue, employeeId: shown.mine ? principal.id : undefined,
        after: q.cursor ? decodeCursor(q.cursor) : undefined, limit: q.limit + 1,
      }),
    ])
    const page = rows.slice(0, q.limit)
    const last = page[page.length - 1]
    return { counts, items: page.map((r) => view(r, actor)), next_cursor: rows.length > q.limit && last ? encodeCursor(last.close_due_at, last.id) : null }
  }

  /** the appeal if the principal may see it */
  async function visibleRow (principal: Principal, id: number): Promise<AppealRow> {
    const row = await repo.find(id)
    if (!row || !canSeeAppeal(await actorOf(principal), row.executor_organization_id)) throw new NotFoundError('Appeal')
    return row
  }

  return {
    register,
    visibleRow,

    /** the numbers a call for the appeal may be placed to (its citizen's), to whoever may see it; else 404 */
    async callTarget (principal: Principal, id: number): Promise<{ appeal_id: number, person_id: number | null, phones: string[] }> {
      const row = await visibleRow(principal, id)
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

    /** the transcript of the call the appeal was registered from, to whoever may see the appeal */
    async transcript (principal: Principal, id: number): Promise<AppealTranscript> {
      const row = await visibleRow(principal, id)
      const found = row.call_row_id === null ? undefined : await repo.callTranscript(row.call_row_id)
      if (!found) throw new NotFoundError('Call of the appeal')
      const { call, chunks } = found
      const lineCall = call.call_id === null ? undefined : await repo.lineCall(call.call_id)
      return {
        call_row_id: call.id, call_id: call.call_id, caller_phone: call.caller_phone, answered_at: call.answered_at?.toISOString() ?? null,
        is_final: call.is_final, transcript: call.transcript, chunks: chunks.map((c) => ({ ...c, received_at: c.received_at.toISOString() })),
        line_call: lineCall ? lineCallView(lineCall) : null,
      }
    },

    async get (principal: Principal, id: number): Promise<AppealResponse & { history: AppealEvent[] }> {
      const actor = await actorOf(principal)
      const row = await repo.find(id)
      if (!row || !canSeeAppeal(actor, row.executor_organization_id)) throw new NotFoundError('Appeal')
      const history = (await repo.history(id)).map((e) => ({ ...e, at: e.at.toISOString() }))
      return { ...view(row, actor), history }
    },

    async list (principal: Principal, q: AppealListQuery): Promise<{ items: AppealResponse[], next_cursor: string | null }> {
      const actor = await actorOf(principal)
      const rows = await repo.list({ ...filterFor(actor, q), after: q.cursor ? decodeCursor(q.cursor) : undefined, limit: q.limit + 1 })
      const page = rows.slice(0, q.limit)
      return { items: page.map((r) => view(r, actor)), next_cursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]!.received_at, page[page.length - 1]!.id) : null }
    },

    assign: (principal: Principal, id: number, input: AppealAssign) => transition(principal, id, 'assign', assignment(input)),
    bulkAssign,
    inbox,

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
