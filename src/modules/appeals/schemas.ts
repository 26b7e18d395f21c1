import { Type, type Static } from 'typebox'
import { ExportFields, Id, LocalDay, Name, Nullable, OneOf, Text, Timestamp } from '../../lib/common-schemas.js'
import { appealActions, appealLanguages, appealStatuses, rejectionKinds } from '../../db/schema/index.js'
import { ref } from '../../lib/openapi.js'
import { LineCallView } from '../line-calls/schemas.js'

export const Language = () => OneOf(appealLanguages, { description: 'kk: Kazakh, ru: Russian' })
const Reason = () => Type.String({ minLength: 1, maxLength: 1000, 'x-trim': true })
const AppealText = () => Type.String({ minLength: 1, maxLength: 20_000, 'x-trim': true })

export const AppealCitizen = Type.Object({
  person_id: Type.Optional(Id({ description: 'an existing person; the other fields are then ignored' })),
  full_name: Type.Optional(Name()),
  iin: Type.Optional(Type.String({ maxLength: 32, description: 'with an IIN a new person is created (the IIN is checked); without, the citizen stays anonymous' })),
  phone: Type.Optional(Type.String({ maxLength: 32, description: 'default: the caller\'s phone of the call' })),
  email: Type.Optional(Type.String({ maxLength: 254 })),
}, { $id: 'AppealCitizen', additionalProperties: false })

export const AppealCreate = Type.Object({
  /** absent: the person the call (`call_row_id`) was matched to by its phone */
  citizen: Type.Optional(ref(AppealCitizen)),
  source_id: Id(),
  language: Language(),
  text: AppealText(),
  subcategory_id: Id({ description: 'the classification: its category, appeal type and classifier follow' }),
  region_id: Type.Optional(Nullable(Id())),
  address: Type.Optional(Nullable(Text(500))),
  response_method_id: Id(),
  executor_organization_id: Type.Optional(Id({ description: 'given: the appeal is assigned at once' })),
  executor_employee_id: Type.Optional(Id()),
  call_row_id: Type.Optional(Id({ description: 'the `id` of the call it came from (GET /api/call-events/calls: not its telephony `call_id`)' })),
}, { $id: 'AppealCreate', additionalProperties: false })

export const AnswerCheck = Type.Object({
  status: OneOf(['pending', 'done', 'failed', 'unavailable'] as const, {
    description: 'pending: the service is reviewing it (an `appeal.answer_checked` live event follows); done; failed: the model did not give a valid review; unavailable: no LLM provider is configured',
  }),
  source: OneOf(['service', 'console'] as const, { description: 'service: reviewed by this service after the answer; console: the result the answering client sent' }),
  result: Nullable(Type.Object({}, { additionalProperties: true, description: 'the check-response result (points, verdict, missing, ...)' })),
  provider: Nullable(Type.String()),
  model: Nullable(Type.String()),
  error: Nullable(Type.String()),
  checked_at: Nullable(Timestamp()),
}, { $id: 'AnswerCheck' })

export const AppealAnswerView = Type.Object({
  text: Type.String(),
  language: Language(),
  attachments: Type.Array(Type.Object({ name: Type.String(), size: Type.Integer(), content_type: Type.String() })),
  check: Type.Unsafe<Static<typeof AnswerCheck> | null>({ anyOf: [{ $ref: 'AnswerCheck#' }, { type: 'null' }], description: 'the LLM review of the reply (check-response); a failed review never blocks the answer' }),
  answered_at: Timestamp(),
  call_id: Nullable(Type.Integer({ description: 'the call placed for the appeal that the answer was given in (/api/calls/{call_id}); null: none named' })),
})

