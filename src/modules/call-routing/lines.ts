import type { Principal } from '../../lib/auth.js'
import { NotFoundError } from '../../lib/errors.js'
import { found, iso, noReferences, type References, type RoutingContext } from './context.js'
import { destinationColumns, destinationOf } from './destinations.js'
import type { LineRow } from './repo.js'
import type { LineCreate, LineResponse, LineUpdate } from './schemas.js'

/** A tenant's inbound lines: the number called, its schedule, and where its calls go open and closed. */
export function createLineService ({ repo, transaction, tenant, checkReferences, unused }: RoutingContext) {
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

  return {
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
  }
}
