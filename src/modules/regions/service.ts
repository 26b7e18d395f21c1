import type { Transactional } from '../../db/client.js'
import { ConflictError, NotFoundError, RequestValidationError, type FieldError } from '../../lib/errors.js'
import type { RegionRepo, RegionRow } from './repo.js'
import type { RegionCreate, RegionResponse, RegionTreeItem, RegionUpdate } from './schemas.js'

const NATIONAL_NUMBER_DIGITS = 10
const ZONE_MIN = 710
const ZONE_MAX = 729

interface PhoneFields { phone_code: string | null, phone_zone: string | null, local_digits: number | null }

/**
 * Kazakhstan's numbering (DESIGN 5.3): the zone is 710-729 and a prefix of the code, and the code plus
 * the local number make 10 digits. Missing zone and local digits are derived from the code.
 */
export function checkPhoneFields (input: PhoneFields): PhoneFields {
  const out = { ...input }
  const problems: FieldError[] = []
  const problem = (field: string, msg: string) => problems.push({ type: 'value_error', loc: ['body', field], msg, input: Object.entries(input).find(([k]) => k === field)?.[1] })
  if (out.phone_code !== null) {
    if (!out.phone_code.startsWith('7')) problem('phone_code', 'Area code of Kazakhstan starts with 7 (without +7 or 8)')
    out.phone_zone ??= out.phone_code.slice(0, 3)
    out.local_digits ??= NATIONAL_NUMBER_DIGITS - out.phone_code.length
    if (!out.phone_code.startsWith(out.phone_zone)) problem('phone_zone', `Zone ${out.phone_zone} is not a prefix of the area code ${out.phone_code}`)
    if (out.phone_code.length + out.local_digits !== NATIONAL_NUMBER_DIGITS) {
      problem('local_digits', `Area code ${out.phone_code} leaves ${NATIONAL_NUMBER_DIGITS - out.phone_code.length} local digits, not ${out.local_digits}`)
    }
  }
  if (out.phone_zone !== null && (Number(out.phone_zone) < ZONE_MIN || Number(out.phone_zone) > ZONE_MAX)) {
    problem('phone_zone', `Zone must be from ${ZONE_MIN} to ${ZONE_MAX}`)
  }
  if (problems.length > 0) throw new RequestValidationError(problems)
  return out
}

/** The regions with what derives from their ancestors, built once per read of the (small) table. */
export function indexRegions (rows: RegionRow[]) {
  const byId = new Map(rows.map((r) => [r.id, r]))
  const ancestors = (r: RegionRow): RegionRow[] => {
    const chain: RegionRow[] = []
    for (let p = r.parent_id === null ? undefined : byId.get(r.parent_id); p && chain.length < 64; p = p.parent_id === null ? undefined : byId.get(p.parent_id)) chain.push(p)
    return chain
  }
  const fullPhoneCode = (r: RegionRow) => {
    const code = r.phone_code ?? ancestors(r).find((a) => a.phone_code !== null)?.phone_code
    return code ? `+7${code}` : null
  }
  const toResponse = (r: RegionRow): RegionResponse => ({
    id: r.id, name: r.name, phone_code: r.phone_code, phone_zone: r.phone_zone, parent_id: r.parent_id,
    parent_name: r.parent_id === null ? null : byId.get(r.parent_id)?.name ?? null, full_phone_code: fullPhoneCode(r),
    sort_order: r.sort_order, is_active: r.is_active, local_digits: r.local_digits, is_regional_center: r.is_regional_center,
  })
  /** the top-level region (oblast) a region belongs to, itself when it is one */
  const oblastOf = (r: RegionRow): RegionRow => ancestors(r).at(-1) ?? r
  return { byId, ancestors, fullPhoneCode, toResponse, oblastOf }
}

type TreeRow = Pick<RegionRow, 'id' | 'name' | 'parent_id' | 'phone_code' | 'phone_zone' | 'is_active'>

function tree (rows: TreeRow[], includeInactive: boolean): RegionTreeItem[] {
  const visible = rows.filter((r) => includeInactive || r.is_active)
  const ids = new Set(visible.map((r) => r.id))
  const children = new Map<number | null, TreeRow[]>()
  for (const r of visible) {
    // the child of a hidden region is hidden with it
    const parent = r.parent_id !== null && !ids.has(r.parent_id) ? undefined : r.parent_id
    if (parent === undefined) continue
    children.set(parent, [...(children.get(parent) ?? []), r])
  }
  const build = (parent: number | null): RegionTreeItem[] => (children.get(parent) ?? []).map((r) => ({
    id: r.id, name: r.name, phone_code: r.phone_code, phone_zone: r.phone_zone, is_active: r.is_active, children: build(r.id),
  }))
  return build(null)
}