export const AppealResponse = Type.Object({
  id: Type.Integer(),
  number: Type.String({ description: '109-YYYY-NNNNNN' }),
  status: OneOf(appealStatuses),
  received_at: Timestamp(),
  source_id: Type.Integer(),
  call_row_id: Nullable(Type.Integer({ description: 'the `id` of the call it came from (call events)' })),
  person_id: Nullable(Type.Integer()),
  citizen_name: Type.String(),
  citizen_phone: Nullable(Type.String()),
  citizen_email: Nullable(Type.String()),
  language: Language(),
  text: Type.String(),
  classifier_id: Type.Integer(),
  appeal_type_id: Type.Integer(),
  category_id: Type.Integer(),
  subcategory_id: Type.Integer(),
  priority: Type.Integer(),
  region_id: Nullable(Type.Integer()),
  address: Nullable(Type.String()),
  response_method_id: Type.Integer(),
  executor_organization_id: Nullable(Type.Integer()),
  executor_employee_id: Nullable(Type.Integer()),
  operator_id: Nullable(Type.Integer()),
  work_due_at: Timestamp(),
  close_due_at: Type.String({ format: 'date-time', description: 'the answer deadline in force (the extension\'s, once extended)' }),
  extended_until: Nullable(Timestamp()),
  extension_reason: Nullable(Type.String()),
  is_overdue: Type.Boolean(),
  work_overdue_at: Nullable(Timestamp()),
  close_overdue_at: Nullable(Timestamp()),
  taken_at: Nullable(Timestamp()),
  answer: Nullable(AppealAnswerView),
  closed_at: Nullable(Timestamp()),
  rejection_kind: Nullable(OneOf(rejectionKinds)),
  is_repeat: Type.Boolean({ description: 'the same citizen appealed on the same subcategory within 30 days before' }),
  allowed_actions: Type.Array(OneOf(appealActions), { description: 'what the caller may do with the appeal now' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
}, { $id: 'AppealResponse' })

export const AppealEvent = Type.Object({
  id: Type.Integer(),
  at: Timestamp(),
  actor_id: Nullable(Type.Integer()),
  actor_name: Nullable(Type.String({ description: 'who took the step (surname and name); null: the service itself (a deadline missed)' })),
  action: OneOf(appealActions),
  from_status: Nullable(OneOf(appealStatuses)),
  to_status: OneOf(appealStatuses),
  reason: Nullable(Type.String()),
  payload: Type.Object({}, { additionalProperties: true }),
}, { $id: 'AppealEvent' })

export const AppealDetail = Type.Intersect([ref(AppealResponse), Type.Object({ history: Type.Array(ref(AppealEvent)) })], { $id: 'AppealDetail' })

export const AppealTranscript = Type.Object({
  call_row_id: Type.Integer({ description: 'the call\'s `id` (call events)' }),
  call_id: Nullable(Type.String({ description: 'the telephony\'s id of the call (the `call_id` the transcription sender gave)' })),
  caller_phone: Nullable(Type.String()),
  answered_at: Nullable(Type.String({ format: 'date-time' })),
  is_final: Type.Boolean({ description: 'the final chunk has arrived' }),
  transcript: Type.String(),
  chunks: Type.Array(Type.Object({ seq: Type.Integer(), channel: Type.String(), chunk_text: Type.String(), is_final: Type.Boolean(), received_at: Type.String({ format: 'date-time' }) })),
  line_call: Type.Union([ref(LineCallView), Type.Null()], { description: 'the call\'s record as Asterisk\'s events kept it (queue, wait, who answered, talk); null for a call not seen on the line' }),
}, { $id: 'AppealTranscript' })

export const AppealPage = Type.Object({
  items: Type.Array(ref(AppealResponse)),
  next_cursor: Nullable(Type.String({ description: 'pass as `cursor` for the next page; null on the last' })),
}, { $id: 'AppealPage' })

const Cursor = () => Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })
const DateTimeQuery = () => Type.String({ format: 'date-time' })

const filterFields = {
  status: Type.Optional(OneOf(appealStatuses)),
  executor_organization_id: Type.Optional(Id()),
  region_id: Type.Optional(Id({ description: 'the region or any region directly under it' })),
  classifier_id: Type.Optional(Id()),
  appeal_type_id: Type.Optional(Id()),
  category_id: Type.Optional(Id()),
  subcategory_id: Type.Optional(Id()),
  source_id: Type.Optional(Id()),
  operator_id: Type.Optional(Id()),
  person_id: Type.Optional(Id()),
  overdue: Type.Optional(Type.Boolean({ description: 'true: a deadline was missed' })),
  received_from: Type.Optional(DateTimeQuery()),
  received_to: Type.Optional(DateTimeQuery()),
  iin: Type.Optional(Type.String({ maxLength: 12, pattern: '^\\d{12}$' })),
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'a registration number or its end (`000001`), the applicant\'s IIN or phone, or words of the applicant\'s name and the text (Russian stems and exact words)' })),
}

export const AppealWorkplace = Type.Object({
  centre_staff: Type.Boolean({ description: 'staff of a call-centre organization (or an admin): sees every appeal' }),
  registers: Type.Boolean({ description: 'may register appeals (POST /api/appeals): the centre\'s staff' }),
  organization_id: Nullable(Type.Integer({ description: 'an executor\'s appeals are those assigned to this organization' })),
}, { $id: 'AppealWorkplace' })

