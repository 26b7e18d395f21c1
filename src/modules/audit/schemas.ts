import { Type, type Static } from 'typebox'
import { ExportFields, Id, Nullable, OneOf } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'
import { personalDataActions, personalDataSubjects } from '../../db/schema/index.js'

const filterFields = {
  actor_id: Type.Optional(Id({ description: 'the employee who was shown the data' })),
  subject: Type.Optional(OneOf(personalDataSubjects, { description: 'what was shown' })),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:@-]+$', description: 'one appeal, person or call: the records that showed it' })),
  action: Type.Optional(OneOf(personalDataActions)),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'from this instant (ISO 8601 with an offset)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'before this instant' })),
}

export const AccessQuery = Type.Object({
  ...filterFields,
  before_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the next page: the `next_before_id` of the last one' })),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
}, { additionalProperties: false })

export const AccessExportQuery = Type.Object({ ...filterFields, ...ExportFields() }, { additionalProperties: false })

export const AccessRecordResponse = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actor_id: Nullable(Type.Integer()),
  actor_email: Nullable(Type.String()),
  actor_role: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  action: Type.String(),
  subject: Type.String(),
  subject_ids: Type.Array(Type.String()),
  route: Type.String(),
  detail: Type.Unknown({ description: 'the filter asked (a list, an export) and an export\'s count of rows' }),
  hash: Type.String(),
}, { $id: 'PersonalDataAccess' })

export const AccessPage = Type.Object({
  items: Type.Array(ref(AccessRecordResponse)),
  total: Type.Integer({ description: 'records matching the filter' }),
  next_before_id: Nullable(Type.Integer({ description: 'the next page\'s `before_id`; null on the last page' })),
}, { $id: 'PersonalDataAccessPage' })

export const ChainCheck = Type.Object({
  ok: Type.Boolean(),
  checked: Type.Integer({ description: 'records checked, oldest first' }),
  first_id: Nullable(Type.Integer()),
  last_id: Nullable(Type.Integer()),
  broken: Nullable(Type.Object({
    id: Type.Integer({ description: 'the first record that fails the check' }),
    problem: OneOf(['changed', 'missing_before'] as const, { description: 'changed: its contents differ from what was written; missing_before: records before it were removed' }),
  })),
}, { $id: 'PersonalDataChainCheck' })

export type AccessQuery = Static<typeof AccessQuery>
export type AccessExportQuery = Static<typeof AccessExportQuery>
export type AccessRecordResponse = Static<typeof AccessRecordResponse>
export type ChainCheck = Static<typeof ChainCheck>

export const schemas = [AccessRecordResponse, AccessPage, ChainCheck]
