import type { Transactional } from '../../db/client.js'
import type { Principal } from '../../lib/auth.js'
import { ConflictError, NotFoundError, invalid, problem, type FieldError } from '../../lib/errors.js'
import { manageableTenant } from '../../lib/tenant.js'
import { DESTINATION_KINDS, destinationShapeProblems, destinationTarget } from './destinations.js'
import type { CallRoutingRepo, CallRoutingTxRepo } from './repo.js'
import type { Destination } from './schemas.js'
import { usersOf, type RoutingItem } from './users.js'

export type Loc = (string | number)[]

/** what a change refers to, each with where it was given: all must be the organization's own */
export interface References { destinations: { at: Loc, destination: Destination }[], prompts: { at: Loc, id: number }[], schedules: { at: Loc, id: number }[], terminals: { at: Loc, id: string }[] }
export const noReferences = (): References => ({ destinations: [], prompts: [], schedules: [], terminals: [] })

/** a destination's shape: the id its kind names, and no other (422 on the field) */
const destinationProblems = (d: Destination, at: Loc): FieldError[] =>
  destinationShapeProblems(d).map(([field, msg, input, type]) => problem([...at, field], msg, input, type))

export const iso = (d: Date) => d.toISOString()
export const found = <T>(row: T | undefined, what: string): T => { if (!row) throw new NotFoundError(what); return row }
export const one = async <T>(views: Promise<T[]>) => (await views)[0]!

/** What every resource of the call routing shares: the store, the organization's check and the references' checks. */
export function createRoutingContext ({ repo, transaction }: { repo: CallRoutingRepo, transaction: Transactional<CallRoutingTxRepo> }) {
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

  /** 409 naming what still uses the item (lines, menus, queues), before the database would refuse it without saying */
  async function unused (organizationId: number, item: RoutingItem, id: number): Promise<void> {
    const routing = (await repo.routingOf([organizationId])).get(organizationId)
    const users = routing ? usersOf(routing, item, id) : []
    if (users.length > 0) {
      const said = users.map((u) => `${u.kind} «${u.name}»`).join(', ')
      throw new ConflictError(`Still used by ${said}: change them first`, 'still_referenced', { used_by: users })
    }
  }

  return { repo, transaction, tenant, checkReferences, unused }
}

export type RoutingContext = ReturnType<typeof createRoutingContext>