/** the inbox's views of an executor's appeals in hand: open = assigned or in work */
export const inboxStates = ['open', 'assigned', 'in_work', 'answered', 'overdue', 'mine'] as const
export type InboxState = typeof inboxStates[number]

export const AppealInboxQuery = Type.Object({
  state: OneOf(inboxStates, { default: 'open', description: 'open: assigned or in work; overdue: open and past a deadline; mine: open and assigned to the caller' }),
  executor_organization_id: Type.Optional(Id({ description: 'whose inbox (the centre\'s staff and admins; absent: every executor\'s); an executor\'s staff always see their own organization\'s' })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Cursor()),
})

export const AppealInbox = Type.Object({
  counts: Type.Object({
    assigned: Type.Integer({ description: 'assigned, not yet taken into work' }),
    in_work: Type.Integer(),
    answered: Type.Integer({ description: 'answered, awaiting the centre (closed or returned)' }),
    overdue: Type.Integer({ description: 'assigned or in work, past a deadline' }),
    mine: Type.Integer({ description: 'assigned or in work, assigned to the caller' }),
  }),
  items: Type.Array(ref(AppealResponse), { description: 'the nearest answer deadline first (close_due_at, then id)' }),
  next_cursor: Nullable(Type.String({ description: 'pass as `cursor` for the next page; null on the last' })),
}, { $id: 'AppealInbox' })

export const AppealListQuery = Type.Object({
  ...filterFields,
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Cursor()),
})

export const AppealExportQuery = Type.Object({
  ...filterFields,
  ...ExportFields(),
})

export const AppealStatsQuery = Type.Object({
  ...filterFields,
  date_from: Type.Optional(LocalDay('first day of the period, in the centre\'s zone; default: 29 days before date_to')),
  date_to: Type.Optional(LocalDay('last day of the period (included); default: today')),
  classification_level: OneOf(['appeal_type', 'category', 'subcategory'] as const, { default: 'category', description: 'the level by_classification groups by' }),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'groups per dimension, the most received first' }),
})

const measureFields = {
  received: Type.Integer({ description: 'registered in the period' }),
  answered: Type.Integer({ description: 'answered in the period' }),
  answered_on_time: Type.Integer({ description: 'answered in the period by the answer deadline in force' }),
  on_time_rate: Nullable(Type.Number({ description: 'answered_on_time / answered; null when none was answered' })),
  closed: Type.Integer({ description: 'closed in the period' }),
  overdue: Type.Integer({ description: 'registered in the period and past a deadline' }),
  median_hours_to_close: Nullable(Type.Number({ description: 'from registration to closing, of those closed in the period' })),
}
export const AppealStatsGroup = Type.Object({ id: Nullable(Type.Integer()), name: Nullable(Type.String()), ...measureFields }, { $id: 'AppealStatsGroup' })
export const AppealStats = Type.Object({
  date_from: Type.String({ format: 'date' }),
  date_to: Type.String({ format: 'date' }),
  time_zone: Type.String(),
  classification_level: Type.String(),
  totals: Type.Object(measureFields),
  by_day: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), received: Type.Integer(), closed: Type.Integer() }), { description: 'every day of the period' }),
  by_region: Type.Array(ref(AppealStatsGroup), { description: 'per top-level region (oblast or city); id null: no region given' }),
  by_executor: Type.Array(ref(AppealStatsGroup), { description: 'id null: not assigned yet' }),
  by_classification: Type.Array(ref(AppealStatsGroup)),
}, { $id: 'AppealStats' })

export const AppealIdParams = Type.Object({ appeal_id: Id() })

