import type { Principal } from '../../lib/auth.js'
import { groupBy } from '../../lib/collections.js'
import { ConflictError, RequestValidationError } from '../../lib/errors.js'
import { queueName } from '../../integrations/asterisk/names.js'
import { found, iso, noReferences, one, type References, type RoutingContext } from './context.js'
import { destinationColumns, destinationOf } from './destinations.js'
import type { QueueRow } from './repo.js'
import type { QueueCreate, QueueResponse, QueueUpdate } from './schemas.js'

/** A tenant's queues: their settings, members, overflow and callback offer. */
export function createQueueService ({ repo, transaction, tenant, checkReferences, unused }: RoutingContext) {
  async function queueViews (prefix: string, rows: QueueRow[]): Promise<QueueResponse[]> {
    const members = groupBy(await repo.membersOf(rows.map((q) => q.id)), (m) => m.queue_id)
    return rows.map((q) => ({
      id: q.id, tenant_id: q.organization_id, asterisk_name: queueName(prefix, q), name: q.name, is_default: q.is_default, strategy: q.strategy,
      members: (members.get(q.id) ?? []).map((m) => ({ terminal_id: m.terminal_id, penalty: m.penalty })), all_terminals: q.all_terminals,
      ring_timeout: q.ring_timeout, retry: q.retry, wrapup_time: q.wrapup_time, max_callers: q.max_callers, service_level: q.service_level,
      music_class: q.music_class, announce_position: q.announce_position, announce_holdtime: q.announce_holdtime, periodic_prompt_id: q.periodic_prompt_id,
      periodic_announce_seconds: q.periodic_announce_seconds, max_wait: q.max_wait, overflow: destinationOf('overflow', q),
      rating_prompt_id: q.rating_prompt_id, rating_timeout: q.rating_timeout,
      callback_offer_after: q.callback_offer_after, callback_prompt_id: q.callback_prompt_id, callback_retries: q.callback_retries, callback_retry_interval: q.callback_retry_interval,
      created_at: iso(q.created_at), updated_at: iso(q.updated_at),
    }))
  }

  function queueReferences (input: QueueUpdate, self?: number): References {
    const refs = noReferences()
    if (input.overflow) {
      refs.destinations.push({ at: ['body', 'overflow'], destination: input.overflow })
      if (self !== undefined && input.overflow.kind === 'queue' && input.overflow.queue_id === self) {
        throw RequestValidationError.field(['body', 'overflow', 'queue_id'], 'A queue cannot overflow into itself', self)
      }
    }
    if (input.periodic_prompt_id != null) refs.prompts.push({ at: ['body', 'periodic_prompt_id'], id: input.periodic_prompt_id })
    if (input.rating_prompt_id != null) refs.prompts.push({ at: ['body', 'rating_prompt_id'], id: input.rating_prompt_id })
    if (input.callback_prompt_id != null) refs.prompts.push({ at: ['body', 'callback_prompt_id'], id: input.callback_prompt_id })
    const seen = new Set<string>()
    for (const [i, m] of (input.members ?? []).entries()) {
      if (seen.has(m.terminal_id)) throw RequestValidationError.field(['body', 'members', i, 'terminal_id'], `Terminal ${m.terminal_id} is listed twice`, m.terminal_id)
      seen.add(m.terminal_id)
      refs.terminals.push({ at: ['body', 'members', i, 'terminal_id'], id: m.terminal_id })
    }
    return refs
  }

  /** the callback offer is the queue's periodic announcement, and it needs its prompt (the queue as it will be) */
  function checkCallback (queue: Pick<QueueUpdate, 'callback_offer_after' | 'callback_prompt_id' | 'periodic_prompt_id'>): void {
    if (queue.callback_offer_after == null) return
    if (queue.callback_prompt_id == null) throw RequestValidationError.field(['body', 'callback_prompt_id'], 'Field required: the offer the waiting caller hears', null, 'missing')
    if (queue.periodic_prompt_id != null) {
      throw RequestValidationError.field(['body', 'callback_offer_after'], 'The callback offer is the queue\'s periodic announcement: remove the periodic prompt first', queue.callback_offer_after)
    }
  }

  const queueColumns = ({ members: _m, overflow, ...settings }: QueueUpdate) => ({ ...settings, ...(overflow ? destinationColumns('overflow', overflow) : {}) })
  const memberRows = (input: QueueUpdate) => input.members?.map((m) => ({ terminal_id: m.terminal_id, penalty: m.penalty ?? 0 }))

  return {
    async list (actor: Principal, tenantId: number) {
      const org = await tenant(actor, tenantId)
      return queueViews(org.prefix, await repo.queues(tenantId))
    },
    async get (actor: Principal, tenantId: number, id: number) {
      const org = await tenant(actor, tenantId)
      return one(queueViews(org.prefix, [found(await repo.queue(tenantId, id), 'Queue')]))
    },
    async create (actor: Principal, tenantId: number, input: QueueCreate) {
      const org = await tenant(actor, tenantId)
      checkCallback(input)
      await checkReferences(tenantId, queueReferences(input))
      const row = await transaction(async (tx) => {
        const quota = (await tx.lockOrganization(tenantId))!
        const used = await tx.queueCount(tenantId)
        if (used >= quota.max_queues) throw new ConflictError(`Organization ${tenantId} has ${used} queues, its quota (max_queues ${quota.max_queues})`, 'quota_exceeded')
        const created = await tx.insertQueue({ ...queueColumns(input), name: input.name, organization_id: tenantId })
        await tx.setMembers(tenantId, created.id, memberRows(input) ?? [])
        return created
      })
      return one(queueViews(org.prefix, [row]))
    },
    async update (actor: Principal, tenantId: number, id: number, input: QueueUpdate) {
      const org = await tenant(actor, tenantId)
      checkCallback({ ...found(await repo.queue(tenantId, id), 'Queue'), ...input })
      await checkReferences(tenantId, queueReferences(input, id))
      const row = await transaction(async (tx) => {
        const updated = found(await tx.updateQueue(tenantId, id, queueColumns(input)), 'Queue')
        const members = memberRows(input)
        if (members) await tx.setMembers(tenantId, id, members)
        return updated
      })
      return one(queueViews(org.prefix, [row]))
    },
    async remove (actor: Principal, tenantId: number, id: number) {
      await tenant(actor, tenantId)
      const queue = found(await repo.queue(tenantId, id), 'Queue')
      if (queue.is_default) throw new ConflictError('The organization\'s default queue stays: its terminals reach it by dialling 0', 'default_queue')
      await unused(tenantId, 'queue', id)
      await repo.removeQueue(tenantId, id) // a queue a line, a menu or another queue still sends calls to is 409
    },
  }
}