export function createRegionService ({ repo, transaction }: { repo: RegionRepo, transaction: Transactional<RegionRepo> }) {
  async function get (id: number): Promise<RegionResponse> {
    const row = await repo.findById(id)
    if (!row) throw new NotFoundError('Region')
    return indexRegions(await repo.all()).toResponse(row)
  }

  async function checkParent (id: number | null, parentId: number | null | undefined): Promise<void> {
    if (parentId === null || parentId === undefined) return
    const all = await repo.all()
    const index = indexRegions(all)
    const parent = index.byId.get(parentId)
    if (!parent) throw RequestValidationError.field(['body', 'parent_id'], `Region ${parentId} does not exist`, parentId)
    if (id !== null && (parentId === id || index.ancestors(parent).some((a) => a.id === id))) {
      throw RequestValidationError.field(['body', 'parent_id'], 'A region cannot be its own ancestor', parentId)
    }
  }

  return {
    get,
    async list (query: { parent_id?: number, top_level: boolean, include_inactive: boolean }): Promise<RegionResponse[]> {
      const index = indexRegions(await repo.all())
      return [...index.byId.values()]
        .filter((r) => (query.include_inactive || r.is_active) &&
          (!query.top_level || r.parent_id === null) &&
          (query.parent_id === undefined || r.parent_id === query.parent_id))
        .map(index.toResponse)
    },
    tree: async (includeInactive: boolean) => tree(await repo.treeRows(includeInactive), includeInactive),

    /** RegionItem for the references: active regions, each oblast followed by its children */
    async items () {
      const rows = await repo.all()
      const index = indexRegions(rows)
      const flat: RegionRow[] = []
      const walk = (items: RegionTreeItem[]) => items.forEach((i) => { flat.push(index.byId.get(i.id)!); walk(i.children) })
      walk(tree(rows, false))
      return flat.map((r) => ({ id: r.id, name: r.name, phone_code: r.phone_code, parent_id: r.parent_id, full_phone_code: index.fullPhoneCode(r) }))
    },

    async create (input: RegionCreate): Promise<RegionResponse> {
      await checkParent(null, input.parent_id)
      const phone = checkPhoneFields({ phone_code: input.phone_code ?? null, phone_zone: input.phone_zone ?? null, local_digits: input.local_digits ?? null })
      const parentId = input.parent_id ?? null
      const row = await repo.insert({ ...input, ...phone, parent_id: parentId, sort_order: await repo.nextSortOrder(parentId) })
      return get(row.id)
    },

    async update (id: number, input: RegionUpdate): Promise<RegionResponse> {
      const current = await repo.findById(id)
      if (!current) throw new NotFoundError('Region')
      await checkParent(id, input.parent_id)
      const phone = checkPhoneFields({
        phone_code: input.phone_code === undefined ? current.phone_code : input.phone_code,
        phone_zone: input.phone_zone === undefined ? (input.phone_code === undefined ? current.phone_zone : null) : input.phone_zone,
        local_digits: input.local_digits === undefined ? (input.phone_code === undefined ? current.local_digits : null) : input.local_digits,
      })
      await repo.update(id, { ...input, ...phone })
      return get(id)
    },

    async remove (id: number) {
      if (!await repo.findById(id)) throw new NotFoundError('Region')
      const { children, organizations } = await repo.dependents(id)
      if (children > 0 || organizations > 0) {
        const what = [children > 0 ? `${children} child regions` : '', organizations > 0 ? `${organizations} organizations` : ''].filter(Boolean).join(' and ')
        throw new ConflictError(`Region ${id} still has ${what}`, 'still_referenced')
      }
      await repo.remove(id)
      return { message: 'Region deleted' }
    },

    /** the given siblings first, in the given order; their other siblings keep their order after them */
    async reorder (regionIds: number[]) {
      const found = await repo.findByIds(regionIds)
      const missing = regionIds.filter((id) => !found.some((r) => r.id === id))
      if (missing.length > 0) throw RequestValidationError.field(['body', 'region_ids'], `Unknown region ids: ${missing.join(', ')}`, regionIds)
      const parents = new Set(found.map((r) => r.parent_id))
      if (parents.size > 1) throw RequestValidationError.field(['body', 'region_ids'], 'The regions must share one parent', regionIds)
      const parentId = found[0]!.parent_id
      await transaction(async (tx) => {
        const rest = (await tx.siblings(parentId)).filter((r) => !regionIds.includes(r.id)).map((r) => r.id)
        for (const [position, id] of [...regionIds, ...rest].entries()) await tx.setSortOrder(id, position)
      })
      return { message: 'Regions reordered', parent_id: parentId, region_ids: regionIds }
    },
  }
}

export type RegionService = ReturnType<typeof createRegionService>
