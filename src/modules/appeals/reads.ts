// What an appeal's readers see: the register's pages, an executor's inbox, one appeal with its
// history, the transcript of the call it came from; each only to whoever may see the appeal.
import type { AppealStatus } from '../../db/schema/index.js'
import { appealExecutorScope, canSeeAppeal } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import { NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { lineCallView } from '../line-calls/queries.js'
import { decodeCursor, encodeCursor, filterFor } from './filters.js'
import type { Actor } from './lifecycle.js'
import type { AppealRepo, AppealRow } from './repo.js'
import type { AppealEvent, AppealInboxQuery, AppealListQuery, AppealResponse, AppealTranscript, InboxState } from './schemas.js'
import { appealView as view } from './view.js'

/** what each view of the inbox holds */
const INBOX_VIEWS: Record<InboxState, { statuses: readonly AppealStatus[], overdue?: true, mine?: true }> = {
  open: { statuses: ['assigned', 'in_work'] },
  assigned: { statuses: ['assigned'] },
  in_work: { statuses: ['in_work'] },
  answered: { statuses: ['answered'] },
  overdue: { statuses: ['assigned', 'in_work'], overdue: true },
  mine: { statuses: ['assigned', 'in_work'], mine: true },
}

export function createAppealReads (repo: AppealRepo, actorOf: (principal: Principal) => Promise<Actor>) {
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
    inbox,
    visibleRow,

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
  }
}
