import type { Principal } from '../../lib/auth.js'
import { groupBy } from '../../lib/collections.js'
import { NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { scheduleName } from '../../integrations/asterisk/names.js'
import { found, iso, one, type RoutingContext } from './context.js'
import type { ScheduleRow } from './repo.js'
import type { ScheduleCreate, ScheduleResponse, ScheduleUpdate } from './schemas.js'

/** A tenant's schedules: weekly hours, or a kind that has none. */
export function createScheduleService ({ repo, transaction, tenant, checkReferences, unused }: RoutingContext) {
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

  return {
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
  }
}
