// Issue 5's figures: the Shape B list of 10,000 organizations (limit=1000) and the Shape S list
// filtered by oblast, beside a bare node:http server running the same SQL on the same database.
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { seedReferenceData } from '../src/db/seed/index.js'
import { benchDatabase, load, printTable, rawQuery, startBaseline, startService, type Row } from './harness.js'

export async function benchOrganizations (): Promise<void> {
  const database = await benchDatabase('organizations')
  const sql = rawQuery(database)
  await seedReferenceData(database.db)
  const regions = await sql<{ id: number, parent_id: number | null }>('select id, parent_id from regions')
  const regionIds = regions.map((r) => r.id)
  // 10,000 organizations spread over the seeded regions, each in two of ten groups, with some employees
  await sql('insert into organization_groups (name) select \'Группа \' || g from generate_series(1, 10) g')
  // a bench-only database: 10,000 organizations need more than the 1,000 three-digit prefixes
  await sql('alter table organizations drop constraint organizations_prefix_unique')
  await sql(`insert into organizations (name, prefix, region_id, modules)
    select 'Организация ' || i, lpad((i % 1000)::text, 3, '0'), (array[${regionIds.join(',')}])[1 + i % ${regionIds.length}], '{appeals}'
    from generate_series(1, 10000) i`)
  await sql(`insert into organization_group_links (organization_id, group_id)
    select o.id, g.id from organizations o join organization_groups g on g.id in (1 + o.id % 10, 1 + (o.id + 3) % 10)`)
  await sql('insert into users (email, organization_id, role) select \'op\' || i || \'@bench.kz\', 1 + i % 10000, \'operator\' from generate_series(1, 20000) i')
  await sql('insert into ext_sync_outbox (organization_id, payload, status) select id, \'{}\'::jsonb, \'synced\' from organizations')
  await sql('analyze')

  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const service = await startService(database)
  const loginRes = await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })
  const token = (await loginRes.json() as { access_token: string }).access_token
  const oblast = regions.find((r) => r.parent_id === null && regions.filter((c) => c.parent_id === r.id).length >= 4)!

  const select = `select o.id, o.name, o.prefix, o.region_id, r.name as region_name, o.modules, o.is_active, o.max_queues, o.max_operators, o.created_at,
      coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name, g.id)
        from organization_group_links l join organization_groups g on g.id = l.group_id where l.organization_id = o.id), '[]'::json) as groups,
      (select count(*) from users u where u.organization_id = o.id and u.is_active)::int as employee_count,
      x.status as ext_sync_status, x.last_error as ext_sync_error, x.synced_at as ext_synced_at
    from organizations o left join regions r on r.id = o.region_id left join ext_sync_outbox x on x.organization_id = o.id`
  const regionIndex = async () => {
    const all = await sql<{ id: number, name: string, parent_id: number | null }>('select id, name, parent_id from regions')
    const byId = new Map(all.map((r) => [r.id, r]))
    const top = (id: number) => { let r = byId.get(id)!; while (r.parent_id !== null) r = byId.get(r.parent_id)!; return r }
    return { byId, top }
  }
  const baseline = await startBaseline({
    '/b': async (url) => {
      const [rows, index] = await Promise.all([
        sql<{ id: number, name: string, prefix: string, region_id: number | null, is_active: boolean, max_queues: number, max_operators: number, created_at: Date }>(
          `${select} where o.is_active order by o.name, o.id offset 0 limit $1`, [Number(url.searchParams.get('limit'))]),
        regionIndex(),
      ])
      return rows.map((o) => {
        const region = o.region_id === null ? undefined : index.byId.get(o.region_id)
        const oblast = region ? index.top(region.id) : undefined
        return { org_name: o.name, org_prefix: o.prefix, is_active: o.is_active, max_queues: o.max_queues, max_operators: o.max_operators, id: o.id, created_at: o.created_at,
          queues_count: 0, operators_count: 0, endpoints_count: 0, routes_count: 0, oblast_id: oblast?.id ?? null, oblast_name: oblast?.name ?? null,
          city_name: region && oblast && region.id !== oblast.id ? region.name : null }
      })
    },
    '/s': async (url) => {
      const index = await regionIndex()
      const oblastId = Number(url.searchParams.get('oblast_id'))
      const under = [...index.byId.values()].filter((r) => index.top(r.id).id === oblastId).map((r) => r.id)
      const rows = await sql<{ region_id: number }>(`${select} where o.is_active and o.region_id = any($1) order by o.name, o.id`, [under])
      return rows.map((o) => {
        const region = index.byId.get(o.region_id)!
        const top = index.top(region.id)
        return { ...o, oblast_id: top.id, oblast_name: top.name, city_name: region.id !== top.id ? region.name : null }
      })
    },
  })

  const rows: Row[] = [
    { case: 'Shape B list, 10,000 organizations, limit=1000', service: await load(`${service.url}/api/organizations/?limit=1000`, { authorization: `Bearer ${token}` }), baseline: await load(`${baseline.url}/b?limit=1000`) },
    { case: `Shape S list, oblast_id (${regions.filter((r) => r.parent_id === oblast.id).length + 1} regions)`, service: await load(`${service.url}/api/shared/organizations?oblast_id=${oblast.id}`), baseline: await load(`${baseline.url}/s?oblast_id=${oblast.id}`) },
  ]
  printTable(`Organizations on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}`, rows)
  await service.app.close()
  baseline.server.close()
  await database.close()
}
