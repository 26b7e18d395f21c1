// A new embedded database starts from the install's prepared files (src/db/fresh-image.ts), not
// from initdb: migrated as this version ships, a copy of its own, never put over a database.
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createDb } from '../src/db/client.js'
import { FRESH_DATA_DIR, prepareFreshImage } from '../src/db/fresh-image.js'
import { appliedMigrations, shippedMigrations } from '../src/db/migrate.js'

describe('a new embedded database from the prepared files', () => {
  const dirs: string[] = []
  const newDir = () => { const dir = mkdtempSync(join(tmpdir(), 'appeals-fresh-')); dirs.push(dir); return dir }
  before(() => prepareFreshImage())
  after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }) })

  it('is migrated as this version ships before any migration runs, and is a copy: what one database writes, another new one does not have', async () => {
    const first = await createDb({ dataDir: newDir() })
    assert.equal(await appliedMigrations(first), shippedMigrations())
    await first.query('insert into regions (name, kato) values ($1, $2)', ['Только в первой', '999999999'])
    await first.close()
    const second = await createDb({ dataDir: newDir() })
    assert.deepEqual(await second.query('select name from regions where kato = $1', ['999999999']), [])
    await second.close()
    assert.ok(existsSync(FRESH_DATA_DIR))
  })

  it('a copy cut short (a crash while copying) is never taken for a database: the next start copies again', async () => {
    const dir = newDir()
    mkdirSync(join(dir, 'pgdata.copying', 'base'), { recursive: true })
    writeFileSync(join(dir, 'pgdata.copying', 'PG_VERSION'), 'half')
    const database = await createDb({ dataDir: dir })
    assert.equal(await appliedMigrations(database), shippedMigrations())
    await database.close()
    assert.ok(!existsSync(join(dir, 'pgdata.copying')))
  })

  it('a data directory that holds a database keeps it: reopened, its rows are there', async () => {
    const dir = newDir()
    const database = await createDb({ dataDir: dir })
    await database.query('insert into regions (name, kato) values ($1, $2)', ['Остаётся', '888888888'])
    await database.close()
    const reopened = await createDb({ dataDir: dir })
    assert.deepEqual(await reopened.query('select name from regions where kato = $1', ['888888888']), [{ name: 'Остаётся' }])
    await reopened.close()
  })
})
