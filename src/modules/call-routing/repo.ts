import { and, asc, count, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { inTransactionOnly, type AppDb, type TxDb } from '../../db/client.js'
import {
  inboundLines, menuOptions, menus, promptRecordings, prompts, queueMembers, queues, scheduleHours, schedules,
} from '../../db/schema/index.js'
import { routingEditorAt, terminalIdsIn } from '../endpoints/queries.js'
import { lockOrganizationQuota, organizationIdByPrefix, organizationWithTenant } from '../organizations/queries.js'
import type { DestinationColumns } from './destinations.js'
import { routingOf } from './queries.js'

const { wav: _wav, ...recordingInfo } = getTableColumns(promptRecordings)

export type QueueRow = typeof queues.$inferSelect
export type MenuRow = typeof menus.$inferSelect
export type LineRow = typeof inboundLines.$inferSelect
export type ScheduleRow = typeof schedules.$inferSelect
export type PromptRow = typeof prompts.$inferSelect
export type RecordingInfo = Omit<typeof promptRecordings.$inferSelect, 'wav'>

const ids = async (rows: Promise<{ id: number }[]>) => (await rows).map((r) => r.id)

export function createCallRoutingRepo<D extends AppDb> (db: D) {
  const inTenant = (t: { organization_id: AnyPgColumn, id: AnyPgColumn }, organizationId: number, id: number) =>
    and(eq(t.organization_id, organizationId), eq(t.id, id))
  return {
    organization: (id: number) => organizationWithTenant(db, id),
    organizationIdByPrefix: (prefix: string) => organizationIdByPrefix(db, prefix),
    routingEditorAt: (organizationId: number, terminalId: string) => routingEditorAt(db, organizationId, terminalId),
    /** the organization's row locked (its queue quota), so that two creations cannot both pass it */
    lockOrganization: inTransactionOnly(db, lockOrganizationQuota),

    /** which of the ids name things of this organization, by kind */
    existing: async (organizationId: number, wanted: { queue: number[], terminal: string[], menu: number[], prompt: number[], schedule: number[] }) => {
      const of = <T extends typeof queues | typeof menus | typeof prompts | typeof schedules>(t: T, list: number[]) =>
        list.length === 0 ? Promise.resolve([]) : ids(db.select({ id: t.id }).from(t as typeof queues).where(and(eq(t.organization_id, organizationId), inArray(t.id, list))))
      const [queue, terminal, menu, prompt, schedule] = await Promise.all([
        of(queues, wanted.queue), terminalIdsIn(db, organizationId, wanted.terminal), of(menus, wanted.menu), of(prompts, wanted.prompt), of(schedules, wanted.schedule),
      ])
      return { queue: new Set(queue), terminal: new Set(terminal), menu: new Set(menu), prompt: new Set(prompt), schedule: new Set(schedule) }
    },

    // queues

    queues: (organizationId: number) => db.select().from(queues).where(eq(queues.organization_id, organizationId)).orderBy(asc(queues.id)),
    queue: async (organizationId: number, id: number) => (await db.select().from(queues).where(inTenant(queues, organizationId, id)))[0],
    queueCount: async (organizationId: number) => (await db.select({ n: count() }).from(queues).where(eq(queues.organization_id, organizationId)))[0]!.n,
    membersOf: (queueIds: number[]) => queueIds.length === 0
      ? Promise.resolve([])
      : db.select().from(queueMembers).where(inArray(queueMembers.queue_id, queueIds)).orderBy(asc(queueMembers.penalty), asc(queueMembers.terminal_id)),
    insertQueue: async (values: typeof queues.$inferInsert) => (await db.insert(queues).values(values).returning())[0]!,
    updateQueue: async (organizationId: number, id: number, values: Partial<typeof queues.$inferInsert>) =>
      (await db.update(queues).set({ ...values, updated_at: sql`now()` }).where(inTenant(queues, organizationId, id)).returning())[0],
    async setMembers (organizationId: number, queueId: number, members: { terminal_id: string, penalty: number }[]) {
      await db.delete(queueMembers).where(eq(queueMembers.queue_id, queueId))
      if (members.length > 0) await db.insert(queueMembers).values(members.map((m) => ({ ...m, organization_id: organizationId, queue_id: queueId })))
    },
    removeQueue: async (organizationId: number, id: number) => (await db.delete(queues).where(inTenant(queues, organizationId, id)).returning({ id: queues.id })).length > 0,

    // schedules

    schedules: (organizationId: number) => db.select().from(schedules).where(eq(schedules.organization_id, organizationId)).orderBy(asc(schedules.id)),
    schedule: async (organizationId: number, id: number) => (await db.select().from(schedules).where(inTenant(schedules, organizationId, id)))[0],
    hoursOf: (scheduleIds: number[]) => scheduleIds.length === 0
      ? Promise.resolve([])
      : db.select().from(scheduleHours).where(inArray(scheduleHours.schedule_id, scheduleIds)).orderBy(asc(scheduleHours.weekday), asc(scheduleHours.opens)),
    insertSchedule: async (values: typeof schedules.$inferInsert) => (await db.insert(schedules).values(values).returning())[0]!,
    updateSchedule: async (organizationId: number, id: number, values: Partial<typeof schedules.$inferInsert>) =>
      (await db.update(schedules).set(values).where(inTenant(schedules, organizationId, id)).returning())[0],
    async setHours (scheduleId: number, hours: { weekday: number, opens: string, closes: string }[]) {
      await db.delete(scheduleHours).where(eq(scheduleHours.schedule_id, scheduleId))
      if (hours.length > 0) await db.insert(scheduleHours).values(hours.map((h) => ({ ...h, schedule_id: scheduleId })))
    },
    removeSchedule: async (organizationId: number, id: number) => (await db.delete(schedules).where(inTenant(schedules, organizationId, id)).returning({ id: schedules.id })).length > 0,

    // menus

    menus: (organizationId: number) => db.select().from(menus).where(eq(menus.organization_id, organizationId)).orderBy(asc(menus.id)),
    menu: async (organizationId: number, id: number) => (await db.select().from(menus).where(inTenant(menus, organizationId, id)))[0],
    optionsOf: (menuIds: number[]) => menuIds.length === 0
      ? Promise.resolve([])
      : db.select().from(menuOptions).where(inArray(menuOptions.menu_id, menuIds)).orderBy(asc(menuOptions.digit)),
    insertMenu: async (values: typeof menus.$inferInsert) => (await db.insert(menus).values(values).returning())[0]!,
    updateMenu: async (organizationId: number, id: number, values: Partial<typeof menus.$inferInsert>) =>
      (await db.update(menus).set({ ...values, updated_at: sql`now()` }).where(inTenant(menus, organizationId, id)).returning())[0],
    async setOptions (organizationId: number, menuId: number, options: ({ digit: string, language: 'ru' | 'kk' | null } & DestinationColumns)[]) {
      await db.delete(menuOptions).where(eq(menuOptions.menu_id, menuId))
      if (options.length > 0) await db.insert(menuOptions).values(options.map((o) => ({ ...o, organization_id: organizationId, menu_id: menuId }) as typeof menuOptions.$inferInsert))
    },
    removeMenu: async (organizationId: number, id: number) => (await db.delete(menus).where(inTenant(menus, organizationId, id)).returning({ id: menus.id })).length > 0,

    // inbound lines

    lines: (organizationId: number) => db.select().from(inboundLines).where(eq(inboundLines.organization_id, organizationId)).orderBy(asc(inboundLines.number)),
    line: async (organizationId: number, id: number) => (await db.select().from(inboundLines).where(inTenant(inboundLines, organizationId, id)))[0],
    insertLine: async (values: typeof inboundLines.$inferInsert) => (await db.insert(inboundLines).values(values).returning())[0]!,
    updateLine: async (organizationId: number, id: number, values: Partial<typeof inboundLines.$inferInsert>) =>
      (await db.update(inboundLines).set({ ...values, updated_at: sql`now()` }).where(inTenant(inboundLines, organizationId, id)).returning())[0],
    removeLine: async (organizationId: number, id: number) => (await db.delete(inboundLines).where(inTenant(inboundLines, organizationId, id)).returning({ id: inboundLines.id })).length > 0,

    // prompts

    prompts: (organizationId: number) => db.select().from(prompts).where(eq(prompts.organization_id, organizationId)).orderBy(asc(prompts.id)),
    prompt: async (organizationId: number, id: number) => (await db.select().from(prompts).where(inTenant(prompts, organizationId, id)))[0],
    recordingsOf: (promptIds: number[]): Promise<RecordingInfo[]> => promptIds.length === 0
      ? Promise.resolve([])
      : db.select(recordingInfo).from(promptRecordings).where(inArray(promptRecordings.prompt_id, promptIds)).orderBy(asc(promptRecordings.language)),
    insertPrompt: async (values: typeof prompts.$inferInsert) => (await db.insert(prompts).values(values).returning())[0]!,
    renamePrompt: async (organizationId: number, id: number, name: string) =>
      (await db.update(prompts).set({ name }).where(inTenant(prompts, organizationId, id)).returning())[0],
    /** the organization's whole routing (what uses what) */
    routingOf: (organizationIds: number[]) => routingOf(db, organizationIds),
    removePrompt: async (organizationId: number, id: number) => (await db.delete(prompts).where(inTenant(prompts, organizationId, id)).returning({ id: prompts.id })).length > 0,
    saveRecording: async (values: typeof promptRecordings.$inferInsert) => {
      await db.insert(promptRecordings).values(values).onConflictDoUpdate({
        target: [promptRecordings.prompt_id, promptRecordings.language],
        set: { sample_rate: values.sample_rate, duration_ms: values.duration_ms, size_bytes: values.size_bytes, wav: values.wav, source: values.source ?? null, uploaded_at: sql`now()` },
      })
    },
    recording: async (promptId: number, language: 'ru' | 'kk') =>
      (await db.select().from(promptRecordings).where(and(eq(promptRecordings.prompt_id, promptId), eq(promptRecordings.language, language))))[0],
    removeRecording: async (promptId: number, language: 'ru' | 'kk') =>
      (await db.delete(promptRecordings).where(and(eq(promptRecordings.prompt_id, promptId), eq(promptRecordings.language, language))).returning({ id: promptRecordings.prompt_id })).length > 0,
  }
}

export type CallRoutingRepo = ReturnType<typeof createCallRoutingRepo<AppDb>>
export type CallRoutingTxRepo = ReturnType<typeof createCallRoutingRepo<TxDb>>
