// Issue 51: the PBX configuration applies itself. Against the AMI peer (Asterisk's wire format): an
// edit through the API is written and reloaded with no generation by hand, with the smallest reload;
// a burst is one apply; an organization with a problem keeps its last good files while the others
// apply; Asterisk not answering leaves the reload pending in the database, done when it answers,
// also after a restart; a failed write leaves every file as it was; what an apply writes after
// random edits is byte for byte what a full generation writes.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { appendFileSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/client.js'
import { createMetrics } from '../../src/lib/metrics.js'
import { seededRandom, startAmiPeer } from '../helpers/ami-peer.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { readConfig } from '../helpers/asterisk-config.js'
import { createTestDatabase } from '../helpers/database.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'
import { eventually } from '../helpers/http-target.js'

const PASSWORD = 'Abcdefghij0123456789'
const RELOADS = ['module reload res_pjsip.so', 'dialplan reload', 'queue reload all']

/** every file under the folder but the backups, by path */
function tree (dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) { if (entry.name !== 'backups' && entry.name !== 'sounds') walk(path) } else if (!entry.name.includes('.tmp-')) files[relative(dir, path)] = readFileSync(path, 'utf8')
    }
  }
  walk(dir)
  return files
}

describe('the PBX configuration applies itself (with AMI)', () => {
  let peer: Awaited<ReturnType<typeof startAmiPeer>>
  let database: Database
  let t: TestApp
  let dir: string
  let admin: Record<string, string>
  const orgs: { id: number, prefix: string }[] = []
  const queueOf: Record<number, number> = {}
  const metrics = createMetrics({ processFigures: false })
  const env = () => peer.env({ PBX_CONFIG_DIR: dir, PBX_ASTERISK_LOG: asteriskLog(), AMI_TIMEOUT: '1s', AMI_RELOAD_TIMEOUT: '2s' })
  /** Asterisk's log, beside the files: the peer writes to it what Asterisk 22.10.1 logs when it refuses an endpoint */
  const asteriskLog = () => join(dir, '..', `${relative(tmpdir(), dir)}-messages.log`)
  const reloadsSince = (from: number) => peer.state.received.slice(from).filter((a) => a.Action === 'Command' && RELOADS.includes(a.Command!)).map((a) => a.Command!)
  const applyState = async () => (await t.app.inject({ url: '/api/pbx/apply-state', headers: admin })).json()
  const applied = (what: string) => eventually(async () => { const s = await applyState(); return s.state === 'applied' ? s : undefined }, 15_000, what)
  const putQueue = (org: { id: number }, payload: object) => t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/queues/${queueOf[org.id]}`, headers: admin, payload })

  before(async () => {
    peer = await startAmiPeer()
    dir = mkdtempSync(join(tmpdir(), 'appeals-apply-'))
    database = await createTestDatabase()
    t = await buildTestApp({ database, env: env(), deps: { metrics } })
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    for (const prefix of ['101', '102']) {
      const org = await makeOrganization(database.db, { prefix, name: `Акимат ${prefix}` })
      orgs.push({ id: org.id, prefix })
      for (const extension of ['001', '002']) {
        const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: `Оператор ${extension}`, extension, password: PASSWORD } })
        assert.equal(res.statusCode, 201)
      }
      queueOf[org.id] = (await t.app.inject({ url: `/api/organizations/${org.id}/queues`, headers: admin })).json()[0].id
    }
    // a trunk of the service's and a route of 101's over it: the route's steps name the trunk
    const trunk = (await t.app.inject({ method: 'POST', url: '/api/trunks/', headers: admin, payload: { name: 'Оператор связи', mode: 'ip', host: '10.20.30.40' } })).json()
    const route = await t.app.inject({ method: 'POST', url: `/api/organizations/${orgs[0]!.id}/outbound-routes/`, headers: admin, payload: { name: 'Межгород', patterns: ['8XXXXXXXXXX'], long_distance: true, trunk_ids: [trunk.id] } })
    assert.equal(route.statusCode, 201, route.body)
  })
  after(async () => {
    await t.close()
    await peer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('an edit is written and reloaded with nothing generated by hand, with the smallest reload; the state says when', async () => {
    await applied('the first apply')
    assert.match(readConfig(dir, 'pjsip.conf'), /\[101002\]\ntype=endpoint/)
    assert.match(readFileSync(join(dir, 'queues.conf'), 'utf8'), new RegExp(`^#include ${dir}/orgs/102/queues.conf$`, 'm'))
    const from = peer.state.received.length
    const before = tree(dir)
    assert.equal((await putQueue(orgs[0]!, { ring_timeout: 27 })).statusCode, 200)
    await eventually(async () => readFileSync(join(dir, 'orgs', '101', 'queues.conf'), 'utf8').includes('timeout=27'), 10_000, 'the queue\'s ring time in its file')
    const state = await applied('the change applied')
    assert.deepEqual(reloadsSince(from), ['queue reload all'], 'queues only: no endpoint and no context changed')
    assert.ok(Date.parse(state.applied_at) > Date.now() - 60_000)
    const after = tree(dir)
    assert.deepEqual(Object.keys(after).filter((f) => after[f] !== before[f]), ['orgs/101/queues.conf'], 'only that organization\'s queues file was written')

    // a password is an endpoint's: res_pjsip alone
    const mark = peer.state.received.length
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${orgs[1]!.id}/endpoints/102001/password`, headers: admin, payload: { password: 'Zyxwvutsrq9876543210' } })).statusCode, 200)
    await eventually(async () => reloadsSince(mark).length > 0 && (await applyState()).state === 'applied', 10_000, 'the password applied')
    assert.deepEqual(reloadsSince(mark), ['module reload res_pjsip.so'])
    const own = (await t.app.inject({ url: `/api/organizations/${orgs[1]!.id}/pbx-state`, headers: admin })).json()
    assert.deepEqual([own.state, own.problem], ['applied', null])
  })

  it('a burst of edits is applied once or twice, the last value winning', async () => {
    const from = peer.state.received.length
    for (let i = 0; i < 20; i++) assert.equal((await putQueue(orgs[0]!, { ring_timeout: 30 + i })).statusCode, 200)
    await eventually(async () => readFileSync(join(dir, 'orgs', '101', 'queues.conf'), 'utf8').includes('timeout=49'), 10_000, 'the last value')
    await applied('the burst applied')
    const reloads = reloadsSince(from)
    assert.ok(reloads.length >= 1 && reloads.length <= 2, `${reloads.length} reloads for 20 edits`)
  })

  it('an organization with a problem keeps its last good files and is named; the others apply; fixed, it applies', async () => {
    const [bad, good] = [orgs[0]!, orgs[1]!]
    const lastGood = readFileSync(join(dir, 'orgs', '101', 'extensions.conf'), 'utf8')
    await t.app.inject({ method: 'PUT', url: `/api/organizations/${bad.id}/endpoints/101001`, headers: admin, payload: { cf_busy_enabled: true, cf_busy_dest: '555' } })
    await putQueue(good, { ring_timeout: 33 })
    await eventually(async () => readFileSync(join(dir, 'orgs', '102', 'queues.conf'), 'utf8').includes('timeout=33'), 10_000, 'the other organization applied')
    const state = await eventually(async () => { const s = await applyState(); return s.refused.length > 0 && s.state === 'applied' ? s : undefined }, 10_000, 'the refusal named')
    assert.deepEqual(state.refused.map((r: { prefix: string, name: string }) => [r.prefix, r.name]), [['101', 'Акимат 101']])
    assert.match(state.refused[0].problem, /terminal 101001: busy forwarding to 555, which is not a terminal of organization 101/)
    assert.equal(readFileSync(join(dir, 'orgs', '101', 'extensions.conf'), 'utf8'), lastGood, 'the last good files stay')
    const own = (await t.app.inject({ url: `/api/organizations/${bad.id}/pbx-state`, headers: admin })).json()
    assert.equal(own.state, 'refused')
    assert.match(own.problem, /busy forwarding to 555/)
    assert.match(await metrics.registry.metrics(), /pbx_organization_refused\{organization="101"\} 1/)

    await t.app.inject({ method: 'PUT', url: `/api/organizations/${bad.id}/endpoints/101001`, headers: admin, payload: { cf_busy_enabled: false } })
    await eventually(async () => (await applyState()).refused.length === 0, 10_000, 'the problem gone')
    assert.equal((await t.app.inject({ url: `/api/organizations/${bad.id}/pbx-state`, headers: admin })).json().problem, null)
    assert.doesNotMatch(await metrics.registry.metrics(), /pbx_organization_refused\{/)
  })

  it('what Asterisk refused in an organization\'s files is said on that organization in its log\'s words; read clean, it is gone', async () => {
    const [bad, good] = [orgs[0]!, orgs[1]!]
    // Asterisk 22.10.1's lines when pjsip.conf has allow=nosuchcodec (test:pbx sees the real ones), and a line about something else
    const stamp = '[2026-11-29 17:33:14.910]'
    let refusing = true
    peer.state.onAction = (action) => {
      if (action.Command !== 'module reload res_pjsip.so') return
      appendFileSync(asteriskLog(), refusing
        ? `${stamp} VERBOSE[14808] loader.c: Reloading module 'res_pjsip.so' (Basic SIP resource)\n${stamp} WARNING[14790] format_cap.c: Cannot allow unknown format 'nosuchcodec'\n` +
          `${stamp} ERROR[14790] config_options.c: Error parsing allow=nosuchcodec at line 6 of ${dir}/orgs/101/pjsip.conf\n` +
          `${stamp} ERROR[14790] res_sorcery_config.c: Could not create an object of type 'endpoint' with id '101001' from configuration file 'pjsip.conf'\n` +
          `${stamp} NOTICE[14790] res_sorcery_config.c: Retaining existing configuration for object of type 'endpoint' with id '101001'\n` +
          `${stamp} WARNING[14791] res_pjsip_registrar.c: Registration from 'sip:9@10.0.0.1' failed: no such endpoint\n`
        : `${stamp} VERBOSE[14808] loader.c: Reloading module 'res_pjsip.so' (Basic SIP resource)\n`)
    }
    try {
      const res = await t.app.inject({ method: 'PUT', url: `/api/organizations/${bad.id}/endpoints/101001`, headers: admin, payload: { allow: 'nosuchcodec' } })
      assert.equal(res.statusCode, 200, res.body)
      const own = await eventually(async () => { const s = (await t.app.inject({ url: `/api/organizations/${bad.id}/pbx-state`, headers: admin })).json(); return s.state === 'refused' ? s : undefined }, 10_000, 'Asterisk\'s refusal on the organization')
      assert.equal(own.refused_by, 'asterisk')
      // the warning that names neither a file nor an object cannot be said to be 101's: left out
      assert.equal(own.problem, `Error parsing allow=nosuchcodec at line 6 of ${dir}/orgs/101/pjsip.conf; Could not create an object of type 'endpoint' with id '101001' from configuration file 'pjsip.conf'`)
      const state = await applyState()
      assert.deepEqual(state.refused.map((r: { prefix: string, refused_by: string }) => [r.prefix, r.refused_by]), [['101', 'asterisk']])
      assert.equal(state.asterisk_problem, null, 'the line about a registration is not about the files')
      assert.equal((await t.app.inject({ url: `/api/organizations/${good.id}/pbx-state`, headers: admin })).json().state, 'applied', 'the other organization is not touched')
      assert.match(await metrics.registry.metrics(), /pbx_organization_refused\{organization="101"\} 1/)

      // a reload asked by hand reads the log too
      refusing = false
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/pbx/reload?module=pjsip', headers: admin })).json().success, true)
      const clean = (await t.app.inject({ url: `/api/organizations/${bad.id}/pbx-state`, headers: admin })).json()
      assert.deepEqual([clean.state, clean.problem, clean.refused_by], ['applied', null, null])
      assert.doesNotMatch(await metrics.registry.metrics(), /pbx_organization_refused\{/)

      // a log that cannot be read does not make a done reload a failed one (during the reload it becomes a folder)
      writeFileSync(asteriskLog(), '')
      peer.state.onAction = (action) => { if (action.Command === 'module reload res_pjsip.so') { rmSync(asteriskLog()); mkdirSync(asteriskLog()) } }
      try {
        const reloaded = (await t.app.inject({ method: 'POST', url: '/api/pbx/reload?module=pjsip', headers: admin })).json()
        assert.deepEqual([reloaded.success, reloaded.outcome], [true, 'reloaded'], JSON.stringify(reloaded))
      } finally {
        rmSync(asteriskLog(), { recursive: true })
      }
    } finally {
      peer.state.onAction = undefined
      await t.app.inject({ method: 'PUT', url: `/api/organizations/${bad.id}/endpoints/101001`, headers: admin, payload: { allow: 'alaw,ulaw' } })
      await applied('the codec put back')
    }
  })

  it('a write that fails leaves every file as it was and says so; once it can, the change applies', async () => {
    const before = tree(dir)
    const blocker = join(dir, 'orgs', '102', `.queues.conf.tmp-${process.pid}`)
    mkdirSync(blocker)
    try {
      await putQueue(orgs[1]!, { ring_timeout: 44 })
      const state = await eventually(async () => { const s = await applyState(); return s.error ? s : undefined }, 10_000, 'the failure shown')
      assert.match(state.error, /writing the configuration failed/)
      assert.ok(['pending', 'applying'].includes(state.state), `the change still waits (retried every 2 s): ${state.state}`)
      assert.deepEqual(tree(dir), before, 'no file changed')
    } finally {
      rmSync(blocker, { recursive: true })
    }
    await eventually(async () => readFileSync(join(dir, 'orgs', '102', 'queues.conf'), 'utf8').includes('timeout=44'), 15_000, 'applied once the write could be done')
    const state = await applied('applied after the failure')
    assert.equal(state.error, null)
  })

  it('an apply waiting on its files holds no connection: requests are answered meanwhile (the embedded database has one)', async () => {
    // the prompts' manifest of 101 is a FIFO: reading it waits until the test writes to it
    const manifests = join(dir, 'sounds', 'appeals-sounds')
    mkdirSync(manifests, { recursive: true })
    const fifo = join(manifests, `org${orgs[0]!.prefix}.json`)
    execFileSync('mkfifo', [fifo])
    try {
      await putQueue(orgs[0]!, { ring_timeout: 47 })
      await eventually(async () => existsSync(join(dir, 'orgs', orgs[0]!.prefix, `.queues.conf.tmp-${process.pid}`)), 15_000, 'the apply writing 101\'s files')
      const answered = t.app.inject({ url: `/api/organizations/${orgs[0]!.id}/queues`, headers: admin })
      const res = await Promise.race([answered, new Promise<undefined>((resolve) => setTimeout(resolve, 10_000, undefined))])
      assert.equal(res?.statusCode, 200, 'a request is answered while the apply waits on a file')
    } finally {
      // opened for reading and writing, a FIFO never waits: the apply's read gets an empty manifest
      const handle = await open(fifo, constants.O_RDWR)
      await handle.write('{}')
      await handle.close()
      rmSync(fifo)
    }
    await eventually(async () => readFileSync(join(dir, 'orgs', orgs[0]!.prefix, 'queues.conf'), 'utf8').includes('timeout=47'), 15_000, 'applied once the file could be read')
    await applied('applied after the wait')
  })

  it('Asterisk not answering: written, the reload kept in the database, done when it answers, also after a restart', async () => {
    peer.state.mode = 'drop'
    await putQueue(orgs[0]!, { ring_timeout: 55 })
    await eventually(async () => readFileSync(join(dir, 'orgs', '101', 'queues.conf'), 'utf8').includes('timeout=55'), 10_000, 'written while Asterisk is away')
    const waiting = await eventually(async () => { const s = await applyState(); return s.state === 'waiting_for_asterisk' ? s : undefined }, 15_000, 'waiting for Asterisk')
    assert.deepEqual(waiting.pending_reloads, ['queues'])
    assert.match(waiting.error, /Asterisk did not reload/)
    // the service restarts while Asterisk is away; Asterisk comes back
    await t.app.close()
    const from = peer.state.received.length
    peer.state.mode = 'normal'
    t = await buildTestApp({ database, env: env(), deps: { metrics: createMetrics({ processFigures: false }) } })
    admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    await applied('the pending reload done after the restart')
    assert.deepEqual(reloadsSince(from), ['queue reload all'])
    assert.deepEqual((await applyState()).pending_reloads, [])
  })

  it('stopped while Asterisk has not answered a reload: the stop does not wait for it, the reload stays pending and is done after the restart', async () => {
    const restart = async (extra: Record<string, string>) => {
      t = await buildTestApp({ database, env: { ...env(), ...extra }, deps: { metrics: createMetrics({ processFigures: false }) } })
      admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
      await applied('settled after the start')
    }
    await t.app.close()
    // a reload may take an hour: only the stop can end the wait
    await restart({ AMI_RELOAD_TIMEOUT: '1h' })
    // an edit applied opens the reloads' connection; then Asterisk stops answering on it
    assert.equal((await putQueue(orgs[1]!, { ring_timeout: 46 })).statusCode, 200)
    await eventually(async () => readFileSync(join(dir, 'orgs', '102', 'queues.conf'), 'utf8').includes('timeout=46'), 15_000, 'the first edit written')
    await applied('the first edit applied')
    const from = peer.state.received.length
    peer.state.mode = 'silent'
    try {
      assert.equal((await putQueue(orgs[1]!, { ring_timeout: 47 })).statusCode, 200)
      await eventually(async () => reloadsSince(from).includes('queue reload all'), 15_000, 'the reload asked, and not answered')
      let stopped = false
      const stopping = t.app.close().then(() => { stopped = true })
      await eventually(async () => stopped, 30_000, 'the service stopped with the reload unanswered')
      await stopping
    } finally {
      peer.state.mode = 'normal'
    }
    const afterStop = peer.state.received.length
    await restart({})
    assert.deepEqual(reloadsSince(afterStop), ['queue reload all'], 'the reload kept pending and done')
  })

  it('restarted with other settings, the first apply renders every organization with them, nothing edited or generated by hand; and back', async () => {
    const restart = async (extra: Record<string, string>) => {
      await t.app.close()
      t = await buildTestApp({ database, env: { ...env(), ...extra }, deps: { metrics: createMetrics({ processFigures: false }) } })
      admin = await login(t.app, await makeUser(database.db, { role: 'admin' }))
    }
    const dialplanOf = (org: { prefix: string }) => readFileSync(join(dir, 'orgs', org.prefix, 'extensions.conf'), 'utf8')
    await applied('settled')
    const elsewhere = '/srv/asterisk/recordings'
    const from = peer.state.received.length
    await restart({ PBX_RECORDINGS_DIR: elsewhere })
    await eventually(async () => orgs.every((o) => dialplanOf(o).includes(`${elsewhere}/`)), 30_000, 'every organization rendered with the recordings\' folder')
    await applied('the new settings applied')
    assert.ok(reloadsSince(from).includes('dialplan reload'), 'and reloaded')

    await restart({})
    await eventually(async () => orgs.every((o) => !dialplanOf(o).includes(elsewhere)), 30_000, 'every organization rendered without it again')
    await applied('the first settings applied again')
  })

  it('after random edits, what the applies wrote is byte for byte what a full generation writes', async () => {
    const random = seededRandom(51)
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!
    for (let i = 0; i < 25; i++) {
      const org = pick(orgs)
      const edit = pick(['queue', 'terminal', 'new', 'name'] as const)
      if (edit === 'queue') await putQueue(org, { ring_timeout: 10 + Math.floor(random() * 50), strategy: pick(['rrmemory', 'leastrecent', 'ringall']) })
      else if (edit === 'terminal') await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}/endpoints/${org.prefix}002`, headers: admin, payload: { cf_noanswer_enabled: random() < 0.5, cf_noanswer_dest: '001', cf_noanswer_timeout: 5 + Math.floor(random() * 20) } })
      else if (edit === 'new') await t.app.inject({ method: 'POST', url: `/api/organizations/${org.id}/endpoints/`, headers: admin, payload: { name: `Новый ${i}`, extension: String(100 + i), password: PASSWORD } })
      else await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}`, headers: admin, payload: { name: `Акимат ${org.prefix} (${i})` } })
      if (random() < 0.3) await new Promise((resolve) => setTimeout(resolve, 300 + random() * 500))
    }
    await applied('the edits applied')
    const incremental = tree(dir)
    // the files as Asterisk reads them (their includes followed) say what the generators say of the same rows
    const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '')
    const masked = (text: string) => text.replace(/^(password_digest=[^:]+:)(.*)$/gm, (_, head: string, hash: string) => head + '*'.repeat(hash.length))
    for (const [type, file] of [['sip', 'pjsip.conf'], ['queues', 'queues.conf'], ['extensions', 'extensions.conf']] as const) {
      const preview = (await t.app.inject({ url: `/api/pbx/preview/${type}`, headers: admin })).json().content as string
      assert.deepEqual(lines(masked(readConfig(dir, file))), lines(preview), file)
    }
    assert.match(readFileSync(join(dir, 'orgs', '101', 'extensions.conf'), 'utf8'), /Dial\(PJSIP\/[^)]*@trunk\d+/, 'the route dials its trunk')
    const full = (await t.app.inject({ method: 'POST', url: '/api/pbx/generate-configs', headers: admin })).json()
    assert.equal(full.success, true, JSON.stringify(full))
    assert.ok(statSync(full.backup_path).isDirectory())
    assert.deepEqual(tree(dir), incremental)
  })

  it('an organization switched off leaves the PBX (its files and its include go), switched on it comes back', async () => {
    const org = orgs[1]!
    const included = () => readFileSync(join(dir, 'pjsip.conf'), 'utf8').includes(`orgs/${org.prefix}/pjsip.conf`)
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}`, headers: admin, payload: { is_active: false } })).statusCode, 200)
    await eventually(async () => (!included() && !existsSync(join(dir, 'orgs', org.prefix, 'pjsip.conf'))) || undefined, 10_000, 'the organization gone from the files')
    await applied('applied without it')
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/organizations/${org.id}`, headers: admin, payload: { is_active: true } })).statusCode, 200)
    await eventually(async () => included() || undefined, 10_000, 'the organization back in the files')
    assert.match(readFileSync(join(dir, 'orgs', org.prefix, 'pjsip.conf'), 'utf8'), new RegExp(`\\[${org.prefix}001\\]`))
    await applied('applied with it')
  })

  it('who may see the state: an organization\'s managers theirs (the PBX\'s state is an administrator\'s: test/access.test.ts); bad ids are 422, unknown ones 404', async () => {
    const manager = await login(t.app, await makeUser(database.db, { role: 'manager', organization_id: orgs[0]!.id }))
    assert.equal((await t.app.inject({ url: `/api/organizations/${orgs[0]!.id}/pbx-state`, headers: manager })).statusCode, 200)
    const other = await t.app.inject({ url: `/api/organizations/${orgs[1]!.id}/pbx-state`, headers: manager })
    assert.deepEqual([other.statusCode, other.json().code], [403, 'own_organization_only'])
    assert.equal((await t.app.inject({ url: `/api/organizations/${orgs[0]!.id}/pbx-state` })).statusCode, 401)
    assert.equal((await t.app.inject({ url: '/api/organizations/999999/pbx-state', headers: admin })).statusCode, 404)
    const bad = await t.app.inject({ url: '/api/organizations/abc/pbx-state', headers: admin })
    assert.deepEqual([bad.statusCode, bad.json().detail[0].loc], [422, ['path', 'tenant_id']])
  })
})
