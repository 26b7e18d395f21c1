import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { PersonalDataAction, PersonalDataSubject } from '../../db/schema/index.js'
import type { Clock } from '../../lib/clock.js'
import { createGroupCommit } from '../../lib/group-commit.js'
import { appendRouteHook } from '../../lib/http.js'
import type { ChainedFields } from './chain.js'
import type { AuditRepo } from './repo.js'

/** what a route that shows citizens' personal data says of its answers (its `config.personalData`) */
export interface PersonalDataRead {
  subject: PersonalDataSubject
  /** the rows the answer shows, by id (a list: every row of the page); the route's parameters beside */
  ids?: (payload: any, params: any) => Array<string | number>
  /** a file: its filter and its count of rows are recorded, not its rows */
  export?: boolean
  /** an answer that shows no row (a live board with nobody waiting, read again and again) is not recorded */
  rowsOnly?: boolean
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route's answers show personal data: each one is recorded before it leaves (modules/audit) */
    personalData?: PersonalDataRead
  }
}

/**
 * The records are written together (group commit) and each answer waits for its own: no answer
 * that shows personal data leaves unrecorded, and a busy service writes one batch for many reads.
 * A record that cannot be written fails its request.
 */
export function createAccessRecorder ({ repo, key }: { repo: Pick<AuditRepo, 'append'>, key: Buffer }) {
  const commit = createGroupCommit<ChainedFields, undefined>(async (items) => {
    await repo.append(items, key)
    return items.map(() => ({ value: undefined }))
  }, { maxItems: 500 })
  return { record: (entry: ChainedFields) => commit.submit(entry) }
}

export type AccessRecorder = ReturnType<typeof createAccessRecorder>

const queryOf = (req: FastifyRequest) => {
  const query = req.query as Record<string, unknown> | undefined
  return query && Object.keys(query).length > 0 ? query : undefined
}

function entryOf (req: FastifyRequest, read: PersonalDataRead, action: PersonalDataAction, clock: Clock, ids: Array<string | number>, detail: object | undefined): ChainedFields {
  const principal = req.principal
  return {
    at: clock(),
    actor_id: principal?.id ?? null,
    actor_email: principal?.email ?? null,
    actor_role: principal?.role ?? null,
    ip: req.ip ?? null,
    request_id: req.id,
    action,
    subject: read.subject,
    subject_ids: [...new Set(ids.map(String))],
    route: req.routeOptions.url ?? req.url,
    detail: detail ?? null,
  }
}

/**
 * Every route marked `personalData` has its successful answers recorded before they are sent: its own
 * hooks, added as it is declared (the audit module is registered before the modules it records), so
 * that the other routes run none of this.
 */
export function recordPersonalDataReads (app: FastifyInstance, recorder: AccessRecorder, clock: Clock): void {
  const succeeded = (reply: FastifyReply) => reply.statusCode < 300 && reply.statusCode !== 204
  const recordRead = (read: PersonalDataRead) => async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!succeeded(reply)) return payload
    const ids = read.ids?.(payload, req.params) ?? []
    if (read.rowsOnly && ids.length === 0) return payload
    const query = queryOf(req)
    await recorder.record(entryOf(req, read, 'read', clock, ids, query && { query }))
    return payload
  }
  const recordExport = (read: PersonalDataRead) => async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!succeeded(reply)) return payload
    const rows = Number(reply.getHeader('x-export-rows') ?? 0)
    await recorder.record(entryOf(req, read, 'export', clock, [], { query: queryOf(req) ?? {}, rows, truncated: reply.getHeader('x-export-truncated') === 'true' }))
    return payload
  }
  app.addHook('onRoute', (route: RouteOptions) => {
    const read = route.config?.personalData
    if (!read) return
    if (read.export) appendRouteHook(route, 'onSend', recordExport(read))
    else appendRouteHook(route, 'preSerialization', recordRead(read))
  })
}

/** records what a request shows outside its answer (a live stream's events): the same record as a route's */
export type ShownRecorder = (req: FastifyRequest, subject: PersonalDataSubject, ids: Array<string | number>, detail?: object) => Promise<void>

/** what the retention deleted of a subject: a record with no actor, whatever request */
export type PurgeRecorder = (subject: PersonalDataSubject, ids: Array<string | number>, detail: object) => Promise<void>

export const recordPurge = (recorder: AccessRecorder, clock: Clock): PurgeRecorder => (subject, ids, detail) => recorder.record({
  at: clock(), actor_id: null, actor_email: null, actor_role: null, ip: null, request_id: null,
  action: 'purge', subject, subject_ids: [...new Set(ids.map(String))], route: 'retention', detail,
})

export const recordShown = (recorder: AccessRecorder, clock: Clock): ShownRecorder =>
  (req, subject, ids, detail) => recorder.record(entryOf(req, { subject }, 'read', clock, ids, detail))
