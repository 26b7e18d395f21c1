import type { Transactional } from '../../db/client.js'
import type { Principal } from '../../lib/auth.js'
import { groupBy } from '../../lib/collections.js'
import { ConflictError, NotFoundError, RequestValidationError, type FieldError, invalid, problem } from '../../lib/errors.js'
import { manageableTenant } from '../../lib/tenant.js'
import { DESTINATION_KINDS, destinationColumns, destinationOf, destinationShapeProblems, destinationTarget } from './destinations.js'
import { type CallRoutingRepo, type CallRoutingTxRepo, type LineRow, type MenuRow, type QueueRow, type ScheduleRow } from './repo.js'
import type {
  Destination, LineCreate, LineResponse, LineUpdate, MenuCreate, MenuResponse, MenuUpdate, PromptResponse, QueueCreate, QueueResponse, QueueUpdate,
  ScheduleCreate, ScheduleResponse, ScheduleUpdate,
} from './schemas.js'
import { AudioError, type PromptConverter } from './prompt-audio.js'
import { WavError } from '../../lib/audio/index.js'
import { menuName, promptSound, queueName, scheduleName } from '../../integrations/asterisk/names.js'
import { usersOf, type RoutingItem } from './users.js'

type Loc = (string | number)[]

/** a destination's shape: the id its kind names, and no other (422 on the field) */
const destinationProblems = (d: Destination, at: Loc): FieldError[] =>
  destinationShapeProblems(d).map(([field, msg, input, type]) => problem([...at, field], msg, input, type))

/** what a change refers to, each with where it was given: all must be the organization's own */
interface References { destinations: { at: Loc, destination: Destination }[], prompts: { at: Loc, id: number }[], schedules: { at: Loc, id: number }[], terminals: { at: Loc, id: string }[] }
const noReferences = (): References => ({ destinations: [], prompts: [], schedules: [], terminals: [] })

