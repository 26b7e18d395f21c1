import type { Principal } from '../../lib/auth.js'
import { groupBy } from '../../lib/collections.js'
import { NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { menuName } from '../../integrations/asterisk/names.js'
import { found, iso, noReferences, one, type References, type RoutingContext } from './context.js'
import { destinationColumns, destinationOf } from './destinations.js'
import type { MenuRow } from './repo.js'
import type { MenuCreate, MenuResponse, MenuUpdate } from './schemas.js'

/** A tenant's voice menus: a prompt, the digits' destinations, and where silence and a wrong digit go. */
export function createMenuService ({ repo, transaction, tenant, checkReferences, unused }: RoutingContext) {
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

  return {
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
  }
}
