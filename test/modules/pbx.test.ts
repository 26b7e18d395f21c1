import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { readConfig } from '../helpers/asterisk-config.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'

describe('PBX configuration routes without AMI', () => {
  let t: TestApp
  let dir: string
  let admin: Record<string, string>
  let org: { id: number }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appeals-pbx-'))
    t = await buildTestApp({ env: { PBX_CONFIG_DIR: dir } })
    admin = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    const region = (await t.app.inject({ method: 'POST', url: '/api/regions', payload: { name: 'Астана', phone_code: '7172' } })).json()
    org = await makeOrganization(t.database.db, { prefix: '101', region_id: region.id, name: 'Акимат Астаны' })
    await makeOrganization(t.database.db, { prefix: '909', name: 'Неактивная', is_active: false })
    for (const extension of ['001', '002']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: `Оператор ${extension}`, extension, password: PASSWORD } })
      assert.equal(res.statusCode, 201)
    }
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('previews answer config_type, content and lines_count; inactive organizations are left out', async () => {
    for (const type of ['sip', 'queues', 'extensions']) {
      const res = await t.app.inject({ url: `/api/pbx/preview/${type}` })
      assert.equal(res.statusCode, 200)
      const p = res.json()
      assert.equal(p.config_type, type)
      assert.equal(p.lines_count, p.content.split('\n').length)
      assert.ok(!p.content.includes('909'), `${type} leaves the inactive organization out`)
    }
    const sip = (await t.app.inject({ url: '/api/pbx/preview/sip' })).json().content as string
    assert.match(sip, /\[101001\]\ntype=endpoint/)
    assert.ok(!sip.includes(PASSWORD), 'the SIP password itself is never written')
    assert.match((await t.app.inject({ url: '/api/pbx/preview/extensions' })).json().content, /exten => _XXXXXX,1/)
  })

  it('the SIP preview masks every credential for everyone, administrators too; only the file on disk has them', async () => {
    const digest = (content: string) => [...content.matchAll(/^password_digest=(?:MD5|SHA-256):(.*)$/gm)].map((m) => m[1]!)
    const manager = await login(t.app, await makeUser(t.database.db, { role: 'manager', organization_id: org.id }))
    for (const headers of [{}, manager, admin]) {
      const masked = digest((await t.app.inject({ url: '/api/pbx/preview/sip', headers })).json().content)
      assert.ok(masked.length >= 2)
      assert.ok(masked.every((d) => /^(\*{32}|\*{64})$/.test(d)), masked.join())
    }
  })

  it('generate-configs writes the three files, then keeps the previous set in a timestamped backup', async () => {
    const umask = process.umask(0o077) // a strict umask must not shut Asterisk's group out
    const first = await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' }).then((r) => r.json()).finally(() => process.umask(umask))
    assert.equal(first.success, true, JSON.stringify(first))
    assert.equal(first.outcome, 'written')
    assert.deepEqual(first.files.map((f: string) => f.split('/').at(-1)), ['extensions.conf', 'pjsip.conf', 'queues.conf'])
    assert.equal(first.backup_path, null)
    const before = readFileSync(join(dir, 'orgs', '101', 'pjsip.conf'), 'utf8')
    assert.match(readFileSync(join(dir, 'pjsip.conf'), 'utf8'), new RegExp(`^#include ${dir}/orgs/101/pjsip.conf$`, 'm'), 'the main file includes the organization\'s own')
    const digests = [...before.matchAll(/^password_digest=(MD5|SHA-256):(.*)$/gm)]
    assert.ok(digests.length >= 2 && digests.every((m) => /^[0-9a-f]+$/.test(m[2]!) && m[2]!.length === (m[1] === 'MD5' ? 32 : 64)), 'the file on disk has the credentials')
    // the digests are as good as passwords: the files are their owner's and group's (Asterisk's) only, whatever the umask
    for (const f of [...first.files as string[], join(dir, 'orgs', '101', 'pjsip.conf')]) assert.equal(statSync(f).mode & 0o777, 0o640, f)
    await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: 'Новый', extension: '003', password: PASSWORD } })
    const second = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?save_to_disk=true' })).json()
    assert.equal(second.success, true)
    assert.ok(second.backup_path?.startsWith(join(dir, 'backups')))
    assert.equal(readFileSync(join(second.backup_path, 'orgs', '101', 'pjsip.conf'), 'utf8'), before)
    for (const f of ['pjsip.conf', 'orgs/101/pjsip.conf']) assert.equal(statSync(join(second.backup_path, f)).mode & 0o777, 0o640, `backup ${f}`)
    assert.equal(statSync(second.backup_path).mode & 0o007, 0, 'others cannot even list the backup')
    assert.match(readConfig(dir, 'pjsip.conf'), /\[101003\]/)
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.tmp-')), [], 'no temporary files left')
  })

  it('generate-configs puts back a file edited by hand, leaves the unchanged files as they are, and backs up the whole set it found', async () => {
    const first = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json()
    assert.equal(first.success, true, JSON.stringify(first))
    const edited = join(dir, 'orgs', '101', 'extensions.conf')
    const generated = readFileSync(edited, 'utf8')
    writeFileSync(edited, `${generated}; edited by hand\n`)
    const untouched = statSync(join(dir, 'orgs', '101', 'queues.conf')).ino
    const res = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json()
    assert.deepEqual([res.success, res.message], [true, '1 files written'], JSON.stringify(res))
    assert.equal(readFileSync(edited, 'utf8'), generated, 'the hand edit is gone')
    assert.equal(statSync(join(dir, 'orgs', '101', 'queues.conf')).ino, untouched, 'a file whose text is the same is not written again')
    assert.equal(readFileSync(join(res.backup_path, 'orgs', '101', 'extensions.conf'), 'utf8'), `${generated}; edited by hand\n`, 'the backup has the file as it was found')
    for (const f of ['pjsip.conf', 'queues.conf', 'extensions.conf', 'orgs/101/pjsip.conf', 'orgs/101/queues.conf']) assert.ok(statSync(join(res.backup_path, f)).isFile(), `the backup holds ${f}`)
  })

  it('generate-configs renders again what was lost, and everything once the settings it was written with change; a file as it was written stays', async () => {
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json().success, true)
    const lost = join(dir, 'orgs', '101', 'queues.conf')
    const kept = readFileSync(lost, 'utf8')
    rmSync(lost)
    const untouched = statSync(join(dir, 'orgs', '101', 'pjsip.conf')).ino
    const res = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json()
    assert.deepEqual([res.success, res.message], [true, '1 files written'], JSON.stringify(res))
    assert.equal(readFileSync(lost, 'utf8'), kept, 'the lost file is back')
    assert.equal(statSync(join(dir, 'orgs', '101', 'pjsip.conf')).ino, untouched)
    // the same rows, other settings (the recordings elsewhere): no version moved, yet the files say what the settings say
    const elsewhere = '/srv/asterisk/recordings'
    const recording = await buildTestApp({ database: t.database, env: { PBX_CONFIG_DIR: dir, PBX_RECORDINGS_DIR: elsewhere } })
    try {
      const again = (await recording.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json()
      assert.equal(again.success, true, JSON.stringify(again))
      assert.match(again.message, /^[2-9] files written/, 'the main extensions.conf and the organization\'s')
      assert.ok(readFileSync(join(dir, 'orgs', '101', 'extensions.conf'), 'utf8').includes(`${elsewhere}/`), 'a prompt recorded by phone goes where the settings say')
    } finally {
      await recording.app.close()
    }
    // and back with the first settings
    assert.match((await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json().message, /^[2-9] files written/)
    assert.ok(!readFileSync(join(dir, 'orgs', '101', 'extensions.conf'), 'utf8').includes(elsewhere))
  })

  it('save_to_disk=false validates only; problems come back in errors with success false (HTTP 200), nothing written', async () => {
    const dry = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?save_to_disk=false' })).json()
    assert.deepEqual([dry.success, dry.backup_path, dry.errors, dry.outcome], [true, null, [], 'checked'])
    await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/endpoints/101001`, headers: admin, payload: { cf_busy_enabled: true, cf_busy_dest: '555' } })
    const before = readConfig(dir, 'extensions.conf')
    const res = await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })
    assert.equal(res.statusCode, 200)
    // one organization's problem keeps its last good files; the others' are written
    assert.deepEqual([res.json().success, res.json().outcome], [false, 'partly_written'])
    assert.match(res.json().errors[0], /101001: busy forwarding to 555/)
    assert.equal(readConfig(dir, 'extensions.conf'), before)
    const state = (await t.app.inject({ url: '/api/pbx/apply-state', headers: admin })).json()
    assert.deepEqual([state.state, state.refused.map((r: { prefix: string, problem: string }) => [r.prefix, /busy forwarding to 555/.test(r.problem)])], ['off', [['101', true]]])
    await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/endpoints/101001`, headers: admin, payload: { cf_busy_enabled: false } })
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?save_to_disk=maybe' })).statusCode, 422)
  })

  it('a failed write leaves the previous files in place', async () => {
    const before = readConfig(dir, 'pjsip.conf')
    await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: 'Ещё', extension: '004', password: PASSWORD } })
    // a file that does change: the organization's endpoints (a file whose text is unchanged is not written at all)
    const blocker = join(dir, 'orgs', '101', `.pjsip.conf.tmp-${process.pid}`)
    mkdirSync(blocker) // the temporary file cannot be opened: the write fails half-way
    try {
      const res = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json()
      assert.deepEqual([res.success, res.outcome], [false, 'write_failed'], JSON.stringify(res))
      assert.match(res.message, /previous files are in place/)
      assert.equal(readConfig(dir, 'pjsip.conf'), before, 'no file of the new set was put in place')
    } finally {
      rmSync(blocker, { recursive: true })
    }
  })

  it('concurrent generations do not interleave: each answer is a complete set', async () => {
    const results = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })))
    assert.ok(results.every((r) => r.json().success === true))
    const backups = new Set(results.map((r) => r.json().backup_path))
    assert.equal(backups.size, 3, 'each generation backed up the set before it')
  })

  it('reload and status without AMI answer clearly; an unknown module is 422', async () => {
    for (const module of ['all', 'pjsip', 'dialplan', 'queues']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/pbx/reload?module=${module}` })
      assert.equal(res.statusCode, 200)
      assert.deepEqual([res.json().success, /not configured/.test(res.json().message), res.json().outcome], [false, true, 'not_configured'])
    }
    const bad = await t.app.inject({ method: 'POST', url: '/api/pbx/reload?module=everything' })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json().detail[0].loc, ['query', 'module'])
    const status = (await t.app.inject({ url: '/api/pbx/status' })).json()
    assert.equal(status.connected, false)
    const withReload = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs?reload_pbx=true' })).json()
    assert.equal(withReload.success, false)
    assert.match(withReload.errors[0], /not configured/)
  })
})

describe('PBX generation on disk: leftovers of a crash, retention of backups', () => {
  it('removes the temporary files and unfinished backups a crashed generation left, and keeps PBX_BACKUP_RETENTION backups', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'appeals-pbx-retention-'))
    const t = await buildTestApp({ env: { PBX_CONFIG_DIR: dir, PBX_BACKUP_RETENTION: '2' } })
    try {
      mkdirSync(join(dir, 'backups', '.2026-01-01T00-00-00-000Z.partial'), { recursive: true })
      writeFileSync(join(dir, '.pjsip.conf.tmp-4242'), 'half a file')
      for (let i = 0; i < 5; i++) {
        const res = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs' })).json()
        assert.equal(res.success, true, JSON.stringify(res))
      }
      assert.deepEqual(readdirSync(dir).filter((n) => n.includes('.tmp-')), [])
      const backups = readdirSync(join(dir, 'backups'))
      assert.equal(backups.length, 2, backups.join())
      assert.ok(backups.every((b) => !b.startsWith('.')), 'no unfinished backup is left')
      // no organization: the main files and the trunks' file
      for (const b of backups) assert.deepEqual(readdirSync(join(dir, 'backups', b)).sort(), ['extensions.conf', 'pjsip-trunks.conf', 'pjsip.conf', 'queues.conf'])
    } finally {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
