// The PBX applies itself when a row it is written from changes: triggers on those tables mark it
// changed (drizzle/0055_pbx_apply.sql). This ties the triggers to what the generator reads, so a
// new input to the generator without its trigger (or a trigger left on a table it no longer reads) fails here.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Logger } from 'drizzle-orm'
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type { AppDb, Database } from '../../src/db/client.js'
import * as schema from '../../src/db/schema/index.js'
import { outboundRoutes, outboundRouteTrunks, trunks } from '../../src/db/schema/index.js'
import { loadPbxModel } from '../../src/modules/pbx/model.js'
import { createPbxRepo } from '../../src/modules/pbx/repo.js'
import { createTestDatabase } from '../helpers/database.js'
import { makeOrganization } from '../helpers/factories.js'

/** the generator's own bookkeeping: read by the apply, not written from */
const BOOKKEEPING = new Set(['pbx_versions', 'pbx_apply_state'])
/** inputs read before the generation, through their own module (the working calendar's kept copy) */
const READ_ELSEWHERE = new Set(['calendar_days'])

describe('the tables that mark the PBX changed are the tables it is written from', () => {
  let database: Database
  before(async () => {
    database = await createTestDatabase()
    const org = await makeOrganization(database.db, { prefix: '301', name: 'Акимат 301' })
    // a route over a trunk: the route's trunks are read only when there are routes
    const [trunk] = await database.db.insert(trunks).values({ name: 'Оператор связи', mode: 'ip', host: '10.20.30.40' }).returning()
    const [route] = await database.db.insert(outboundRoutes).values({ organization_id: org.id, name: 'Межгород', patterns: ['8XXXXXXXXXX'] }).returning()
    await database.db.insert(outboundRouteTrunks).values({ route_id: route!.id, position: 1, trunk_id: trunk!.id })
  })
  after(async () => { await database.close() })

  it('every table the generator reads has the triggers, and every table with them is read', async () => {
    const queries: string[] = []
    const logger: Logger = { logQuery: (query) => { queries.push(query) } }
    const client = (database.db as unknown as { $client: never }).$client
    const logged = (database.kind === 'pglite' ? drizzlePglite({ client, schema, logger }) : drizzleNodePostgres({ client, schema, logger })) as unknown as AppDb
    const repo = createPbxRepo(logged)
    const model = await loadPbxModel(repo)
    assert.equal(model.organizations.length, 1, 'an organization, so every query of the model runs')
    await repo.recording(1, 'ru')
    const read = new Set(queries.flatMap((q) => [...q.matchAll(/\b(?:from|join)\s+"([a-z_0-9]+)"/gi)].map((m) => m[1]!)))
    const triggered = new Set((await database.query<{ table: string }>(
      `select distinct c.relname as "table" from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where p.proname = 'pbx_rows_changed' and not t.tgisinternal`)).map((r) => r.table))
    assert.ok(triggered.size > 0, 'the triggers are found')
    assert.deepEqual([...read].filter((t) => !triggered.has(t) && !BOOKKEEPING.has(t)).sort(), [], 'read by the generator, with no trigger')
    assert.deepEqual([...triggered].filter((t) => !read.has(t) && !READ_ELSEWHERE.has(t)).sort(), [], 'a trigger on a table the generator does not read')
  })
})
