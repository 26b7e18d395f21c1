import { and, asc, desc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm'
import { selectTuples, type AppDb } from '../../db/client.js'
import { inboundLines, menuOptions, menus, promptRecordings, prompts, queueMembers, queues, scheduleHours, schedules } from '../../db/schema/index.js'
import { organizationIdOfPrefix, organizationPrefix } from '../organizations/queries.js'
import { parseQueueName, queueName } from '../../integrations/asterisk/names.js'
import { groupBy } from '../../lib/collections.js'
import { canonicalWav, readWav } from '../../lib/audio/index.js'

/* What other modules may ask of the call routing's tables (their owner is this module). */

/** every organization has its own queue (`org<prefix>-queue`, dialled as 0 inside it, every terminal a member) from its creation */
export async function createDefaultQueue (db: AppDb, organizationId: number): Promise<void> {
  await db.insert(queues).values({ organization_id: organizationId, name: 'Очередь организации', is_default: true, all_terminals: true, ring_timeout: 20 })
}

/** the organization and the timing of a queue Asterisk names (`org<prefix>-queue`, `org<prefix>-q<id>`); undefined when the service has no such queue */
export async function queueByAsteriskName (db: AppDb, name: string): Promise<{ organization_id: number, service_level: number, wrapup_time: number, callback_retries: number, callback_retry_interval: number } | undefined> {
  const parsed = parseQueueName(name)
  if (!parsed) return undefined
  const which = parsed.queue === 'default' ? eq(queues.is_default, true) : eq(queues.id, parsed.queue)
  return (await db.select({ organization_id: queues.organization_id, service_level: queues.service_level, wrapup_time: queues.wrapup_time, callback_retries: queues.callback_retries, callback_retry_interval: queues.callback_retry_interval })
    .from(queues).where(and(eq(queues.organization_id, organizationIdOfPrefix(parsed.prefix)), which)).limit(1))[0]
}

/** the queues configured, by their Asterisk names, with their own: an organization's, or every organization's (at most `limit`) */
export async function configuredQueues (db: AppDb, organizationId: number | undefined, limit: number): Promise<{ queue: string, name: string, is_default: boolean }[]> {
  const rows = await db.select({ id: queues.id, name: queues.name, is_default: queues.is_default, prefix: organizationPrefix(queues.organization_id) }).from(queues)
    .where(organizationId === undefined ? undefined : eq(queues.organization_id, organizationId)).orderBy(asc(queues.organization_id), asc(queues.id)).limit(limit)
  return rows.map((q) => ({ queue: queueName(q.prefix, q), name: q.name, is_default: q.is_default }))
}

/** an organization's queues a call may be passed to (its own first), at most `limit` */
export const organizationQueues = (db: AppDb, organizationId: number, limit: number) =>
  db.select({ id: queues.id, name: queues.name, is_default: queues.is_default }).from(queues)
    .where(eq(queues.organization_id, organizationId)).orderBy(desc(queues.is_default), asc(queues.id)).limit(limit)

/** one of an organization's queues; undefined when it has no such queue */
export const organizationQueue = async (db: AppDb, organizationId: number, queueId: number) =>
  (await db.select({ id: queues.id, name: queues.name, is_default: queues.is_default }).from(queues)
    .where(and(eq(queues.organization_id, organizationId), eq(queues.id, queueId))))[0]

/** the organization's queues, correlated to the caller's row (Shape B's queues_count) */
export const queueCountOf = (organizationId: SQLWrapper) =>
  sql<number>`(select count(*)::int from ${queues} q where q.organization_id = ${organizationId})`

/** an organization's call routing as the PBX's files need it (DESIGN 9) */
export interface OrganizationRouting {
  queues: (Omit<typeof queues.$inferSelect, 'created_at' | 'updated_at'> & { members: { terminal_id: string, penalty: number }[] })[]
  menus: (Omit<typeof menus.$inferSelect, 'created_at' | 'updated_at'> & { options: (typeof menuOptions.$inferSelect)[] })[]
  schedules: (typeof schedules.$inferSelect & { hours: { weekday: number, opens: string, closes: string }[] })[]
  lines: (typeof inboundLines.$inferSelect)[]
  /** the prompts with a recording, and the languages and sample rates they have */
  prompts: { id: number, recordings: { language: 'ru' | 'kk', sample_rate: number, uploaded_at: Date }[] }[]
}

/** the call routing of these organizations, by organization (one query a table) */
export async function routingOf (db: AppDb, organizationIds: number[]): Promise<Map<number, OrganizationRouting>> {
  const out = new Map<number, OrganizationRouting>(organizationIds.map((id) => [id, { queues: [], menus: [], schedules: [], lines: [], prompts: [] }]))
  if (organizationIds.length === 0) return out
  // one after another: in a generation they share the transaction's one connection
  const queueRows = await db.select().from(queues).where(inArray(queues.organization_id, organizationIds)).orderBy(asc(queues.id))
  // raw: a centre's members are tens of thousands of rows, and the query builder's mapping of each field cost more than reading it
  const memberRows = await selectTuples<[queue_id: number, terminal_id: string, penalty: number]>(db,
    sql`select queue_id, terminal_id, penalty from ${queueMembers} where organization_id in ${organizationIds}`)
  const menuRows = await db.select().from(menus).where(inArray(menus.organization_id, organizationIds)).orderBy(asc(menus.id))
  const optionRows = await db.select().from(menuOptions).where(inArray(menuOptions.organization_id, organizationIds)).orderBy(asc(menuOptions.digit))
  const scheduleRows = await db.select().from(schedules).where(inArray(schedules.organization_id, organizationIds)).orderBy(asc(schedules.id))
  const hourRows = await db.select({ schedule_id: scheduleHours.schedule_id, weekday: scheduleHours.weekday, opens: scheduleHours.opens, closes: scheduleHours.closes }).from(scheduleHours)
    .innerJoin(schedules, eq(schedules.id, scheduleHours.schedule_id)).where(inArray(schedules.organization_id, organizationIds)).orderBy(asc(scheduleHours.weekday), asc(scheduleHours.opens))
  const lineRows = await db.select().from(inboundLines).where(inArray(inboundLines.organization_id, organizationIds)).orderBy(asc(inboundLines.number))
  const recordingRows = await db.select({ organization_id: prompts.organization_id, prompt_id: promptRecordings.prompt_id, language: promptRecordings.language, sample_rate: promptRecordings.sample_rate, uploaded_at: promptRecordings.uploaded_at })
    .from(promptRecordings).innerJoin(prompts, eq(prompts.id, promptRecordings.prompt_id)).where(inArray(prompts.organization_id, organizationIds))
    .orderBy(asc(promptRecordings.prompt_id), asc(promptRecordings.language))
  const members = groupBy(memberRows, ([queueId]) => queueId)
  const options = groupBy(optionRows, (o) => o.menu_id)
  const hours = groupBy(hourRows, (h) => h.schedule_id)
  for (const { created_at: _c, updated_at: _u, ...q } of queueRows) out.get(q.organization_id)!.queues.push({ ...q, members: (members.get(q.id) ?? []).map(([, terminal_id, penalty]) => ({ terminal_id, penalty })) })
  for (const { created_at: _c, updated_at: _u, ...m } of menuRows) out.get(m.organization_id)!.menus.push({ ...m, options: options.get(m.id) ?? [] })
  for (const s of scheduleRows) out.get(s.organization_id)!.schedules.push({ ...s, hours: (hours.get(s.id) ?? []).map(({ weekday, opens, closes }) => ({ weekday, opens, closes })) })
  for (const l of lineRows) out.get(l.organization_id)!.lines.push(l)
  for (const [promptId, recordings] of groupBy(recordingRows, (r) => r.prompt_id)) {
    out.get(recordings[0]!.organization_id)!.prompts.push({ id: promptId, recordings: recordings.map(({ language, sample_rate, uploaded_at }) => ({ language, sample_rate, uploaded_at })) })
  }
  return out
}

/** a prompt's recording as it was uploaded (the PBX writes it where Asterisk plays it) */
/** a prompt's recording as Asterisk is given it: behind the canonical header (kept so since migration 0040; earlier uploads are put so here) */
export const recordingFile = async (db: AppDb, promptId: number, language: 'ru' | 'kk') => {
  const wav = (await db.select({ wav: promptRecordings.wav }).from(promptRecordings).where(and(eq(promptRecordings.prompt_id, promptId), eq(promptRecordings.language, language))))[0]?.wav
  return wav === undefined ? undefined : canonicalWav(readWav(wav))
}

/** an organization's line, as another module names it */
export const lineOf = async (db: AppDb, organizationId: number, lineId: number) =>
  (await db.select({ id: inboundLines.id, number: inboundLines.number, name: inboundLines.name }).from(inboundLines)
    .where(and(eq(inboundLines.organization_id, organizationId), eq(inboundLines.id, lineId))))[0]

/** lines as a subquery to join (`line.id`, `line.number`, `line.name`, `line.organization_id`) */
export const lineDirectory = (db: AppDb) =>
  db.select({ id: inboundLines.id, number: inboundLines.number, name: inboundLines.name, organization_id: inboundLines.organization_id }).from(inboundLines).as('line')

/** whether the organization's prompt has a recording in some language (only such a prompt can be played) */
export const promptRecorded = async (db: AppDb, organizationId: number, promptId: number) =>
  (await db.select({ id: prompts.id }).from(prompts).innerJoin(promptRecordings, eq(promptRecordings.prompt_id, prompts.id))
    .where(and(eq(prompts.organization_id, organizationId), eq(prompts.id, promptId))).limit(1)).length > 0

/** a line's schedule as the dialplan follows it (null: no schedule, always open); undefined: no such line */
export async function lineSchedule (db: AppDb, number: string): Promise<{ kind: 'always' | 'weekly' | 'calendar', hours: { weekday: number, opens: string, closes: string }[] } | null | undefined> {
  const [line] = await db.select({ schedule_id: inboundLines.schedule_id, kind: schedules.kind }).from(inboundLines)
    .leftJoin(schedules, eq(schedules.id, inboundLines.schedule_id)).where(eq(inboundLines.number, number)).limit(1)
  if (!line) return undefined
  if (line.schedule_id === null || line.kind === null) return null
  const hours = line.kind === 'weekly'
    ? await db.select({ weekday: scheduleHours.weekday, opens: scheduleHours.opens, closes: scheduleHours.closes }).from(scheduleHours).where(eq(scheduleHours.schedule_id, line.schedule_id))
    : []
  return { kind: line.kind, hours }
}

/** an inbound line by its number (a call passed on to an organization's line) */
export const lineByNumber = async (db: AppDb, number: string) =>
  (await db.select({ id: inboundLines.id, organization_id: inboundLines.organization_id, name: inboundLines.name }).from(inboundLines).where(eq(inboundLines.number, number)))[0]