/** The recorded prompts and the routes a citizen's call takes: queues, inbound lines, menus, schedules (DESIGN 9). */
export function createCallRoutingService ({ repo, transaction, converter }: { repo: CallRoutingRepo, transaction: Transactional<CallRoutingTxRepo>, converter: PromptConverter }) {
  const tenant = (actor: Principal, tenantId: number) => manageableTenant(actor, tenantId, repo.organization, 'its call routing')

  /** 422 for a malformed destination, then 409 for anything named that is not this organization's */
  async function checkReferences (organizationId: number, refs: References): Promise<void> {
    invalid(refs.destinations.flatMap(({ at, destination }) => destinationProblems(destination, at)))
    const owning = (owned: 'queue' | 'terminal' | 'menu' | 'prompt') => refs.destinations.filter((r) => DESTINATION_KINDS[r.destination.kind].owned === owned).map((r) => destinationTarget(r.destination)!)
    const wanted = {
      queue: owning('queue') as number[],
      terminal: [...owning('terminal') as string[], ...refs.terminals.map((t) => t.id)],
      menu: owning('menu') as number[],
      prompt: [...owning('prompt') as number[], ...refs.prompts.map((p) => p.id)],
      schedule: refs.schedules.map((s) => s.id),
    }
    const found = await repo.existing(organizationId, wanted)
    const missing: string[] = []
    for (const { at, destination: d } of refs.destinations) {
      const { owned, idField } = DESTINATION_KINDS[d.kind]
      if (!owned || !idField) continue
      const id = destinationTarget(d)!
      if (!(found[owned] as Set<number | string>).has(id)) missing.push(`${[...at, idField].join('.')}: ${d.kind} ${id}`)
    }
    for (const { at, id } of refs.prompts) if (!found.prompt.has(id)) missing.push(`${at.join('.')}: prompt ${id}`)
    for (const { at, id } of refs.schedules) if (!found.schedule.has(id)) missing.push(`${at.join('.')}: schedule ${id}`)
    for (const { at, id } of refs.terminals) if (!found.terminal.has(id)) missing.push(`${at.join('.')}: terminal ${id}`)
    if (missing.length > 0) throw new ConflictError(`Not of organization ${organizationId}: ${missing.join('; ')}`, 'not_in_tenant')
  }

  const iso = (d: Date) => d.toISOString()

  /** 409 naming what still uses the item (lines, menus, queues), before the database would refuse it without saying */
  async function unused (organizationId: number, item: RoutingItem, id: number): Promise<void> {
    const routing = (await repo.routingOf([organizationId])).get(organizationId)
    const users = routing ? usersOf(routing, item, id) : []
    if (users.length > 0) {
      const said = users.map((u) => `${u.kind} «${u.name}»`).join(', ')
      throw new ConflictError(`Still used by ${said}: change them first`, 'still_referenced', { used_by: users })
    }
  }

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

  async function scheduleViews (prefix: string, rows: ScheduleRow[]): Promise<ScheduleResponse[]> {
    const hours = groupBy(await repo.hoursOf(rows.map((s) => s.id)), (h) => h.schedule_id)
    return rows.map((s) => ({
      id: s.id, tenant_id: s.organization_id, asterisk_name: scheduleName(prefix, s.id), name: s.name, kind: s.kind,
      hours: (hours.get(s.id) ?? []).map((h) => ({ weekday: h.weekday, opens: h.opens.slice(0, 5), closes: h.closes.slice(0, 5) })), created_at: iso(s.created_at),
    }))
  }

  /** a weekly schedule's hours: each interval opens before it closes, and none overlaps another of its day */
  function checkHours (kind: ScheduleRow['kind'], hours: ScheduleCreate['hours']): { weekday: number, opens: string, closes: string }[] {
    if (kind !== 'weekly') {
      if (hours && hours.length > 0) throw RequestValidationError.field(['body', 'hours'], `A ${kind} schedule has no hours of its own`, hours)
      return []
    }
    const list = hours ?? []
    for (const [i, h] of list.entries()) {
      if (h.opens >= h.closes) throw RequestValidationError.field(['body', 'hours', i, 'closes'], 'Must be later than opens', h.closes)
      const overlap = list.findIndex((o, j) => j < i && o.weekday === h.weekday && o.opens < h.closes && h.opens < o.closes)
      if (overlap >= 0) throw RequestValidationError.field(['body', 'hours', i], `Overlaps ${list[overlap]!.opens}-${list[overlap]!.closes} of the same day`, h)
    }
    return list.map((h) => ({ weekday: h.weekday, opens: `${h.opens}:00`, closes: `${h.closes}:00` }))
  }

  async function menuViews (prefix: string, rows: MenuRow[]): Promise<MenuResponse[]> {
    const options = groupBy(await repo.optionsOf(rows.map((m) => m.id)), (o) => o.menu_id)
    return rows.map((m) => ({
      id: m.id, tenant_id: m.organization_id, asterisk_name: menuName(prefix, m.id), name: m.name, prompt_id: m.prompt_id, timeout: m.timeout, attempts: m.attempts,
      options: (options.get(m.id) ?? []).map((o) => ({ digit: o.digit, language: o.language, destination: destinationOf('dest', o) })),
      timeout_destination: destinationOf('timeout', m), invalid_destination: destinationOf('invalid', m), created_at: iso(m.created_at), updated_at: iso(m.updated_at),
    }))
  }

  function menuReferences (input: MenuUpdate): References {
    const refs = noReferences()
    if (input.prompt_id != null) refs.prompts.push({ at: ['body', 'prompt_id'], id: input.prompt_id })
    if (input.timeout_destination) refs.destinations.push({ at: ['body', 'timeout_destination'], destination: input.timeout_destination })
    if (input.invalid_destination) refs.destinations.push({ at: ['body', 'invalid_destination'], destination: input.invalid_destination })
    const digits = new Set<string>()
    for (const [i, o] of (input.options ?? []).entries()) {
      if (digits.has(o.digit)) throw RequestValidationError.field(['body', 'options', i, 'digit'], `Digit ${o.digit} is given twice`, o.digit)
      digits.add(o.digit)
      refs.destinations.push({ at: ['body', 'options', i, 'destination'], destination: o.destination })
    }
    return refs
  }

  const menuColumns = ({ options: _o, timeout_destination: timeout, invalid_destination: invalidDestination, ...settings }: MenuUpdate) => ({
    ...settings, ...(timeout ? destinationColumns('timeout', timeout) : {}), ...(invalidDestination ? destinationColumns('invalid', invalidDestination) : {}),
  })
  const optionRows = (input: MenuUpdate) => input.options?.map((o) => ({ digit: o.digit, language: o.language ?? null, ...destinationColumns('dest', o.destination) }))

  const lineView = (l: LineRow): LineResponse => ({
    id: l.id, tenant_id: l.organization_id, number: l.number, name: l.name, schedule_id: l.schedule_id,
    destination: destinationOf('dest', l), closed_destination: destinationOf('closed', l), recording: l.recording, recording_prompt_id: l.recording_prompt_id, language: l.language, created_at: iso(l.created_at), updated_at: iso(l.updated_at),
  })

  function lineReferences (input: LineUpdate): References {
    const refs = noReferences()
    if (input.destination) refs.destinations.push({ at: ['body', 'destination'], destination: input.destination })
    if (input.closed_destination) refs.destinations.push({ at: ['body', 'closed_destination'], destination: input.closed_destination })
    if (input.schedule_id != null) refs.schedules.push({ at: ['body', 'schedule_id'], id: input.schedule_id })
    if (input.recording_prompt_id != null) refs.prompts.push({ at: ['body', 'recording_prompt_id'], id: input.recording_prompt_id })
    return refs
  }

  const lineColumns = ({ destination, closed_destination: closed, ...settings }: LineUpdate) => ({
    ...settings, ...(destination ? destinationColumns('dest', destination) : {}), ...(closed ? destinationColumns('closed', closed) : {}),
  })

  async function promptViews (prefix: string, rows: { id: number, organization_id: number, name: string, created_at: Date }[]): Promise<PromptResponse[]> {
    const recordings = groupBy(await repo.recordingsOf(rows.map((p) => p.id)), (r) => r.prompt_id)
    return rows.map((p) => ({
      id: p.id, tenant_id: p.organization_id, name: p.name, sound: promptSound(prefix, p.id), created_at: iso(p.created_at),
      recordings: (recordings.get(p.id) ?? []).map((r) => ({ language: r.language, sample_rate: r.sample_rate, duration_ms: r.duration_ms, size_bytes: r.size_bytes, uploaded_at: iso(r.uploaded_at), source: r.source ?? null })),
    }))
  }

  const found = <T>(row: T | undefined, what: string): T => { if (!row) throw new NotFoundError(what); return row }
  const one = async <T>(views: Promise<T[]>) => (await views)[0]!

  return {
    queues: {
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
    },

    schedules: {
      async list (actor: Principal, tenantId: number) {
        const org = await tenant(actor, tenantId)
        return scheduleViews(org.prefix, await repo.schedules(tenantId))
      },
      async create (actor: Principal, tenantId: number, input: ScheduleCreate) {
        const org = await tenant(actor, tenantId)
        const hours = checkHours(input.kind, input.hours)
        const row = await transaction(async (tx) => {
          const created = await tx.insertSchedule({ organization_id: tenantId, name: input.name, kind: input.kind })
          await tx.setHours(created.id, hours)
          return created
        })
        return one(scheduleViews(org.prefix, [row]))
      },
      async update (actor: Principal, tenantId: number, id: number, input: ScheduleUpdate) {
        const org = await tenant(actor, tenantId)
        const current = found(await repo.schedule(tenantId, id), 'Schedule')
        const kind = input.kind ?? current.kind
        // hours change when given, and go when the schedule stops being weekly; a schedule that becomes weekly needs them
        if (kind === 'weekly' && current.kind !== 'weekly' && input.hours === undefined) {
          throw RequestValidationError.field(['body', 'hours'], 'Field required: a weekly schedule\'s hours', undefined, 'missing')
        }
        const hours = input.hours !== undefined || kind !== current.kind ? checkHours(kind, input.hours) : undefined
        const row = await transaction(async (tx) => {
          const updated = found(await tx.updateSchedule(tenantId, id, { ...(input.name !== undefined ? { name: input.name } : {}), kind }), 'Schedule')
          if (hours) await tx.setHours(id, hours)
          return updated
        })
        return one(scheduleViews(org.prefix, [row]))
      },
      async remove (actor: Principal, tenantId: number, id: number) {
        await tenant(actor, tenantId)
        await unused(tenantId, 'schedule', id)
        if (!await repo.removeSchedule(tenantId, id)) throw new NotFoundError('Schedule') // a schedule a line keeps is 409
      },
    },

    menus: {
      async list (actor: Principal, tenantId: number) {
        const org = await tenant(actor, tenantId)
        return menuViews(org.prefix, await repo.menus(tenantId))
      },
      async create (actor: Principal, tenantId: number, input: MenuCreate) {
        const org = await tenant(actor, tenantId)
        await checkReferences(tenantId, menuReferences(input))
        const row = await transaction(async (tx) => {
          const created = await tx.insertMenu({ ...menuColumns(input), name: input.name, organization_id: tenantId })
          await tx.setOptions(tenantId, created.id, optionRows(input) ?? [])
          return created
        })
        return one(menuViews(org.prefix, [row]))
      },
      async update (actor: Principal, tenantId: number, id: number, input: MenuUpdate) {
        const org = await tenant(actor, tenantId)
        await checkReferences(tenantId, menuReferences(input))
        const row = await transaction(async (tx) => {
          const updated = found(await tx.updateMenu(tenantId, id, menuColumns(input)), 'Menu')
          const options = optionRows(input)
          if (options) await tx.setOptions(tenantId, id, options)
          return updated
        })
        return one(menuViews(org.prefix, [row]))
      },
      async remove (actor: Principal, tenantId: number, id: number) {
        await tenant(actor, tenantId)
        await unused(tenantId, 'menu', id)
        if (!await repo.removeMenu(tenantId, id)) throw new NotFoundError('Menu')
      },
    },

    lines: {
      async list (actor: Principal, tenantId: number) {
        await tenant(actor, tenantId)
        return (await repo.lines(tenantId)).map(lineView)
      },
      async create (actor: Principal, tenantId: number, input: LineCreate) {
        await tenant(actor, tenantId)
        await checkReferences(tenantId, lineReferences(input))
        return lineView(await repo.insertLine({ ...lineColumns(input), number: input.number, name: input.name, organization_id: tenantId })) // a number in use is 409
      },
      async update (actor: Principal, tenantId: number, id: number, input: LineUpdate) {
        await tenant(actor, tenantId)
        await checkReferences(tenantId, lineReferences(input))
        return lineView(found(await repo.updateLine(tenantId, id, lineColumns(input)), 'Line'))
      },
      async remove (actor: Principal, tenantId: number, id: number) {
        await tenant(actor, tenantId)
        if (!await repo.removeLine(tenantId, id)) throw new NotFoundError('Line')
      },
    },

    prompts: {
      async list (actor: Principal, tenantId: number) {
        const org = await tenant(actor, tenantId)
        return promptViews(org.prefix, await repo.prompts(tenantId))
      },
      async create (actor: Principal, tenantId: number, name: string) {
        const org = await tenant(actor, tenantId)
        return one(promptViews(org.prefix, [await repo.insertPrompt({ organization_id: tenantId, name })]))
      },
      async rename (actor: Principal, tenantId: number, id: number, name: string) {
        const org = await tenant(actor, tenantId)
        return one(promptViews(org.prefix, [found(await repo.renamePrompt(tenantId, id, name), 'Prompt')]))
      },
      async remove (actor: Principal, tenantId: number, id: number) {
        await tenant(actor, tenantId)
        await unused(tenantId, 'prompt', id)
        if (!await repo.removePrompt(tenantId, id)) throw new NotFoundError('Prompt') // a prompt a menu, a queue or a line plays is 409
      },
      /** keeps a recording of the prompt in a language, converted from the file uploaded to what Asterisk plays */
      async upload (actor: Principal, tenantId: number, id: number, language: 'ru' | 'kk', file: Buffer) {
        const org = await tenant(actor, tenantId)
        const prompt = found(await repo.prompt(tenantId, id), 'Prompt')
        let converted
        try {
          converted = await converter.convert(file)
        } catch (err) {
          if (err instanceof AudioError || err instanceof WavError) {
            const ctx = err instanceof AudioError ? err.ctx : err.found && { found: err.found }
            throw new RequestValidationError([{ type: err.problem, loc: ['body'], msg: err.message, ...(ctx ? { ctx } : {}) }])
          }
          throw err
        }
        const { wav, sampleRate, durationMs, source, gainDb } = converted
        await repo.saveRecording({ prompt_id: id, language, sample_rate: sampleRate, duration_ms: durationMs, size_bytes: wav.length, wav, source: { ...source, gain_db: gainDb } })
        return one(promptViews(org.prefix, [prompt]))
      },
      async recording (actor: Principal, tenantId: number, id: number, language: 'ru' | 'kk') {
        await tenant(actor, tenantId)
        found(await repo.prompt(tenantId, id), 'Prompt')
        return found(await repo.recording(id, language), 'Recording')
      },
      async removeRecording (actor: Principal, tenantId: number, id: number, language: 'ru' | 'kk') {
        await tenant(actor, tenantId)
        found(await repo.prompt(tenantId, id), 'Prompt')
        if (!await repo.removeRecording(id, language)) throw new NotFoundError('Recording')
      },
    },
  }
}

export type CallRoutingService = ReturnType<typeof createCallRoutingService>
