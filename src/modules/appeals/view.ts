import { isoOrNull } from '../../lib/clock.js'
import { allowedActions, type Actor } from './lifecycle.js'
import type { AppealRow } from './repo.js'
import type { AnswerCheck, AppealResponse } from './schemas.js'

/** an appeal as the caller sees it: its fields and the actions the caller may take on it now */
export function appealView (row: AppealRow, actor: Actor): AppealResponse {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    received_at: row.received_at.toISOString(),
    source_id: row.source_id,
    call_row_id: row.call_row_id,
    person_id: row.person_id,
    citizen_name: row.citizen_name,
    citizen_phone: row.citizen_phone,
    citizen_email: row.citizen_email,
    language: row.language,
    text: row.text,
    classifier_id: row.classifier_id,
    appeal_type_id: row.appeal_type_id,
    category_id: row.category_id,
    subcategory_id: row.subcategory_id,
    priority: row.priority,
    region_id: row.region_id,
    address: row.address,
    response_method_id: row.response_method_id,
    executor_organization_id: row.executor_organization_id,
    executor_employee_id: row.executor_employee_id,
    operator_id: row.operator_id,
    work_due_at: row.work_due_at.toISOString(),
    close_due_at: row.close_due_at.toISOString(),
    extended_until: isoOrNull(row.extended_until),
    extension_reason: row.extension_reason,
    is_overdue: row.work_overdue_at !== null || row.close_overdue_at !== null,
    work_overdue_at: isoOrNull(row.work_overdue_at),
    close_overdue_at: isoOrNull(row.close_overdue_at),
    taken_at: isoOrNull(row.taken_at),
    answer: row.answer_text === null || row.answered_at === null
      ? null
      : { text: row.answer_text, language: row.answer_language ?? row.language, attachments: row.answer_attachments ?? [], check: (row.answer_check as AnswerCheck | null) ?? null, answered_at: row.answered_at.toISOString(), call_id: row.answer_call_id },
    closed_at: isoOrNull(row.closed_at),
    rejection_kind: row.rejection_kind,
    is_repeat: row.is_repeat,
    allowed_actions: allowedActions(actor, row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}
