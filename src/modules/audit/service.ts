import type { Principal } from '../../lib/auth.js'
import { ForbiddenError } from '../../lib/errors.js'
import { chainHash } from './chain.js'
import type { AccessFilter, AccessRecord, AuditRepo } from './repo.js'
import type { AccessExportQuery, AccessQuery, AccessRecordResponse, ChainCheck } from './schemas.js'

const CHECK_BATCH = 1000

const filterOf = (q: Omit<AccessQuery, 'limit' | 'before_id'> | AccessExportQuery): Omit<AccessFilter, 'limit'> => ({
  actor_id: q.actor_id, subject: q.subject, subject_id: q.subject_id, action: q.action,
  from: q.from === undefined ? undefined : new Date(q.from), to: q.to === undefined ? undefined : new Date(q.to),
})

export const recordResponse = (r: AccessRecord): AccessRecordResponse => ({
  id: r.id, at: r.at.toISOString(), actor_id: r.actor_id, actor_email: r.actor_email, actor_role: r.actor_role, ip: r.ip, request_id: r.request_id,
  action: r.action, subject: r.subject, subject_ids: r.subject_ids, route: r.route, detail: r.detail, hash: r.hash,
})

/** the audit of personal data, read by the data protection officers alone (admins included: not unless granted) */
export function createAuditService ({ repo, key }: { repo: AuditRepo, key: Buffer }) {
  async function officerOnly (actor: Principal): Promise<void> {
    if (!(await repo.isOfficer(actor.id))) throw new ForbiddenError('Only data protection officers read the audit of personal data', 'data_protection_only')
  }

  return {
    async search (actor: Principal, q: AccessQuery) {
      await officerOnly(actor)
      const filter = filterOf(q)
      const [rows, total] = await Promise.all([repo.search({ ...filter, before_id: q.before_id, limit: q.limit }), repo.total(filter)])
      return { items: rows.map(recordResponse), total, next_before_id: rows.length === q.limit ? rows.at(-1)!.id : null }
    },

    /** the matching records, newest first, batch by batch (an export), at most `maxRows` */
    async exportBatches (actor: Principal, q: AccessExportQuery, maxRows: number, batch: number) {
      await officerOnly(actor)
      const filter = filterOf(q)
      const total = await repo.total(filter)
      const rows = Math.min(total, maxRows)
      async function * batches () {
        let before: number | undefined
        for (let left = rows; left > 0;) {
          const page = await repo.search({ ...filter, before_id: before, limit: Math.min(batch, left) })
          if (page.length === 0) return
          yield page
          left -= page.length
          before = page.at(-1)!.id
        }
      }
      return { rows, truncated: total > maxRows, batches: batches() }
    },

    /**
     * Walks the chain, oldest first: each record's hash must be its own fields' and its
     * predecessor's, and its predecessor the record before it. The oldest record kept is taken as
     * the start (the retention purge removes the oldest).
     */
    async check (actor: Principal): Promise<ChainCheck> {
      await officerOnly(actor)
      let checked = 0
      let firstId: number | null = null
      let last: AccessRecord | undefined
      for (;;) {
        const page = await repo.inOrder(last?.id ?? 0, CHECK_BATCH)
        for (const r of page) {
          firstId ??= r.id
          if (last && r.prev_hash !== last.hash) return { ok: false, checked, first_id: firstId, last_id: last.id, broken: { id: r.id, problem: 'missing_before' } }
          if (chainHash(key, r.prev_hash, r) !== r.hash) return { ok: false, checked, first_id: firstId, last_id: last?.id ?? null, broken: { id: r.id, problem: 'changed' } }
          checked++
          last = r
        }
        if (page.length < CHECK_BATCH) return { ok: true, checked, first_id: firstId, last_id: last?.id ?? null, broken: null }
      }
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
