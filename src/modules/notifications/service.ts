import type { NotificationChannel } from '../../db/schema/index.js'
import type { Clock } from '../../lib/clock.js'
import { ConflictError, NotFoundError } from '../../lib/errors.js'
import type { NotificationRepo, NotificationRow } from './repo.js'
import type { Notification, NotificationListQuery } from './schemas.js'

export interface NotificationServiceDeps {
  repo: NotificationRepo
  clock: Clock
  channels: NotificationChannel[]
  /** wakes the worker: a retried row is due now */
  poke: () => void
}

const view = ({ locked_until: _held, updated_at: _updated, ...n }: NotificationRow): Notification => ({
  ...n,
  next_attempt_at: n.next_attempt_at.toISOString(),
  created_at: n.created_at.toISOString(),
  sent_at: n.sent_at?.toISOString() ?? null,
})

/** The admins' view of the outbox: what waits, what was sent, what failed, and a retry. */
export function createNotificationService ({ repo, clock, channels, poke }: NotificationServiceDeps) {
  return {
    async list (q: NotificationListQuery) {
      const [rows, counts] = await Promise.all([
        repo.list({ status: q.status, channel: q.channel, appealId: q.appeal_id, beforeId: q.before_id, limit: q.limit + 1 }),
        repo.counts(),
      ])
      const page = rows.slice(0, q.limit)
      return {
        items: page.map(view),
        next_cursor: rows.length > q.limit ? page[page.length - 1]!.id : null,
        counts: { pending: counts.pending ?? 0, sent: counts.sent ?? 0, failed: counts.failed ?? 0 },
        channels,
      }
    },

    async retry (id: number) {
      const row = await repo.retry(id, clock())
      if (!row) {
        if (!await repo.find(id)) throw new NotFoundError('Notification')
        throw new ConflictError(`Notification ${id} was sent already`, 'already_sent')
      }
      poke()
      return view(row)
    },
  }
}

export type NotificationService = ReturnType<typeof createNotificationService>