export const AppealAssign = Type.Object({
  executor_organization_id: Type.Optional(Id({ description: 'required from `registered`; a manager of the executor may only pick the employee' })),
  executor_employee_id: Type.Optional(Nullable(Id())),
}, { $id: 'AppealAssign', additionalProperties: false })
export const AppealBulkAssign = Type.Object({
  appeal_ids: Type.Array(Id(), { minItems: 1, maxItems: 100, description: 'each appeal at most once; all are assigned or none' }),
  executor_organization_id: AppealAssign.properties.executor_organization_id,
  executor_employee_id: AppealAssign.properties.executor_employee_id,
}, { $id: 'AppealBulkAssign', additionalProperties: false })
export const AppealBulkResult = Type.Object({ items: Type.Array(ref(AppealResponse), { description: 'the appeals as assigned, in the order asked' }) }, { $id: 'AppealBulkResult' })
export const AppealRedirect = Type.Object({ executor_organization_id: Id(), reason: Reason() }, { $id: 'AppealRedirect', additionalProperties: false })
export const AppealExtend = Type.Object({
  until: Type.String({ format: 'date-time', description: 'the new answer deadline: later than the current one, within the legal maximum' }),
  reason: Reason(),
}, { $id: 'AppealExtend', additionalProperties: false })
export const AppealAnswer = Type.Object({
  text: AppealText(),
  language: Language(),
  attachments: Type.Optional(Type.Array(Type.Object({
    name: Name(), size: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), content_type: Type.String({ minLength: 1, maxLength: 255 }),
  }, { additionalProperties: false }), { maxItems: 20 })),
  check: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'the check-response result the console obtained, kept with the answer; absent: the service reviews the answer itself' })),
  call_id: Type.Optional(Id({ description: 'a call placed for this appeal that reached the citizen (POST /api/calls): the answer given by phone in it' })),
}, { $id: 'AppealAnswer', additionalProperties: false })

export const AppealSuggestBody = Type.Object({
  source: Type.Optional(OneOf(['auto', 'text', 'transcript'] as const, { default: 'auto', description: 'what the model reads: auto = the call transcript when there is one, else the appeal\'s text' })),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
}, { $id: 'AppealSuggestBody', additionalProperties: false })

export const AppealSuggestion = Type.Object({
  appeal_id: Type.Integer(),
  source: OneOf(['text', 'transcript'] as const),
  truncated: Type.Boolean({ description: 'the text was longer than the LLM tasks take and was cut' }),
  summary: Type.Unsafe({ $ref: 'TaskResponse#', description: 'as POST /api/llm/tasks/summarize' }),
  classification: Type.Intersect([Type.Unsafe({ $ref: 'TaskResponse#' }), Type.Object({
    subcategory_id: Nullable(Type.Integer({ description: 'the suggested subcategory (an active one of the classifiers)' })),
    matches_current: Type.Boolean({ description: 'the suggestion is the appeal\'s subcategory' }),
  })], { description: 'as POST /api/llm/tasks/classify over the active subcategories, with the id' }),
}, { $id: 'AppealSuggestion' })
export const AppealReason = Type.Object({ reason: Reason() }, { $id: 'AppealReason', additionalProperties: false })
export const AppealReject = Type.Object({ kind: OneOf(rejectionKinds), reason: Reason() }, { $id: 'AppealReject', additionalProperties: false })

export type AppealCreate = Static<typeof AppealCreate>
export type AppealResponse = Static<typeof AppealResponse>
export type AppealTranscript = Static<typeof AppealTranscript>
export type AppealEvent = Static<typeof AppealEvent>
export type AppealListQuery = Static<typeof AppealListQuery>
export type AppealExportQuery = Static<typeof AppealExportQuery>
export type AppealStatsQuery = Static<typeof AppealStatsQuery>
export type AppealStats = Static<typeof AppealStats>
/** the filters the list, the export and the statistics share */
export type AppealFilterQuery = Omit<AppealListQuery, 'limit' | 'cursor'>
export type AppealAssign = Static<typeof AppealAssign>
export type AppealBulkAssign = Static<typeof AppealBulkAssign>
export type AppealInboxQuery = Static<typeof AppealInboxQuery>
export type AppealInbox = Static<typeof AppealInbox>
export type AppealRedirect = Static<typeof AppealRedirect>
export type AppealExtend = Static<typeof AppealExtend>
export type AppealAnswer = Static<typeof AppealAnswer>
export type AppealReject = Static<typeof AppealReject>
export type AnswerCheck = Static<typeof AnswerCheck>
export type AppealSuggestBody = Static<typeof AppealSuggestBody>

export const schemas = [AppealWorkplace, AppealTranscript, AppealStatsGroup, AppealStats, AnswerCheck, AppealSuggestBody, AppealSuggestion, AppealCitizen, AppealCreate, AppealResponse, AppealEvent, AppealDetail, AppealPage, AppealInbox, AppealAssign, AppealBulkAssign, AppealBulkResult, AppealRedirect, AppealExtend, AppealAnswer, AppealReason, AppealReject]
