import assert from 'node:assert/strict'
import { readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { cli, startService, tempDir } from './helpers/service-process.js'

// Apart from test/process.test.ts: each file has the runner's time limit, and these start the service several times.
describe('backups of the embedded database (npm run cli -- backup FILE | restore FILE)', () => {
  const admin = { email: 'root@backup.kz', password: 'Backup-passw0rd-1' }
  async function groupsOf (base: string): Promise<string[]> {
    const { access_token: token } = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })).json() as { access_token: string }
    const groups = await (await fetch(`${base}/api/shared/groups`, { headers: { authorization: `Bearer ${token}` } })).json() as { name: string }[]
    return groups.map((g) => g.name)
  }
  async function addGroup (base: string, name: string): Promise<void> {
    const { access_token: token } = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })).json() as { access_token: string }
    const res = await fetch(`${base}/api/shared/groups`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
    assert.ok(res.ok, await res.text())
  }

  it('a backup taken while the service runs comes back whole after a restore; what was written after it is gone; the replaced database is kept', async () => {
    const dir = tempDir()
    const file = join(tempDir(), 'appeals.tar.gz')
    const env = { DATA_DIR: dir, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }
    const first = startService(env)
    const base = await first.listening
    await addGroup(base, 'До резервной копии')
    const taken = await cli(['backup', file], env)
    assert.equal(taken.code, 0, taken.err)
    assert.match(taken.out, /written to .*appeals\.tar\.gz \(\d+ bytes, from the running service, pid \d+\)/)
    assert.equal(statSync(file).mode & 0o777, 0o600, 'every citizen\'s data: readable by its owner only')
    await addGroup(base, 'После резервной копии')
    const refused = await cli(['restore', file], env)
    assert.equal(refused.code, 1)
    assert.match(refused.err, /runs on .*: stop it before a restore/)
    first.child.kill('SIGTERM')
    assert.equal(await first.exited, 0)

    const restored = await cli(['restore', file], env)
    assert.equal(restored.code, 0, restored.err)
    assert.match(restored.out, /restored into .*; the database it replaced is kept in .*pgdata\.replaced-/)
    const second = startService(env)
    const names = await groupsOf(await second.listening)
    assert.ok(names.includes('До резервной копии'), names.join())
    assert.ok(!names.includes('После резервной копии'), 'written after the backup: not in it')
    second.child.kill('SIGTERM')
    assert.equal(await second.exited, 0)

    // with the service stopped the CLI opens the database itself; a file it replaces gives it no mode of its own
    writeFileSync(`${file}.2`, 'an older backup, readable by all', { mode: 0o644 })
    const offline = await cli(['backup', `${file}.2`], env)
    assert.equal(offline.code, 0, offline.err)
    assert.equal(statSync(`${file}.2`).mode & 0o777, 0o600)
    assert.match(offline.out, /the service stopped/)
  })

  it('refused, changing nothing: a file that is not a backup, no file named, a PostgreSQL database (pg_dump and pg_restore are its tools)', async () => {
    const dir = tempDir()
    const junk = join(tempDir(), 'junk.tar.gz')
    writeFileSync(junk, 'not a backup at all')
    const env = { DATA_DIR: dir }
    assert.equal((await cli(['migrate'], env)).code, 0)
    const bad = await cli(['restore', junk], env)
    assert.equal(bad.code, 1)
    assert.match(bad.err, /not a gzip'd backup/)
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('pgdata')), ['pgdata'], 'the database is left where it was')
    const none = await cli(['backup'], env)
    assert.equal(none.code, 1)
    assert.match(none.err, /usage: npm run cli -- backup FILE/)
    const postgres = await cli(['backup', junk], { DATABASE_URL: 'postgresql://u:p@127.0.0.1:1/db' })
    assert.equal(postgres.code, 1)
    assert.match(postgres.err, /PostgreSQL database with pg_dump/)
  })
})
