// The register's filters and pages: a query's filters narrowed to what the caller may see, and the
// keyset cursors of the list (newest first: received_at, then id) and the inbox (close_due_at, then id).
import { appealExecutorScope } from '../../lib/access.js'
import { RequestValidationError } from '../../lib/errors.js'
import { normalizeKzPhone } from '../../lib/phone.js'
import type { Actor } from './lifecycle.js'
import type { AppealFilter } from './repo.js'
import type { AppealFilterQuery } from './schemas.js'

/** a keyset cursor: the last row's ordering instant and id */
export function encodeCursor (at: Date, id: number): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url')
}
export function decodeCursor (cursor: string): { at: Date, id: number } {
  const [text, id] = Buffer.from(cursor, 'base64url').toString().split('|')
  const at = new Date(text ?? '')
  const n = Number(id)
  if (Number.isNaN(at.getTime()) || !Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
    throw RequestValidationError.field(['query', 'cursor'], 'Value is not a cursor this service gave', cursor)
  }
  return { at, id: n }
}

/** the list's filters as the repo takes them, narrowed to what the caller may see */
export function filterFor (actor: Actor, q: AppealFilterQuery): Omit<AppealFilter, 'limit'> {
  let phone: string | undefined
  if (q.phone !== undefined) {
    phone = normalizeKzPhone(q.phone)
    if (phone === undefined) throw RequestValidationError.field(['query', 'phone'], 'Value is not a valid Kazakhstan phone number', q.phone)
  }
  const text = q.q?.trim()
  const isNumber = text !== undefined && /^109-\d{4}-\d{6}$/.test(text)
  // digits (and dashes) may be a number's tail, `000001` or `2026-000001`, as well as words of the text
  const numberTail = !isNumber && text !== undefined && /^[0-9][0-9-]{2,}$/.test(text) ? text : undefined
  // twelve digits may be the applicant's IIN, a phone number the applicant's phone
  const textIin = text !== undefined && /^\d{12}$/.test(text) ? text : undefined
  const textPhone = !isNumber && text ? normalizeKzPhone(text) : undefined
  return {
    visibleTo: appealExecutorScope(actor),
    status: q.status,
    executorOrganizationId: q.executor_organization_id,
    regionId: q.region_id,
    classifierId: q.classifier_id,
    appealTypeId: q.appeal_type_id,
    categoryId: q.category_id,
    subcategoryId: q.subcategory_id,
    sourceId: q.source_id,
    operatorId: q.operator_id,
    personId: q.person_id,
    overdue: q.overdue,
    receivedFrom: q.received_from ? new Date(q.received_from) : undefined,
    receivedTo: q.received_to ? new Date(q.received_to) : undefined,
    iin: q.iin,
    phone,
    number: isNumber ? text : undefined,
    numberTail,
    textIin,
    textPhone,
    words: !isNumber && text ? text : undefined,
  }
}
