// An appeal's registration (DESIGN 7.1): who the citizen is, whether what the operator chose
// exists and may be chosen, the deadlines, and the appeal written in one statement with its
// history, its notices and its live announcement.
import type { Transactional } from '../../db/client.js'
import type { NotifyMessage } from '../../db/notify.js'
import type { AppealAction, AppealStatus } from '../../db/schema/index.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { ConflictError, ForbiddenError, RequestValidationError, type FieldError, invalid, problem } from '../../lib/errors.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import { localDate, type WorkingCalendar } from '../calendar/index.js'
import { cleanPersonContact } from '../references/person-input.js'
import { deadlinesOf, type DeadlineRules } from './deadlines.js'
import type { Actor } from './lifecycle.js'
import { registrationNotices } from './notices.js'
import { appealView as view } from './view.js'
import type { AppealRepo, AppealTxRepo, RegistrationNotices, RegistrationValues } from './repo.js'
import type { AppealCreate, AppealResponse } from './schemas.js'

const REPEAT_WINDOW_MS = 30 * 86_400_000

export interface AppealLiveEvent { type: `appeal.${AppealAction | 'answer_checked'}`, organization_id: number | null, appeal_id: number, number: string, status: AppealStatus }

export interface AppealRegistrationDeps {
  repo: AppealRepo
  transaction: Transactional<AppealTxRepo>
  calendar: () => Promise<WorkingCalendar>
  rules: DeadlineRules
  clock: Clock
  /** the same event as a message a statement sends with its commit */
  liveMessage: (event: AppealLiveEvent) => NotifyMessage
  /** a deadline was set: the deadline job looks at it in time */
  deadlineSet: (dueAt: Date) => void
  /** wakes the notification worker: a transaction put notices in the outbox */
  notify: () => void
}

type RegistrationFacts = Awaited<ReturnType<AppealRepo['registrationFacts']>>

/**
 * An executor must be an active organization; its employee must work there. `executorActive`: null
 * when there is no such organization; `employeeOrganization`: null when there is no such employee,
 * 0 when the employee has no organization.
 */
export function executorProblemsOf (facts: Pick<RegistrationFacts, 'executorActive' | 'employeeOrganization'>, organizationId: number | undefined, employeeId: number | null | undefined, at: string[]): FieldError[] {
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
export async function executorProblems (on: AppealTxRepo, organizationId: number | undefined, employeeId: number | null | undefined, at: string[]): Promise<FieldError[]> {
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

export function createAppealRegistration (deps: AppealRegistrationDeps) {
  const { repo, transaction, clock, rules } = deps

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

  return register
}
