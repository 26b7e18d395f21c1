import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import type { Database } from '../src/db/client.js'
import * as schema from '../src/db/schema/index.js'
import { createTestDatabase } from './helpers/database.js'

const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => v instanceof PgTable)

describe('database schema', () => {
  let database: Database
  before(async () => { database = await createTestDatabase() })
  after(async () => { await database.close() })

  it('every column with a fixed set of values is checked by the database', () => {
    for (const table of tables) {
      const config = getTableConfig(table)
      for (const column of config.columns.filter((c) => c.enumValues && c.enumValues.length > 0)) {
        assert.ok(config.checks.some((c) => c.name === `${config.name}_${column.name}_check`), `${config.name}.${column.name} has no CHECK constraint`)
      }
    }
  })

  it('a value outside the set is refused by the database itself, whatever writes it', async () => {
    const refused = async (statement: ReturnType<typeof sql>, constraint: string) => {
      await assert.rejects(database.db.execute(statement), (err: Error & { cause?: { code?: string, constraint?: string } }) => {
        const cause = err.cause ?? (err as { code?: string, constraint?: string })
        return cause.code === '23514' && (cause.constraint === undefined || cause.constraint === constraint)
      }, constraint)
    }
    await refused(sql`insert into users (email, role) values ('x@y.kz', 'superuser')`, 'users_role_check')
    await refused(sql`insert into ext_sync_outbox (organization_id, payload, status) values (1, '{}', 'sent')`, 'ext_sync_outbox_status_check')
    await refused(sql`insert into platform_tenants (tenant_id, name, cell_id, status) values ('t', 'T', 'c', 'paused')`, 'platform_tenants_status_check')
  })
})
