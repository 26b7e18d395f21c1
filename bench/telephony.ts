// Issue 6's and issue 33's figures: generate-configs for 1,000 organizations x 100 terminals with
// their call routing (5 queues, 3 lines, 2 schedules and a language menu each: time and peak memory),
// and the list and create throughput of SIP terminals.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { startAmiPeer } from '../test/helpers/ami-peer.js'
import { BENCH_CONNECTIONS, BENCH_SECONDS, benchDatabase, load, rawQuery, startService } from './harness.js'

const PASSWORD = 'Abcdefghij0123456789'

/** a configuration file's bytes with the organizations' own files it includes */
function treeSize (dir: string, name: string): number {
  const orgs = join(dir, 'orgs')
  return statSync(join(dir, name)).size + readdirSync(orgs).reduce((sum, prefix) => sum + statSync(join(orgs, prefix, name)).size, 0)
}

/** 1,000 organizations x 100 terminals with their call routing, as the figures of issues 6 and 33 ask */
export async function seedTelephony (sql: ReturnType<typeof rawQuery>): Promise<void> {
  await sql('insert into regions (name, phone_code, phone_zone, local_digits) values (\'Астана\', \'7172\', \'717\', 6)')
  await sql(`insert into organizations (name, prefix, region_id, max_operators)
    select 'Организация ' || i, lpad(i::text, 3, '0'), (select id from regions limit 1), 1000 from generate_series(0, 999) i`)
  const terminals = `select o.prefix || lpad(e::text, 3, '0') as id, o.id as organization_id, lpad(e::text, 3, '0') as extension, o.prefix
    from organizations o, generate_series(1, 100) e`
  await sql(`insert into ps_endpoints (id, transport, aors, auth, context, disallow, allow, direct_media, force_rport, rewrite_contact, rtp_symmetric, language)
    select id, 'transport-udp', id, id, 'org' || prefix || '-internal', 'all', 'alaw,ulaw', 'no', 'yes', 'yes', 'yes', 'ru' from (${terminals}) t`)
  await sql(`insert into ps_auths (id, auth_type, username, md5_cred, realm) select id, 'md5', id, md5(id), 'asterisk' from (${terminals}) t`)
  await sql(`insert into ps_aors (id, max_contacts, remove_existing) select id, 1, 'yes' from (${terminals}) t`)
  await sql(`insert into sip_terminals (id, organization_id, extension, name, cf_noanswer_enabled, cf_noanswer_dest)
    select id, organization_id, extension, 'Оператор ' || extension, extension::int % 10 = 0, case when extension::int % 10 = 0 then '001' end from (${terminals}) t`)
  // the call routing: the default queue and 4 more of 20 members each, a calendar and a weekly schedule,
  // a language menu, and 3 lines (to the menu by the calendar, to a queue by the week, to a terminal)
  await sql('insert into queues (organization_id, name, is_default, all_terminals) select id, \'Очередь\', true, true from organizations')
  await sql(`insert into queues (organization_id, name, strategy, max_wait, overflow_kind, overflow_queue_id)
    select o.id, 'Очередь ' || q, 'leastrecent', 300, 'queue', (select d.id from queues d where d.organization_id = o.id and d.is_default) from organizations o, generate_series(1, 4) q`)
  await sql(`insert into queue_members (organization_id, queue_id, terminal_id, penalty)
    select q.organization_id, q.id, o.prefix || lpad(e::text, 3, '0'), e % 3 from queues q join organizations o on o.id = q.organization_id, generate_series(1, 20) e where not q.is_default`)
  await sql('insert into schedules (organization_id, name, kind) select id, \'Календарь\', \'calendar\' from organizations union all select id, \'Неделя\', \'weekly\' from organizations')
  await sql('insert into schedule_hours (schedule_id, weekday, opens, closes) select s.id, d, \'08:00\', \'20:00\' from schedules s, generate_series(1, 5) d where s.kind = \'weekly\'')
  await sql('insert into menus (organization_id, name, timeout_kind, timeout_queue_id) select o.id, \'Язык\', \'queue\', (select d.id from queues d where d.organization_id = o.id and d.is_default) from organizations o')
  await sql(`insert into menu_options (organization_id, menu_id, digit, language, dest_kind, dest_queue_id)
    select m.organization_id, m.id, d::text, case d when 1 then 'kk' else 'ru' end, 'queue', (select min(q.id) from queues q where q.organization_id = m.organization_id and not q.is_default)
    from menus m, generate_series(1, 2) d`)
  await sql(`insert into inbound_lines (organization_id, number, name, schedule_id, dest_kind, dest_menu_id)
    select o.id, '+7700' || o.prefix || '001', 'Линия 1', (select s.id from schedules s where s.organization_id = o.id and s.kind = 'calendar'), 'menu', (select m.id from menus m where m.organization_id = o.id) from organizations o`)
  await sql(`insert into inbound_lines (organization_id, number, name, schedule_id, dest_kind, dest_queue_id)
    select o.id, '+7700' || o.prefix || '002', 'Линия 2', (select s.id from schedules s where s.organization_id = o.id and s.kind = 'weekly'), 'queue', (select max(q.id) from queues q where q.organization_id = o.id) from organizations o`)
  await sql('insert into inbound_lines (organization_id, number, name, dest_kind, dest_terminal_id) select o.id, \'+7700\' || o.prefix || \'003\', \'Линия 3\', \'terminal\', o.prefix || \'001\' from organizations o')
  await sql('analyze')
}

export async function benchTelephony (): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'appeals-bench-pbx-'))
  const database = await benchDatabase('telephony')
  const sql = rawQuery(database)
  const started = performance.now()
  await seedTelephony(sql)
  process.stdout.write(`1,000 organizations x 100 terminals inserted in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)

  // the AMI peer stands for Asterisk: the changes apply themselves, and it counts the reloads asked
  const peer = await startAmiPeer()
  const reloads: { command: string, at: number }[] = []
  peer.state.onAction = (action, at) => { if (action.Action === 'Command' && /reload/.test(action.Command ?? '')) reloads.push({ command: action.Command!, at }) }
  await createAdmin(database.db, 'bench@appeals.kz', 'Bench-password-1', false)
  const rssIdle = process.memoryUsage().rss
  const service = await startService(database, { PBX_CONFIG_DIR: dir, ...peer.env({ AMI_TIMEOUT: '10s' }) })
  const token = (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@appeals.kz', password: 'Bench-password-1' }) })).json() as { access_token: string }).access_token
  const auth = { authorization: `Bearer ${token}` }
  const applyState = async () => (await (await fetch(`${service.url}/api/pbx/apply-state`, { headers: auth })).json()) as { state: string, refused: unknown[] }
  const settled = async () => { for (;;) { const s = await applyState(); if (s.state === 'applied') return s; await new Promise((resolve) => setTimeout(resolve, 200)) } }

  // the first apply: every organization new to the files (from the service's start)
  const first = performance.now()
  await settled()
  process.stdout.write(`first apply after the start (1,000 organizations rendered and written): ${((performance.now() - first) / 1000).toFixed(2)} s (from the service listening)\n`)

  // one organization's change applied: from the edit's request to the reload asked of the peer (rendered, written, reloaded)
  const orgs = await sql<{ id: number, queue: number }>('select o.id, (select q.id from queues q where q.organization_id = o.id and q.is_default) as queue from organizations o order by o.id')
  const applyLatencies: number[] = []
  for (let i = 0; i < 100; i++) {
    const org = orgs[(i * 37) % orgs.length]!
    await settled()
    const from = reloads.length
    const t0 = performance.now()
    const res = await fetch(`${service.url}/api/organizations/${org.id}/queues/${org.queue}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ ring_timeout: 100 + i }) })
    if (res.status !== 200) throw new Error(`queue edit: ${res.status} ${await res.text()}`)
    while (reloads.length === from) await new Promise((resolve) => setTimeout(resolve, 1))
    applyLatencies.push(reloads[from]!.at - t0)
  }
  applyLatencies.sort((a, b) => a - b)
  process.stdout.write(`one organization's queue edited, to its reload asked of the peer (100 edits one after another): p50 ${applyLatencies[49]!.toFixed(0)} ms, p99 ${applyLatencies[98]!.toFixed(0)} ms, max ${applyLatencies[99]!.toFixed(0)} ms\n`)

  // full generations (generate-configs): every file checked against what was written for its version (an
  // organization whose files differ is rendered again), the whole set backed up; then with every
  // organization rendered again (their digests forgotten, as after an upgrade of the service)
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss) }, 10)
  globalThis.gc?.() // idle: what the service holds, not the garbage the first apply left
  const rssBefore = process.memoryUsage().rss
  const generate = async () => {
    const t0 = performance.now()
    const res = await fetch(`${service.url}/api/pbx/generate-configs`, { method: 'POST', headers: auth })
    const result = await res.json() as { success: boolean, files: string[], errors: string[] }
    if (!result.success) throw new Error(`generation failed: ${JSON.stringify(result).slice(0, 500)}`)
    return (performance.now() - t0) / 1000
  }
  const seconds: number[] = []
  for (let run = 0; run < 3; run++) seconds.push(await generate())
  const peakChecked = peakRss
  const rendered: number[] = []
  for (let run = 0; run < 3; run++) {
    await sql('update pbx_versions set files_digest = null')
    rendered.push(await generate())
  }
  clearInterval(sampler)
  const sizes = ['pjsip', 'queues', 'extensions'].map((f) => `${f} ${(treeSize(dir, `${f}.conf`) / 1e6).toFixed(1)} MB`).join(', ')
  const inSeconds = (values: number[]) => values.map((s) => `${s.toFixed(2)} s`).join(', ')
  process.stdout.write(`\ngenerate-configs, 100,000 terminals, 5,000 queues, 3,000 lines, 2,000 schedules, 1,000 menus (${sizes}):\n` +
    `  every file checked, the set backed up: ${inSeconds(seconds)} (peak RSS ${((peakChecked - rssBefore) / 1e6).toFixed(0)} MB above the idle service)\n  every organization rendered again: ${inSeconds(rendered)}\n` +
    `  peak RSS of all ${(peakRss / 1e6).toFixed(0)} MB (${((peakRss - rssBefore) / 1e6).toFixed(0)} MB above the idle service, ${((peakRss - rssIdle) / 1e6).toFixed(0)} MB above the process before the service)\n`)

  // 100 edits in a second, over 100 organizations
  await settled()
  const burstFrom = reloads.length
  const burst = performance.now()
  await Promise.all(Array.from({ length: 100 }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * 10))
    const org = orgs[(i * 13) % orgs.length]!
    const res = await fetch(`${service.url}/api/organizations/${org.id}/queues/${org.queue}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ ring_timeout: 250 + (i % 50) }) })
    if (res.status !== 200) throw new Error(`queue edit: ${res.status}`)
  }))
  const lastEdit = performance.now()
  await settled()
  const applied = performance.now()
  const burstReloads = reloads.slice(burstFrom).filter((r) => r.command === 'queue reload all').length
  process.stdout.write(`100 edits of 100 organizations within ${((lastEdit - burst) / 1000).toFixed(2)} s: ${burstReloads} applies (queue reloads), all applied ${(applied - lastEdit).toFixed(0)} ms after the last edit\n`)
  await peer.close()

  const orgId = (await sql<{ id: number }>('select id from organizations where prefix = \'500\''))[0]!.id
  const list = await load(`${service.url}/api/organizations/${orgId}/endpoints/?limit=100`, auth)
  process.stdout.write(`list 100 terminals of one tenant (${BENCH_CONNECTIONS} connections, ${BENCH_SECONDS} s): ${list.rps.toFixed(0)} req/s, p99 ${list.p99} ms\n`)

  // create: 10 concurrent clients adding 800 terminals (extensions 101-900) to one tenant
  const extensions = Array.from({ length: 800 }, (_, i) => String(101 + i).padStart(3, '0'))
  const latencies: number[] = []
  const c0 = performance.now()
  await Promise.all(Array.from({ length: 10 }, async () => {
    for (let ext = extensions.shift(); ext; ext = extensions.shift()) {
      const s = performance.now()
      const r = await fetch(`${service.url}/api/organizations/${orgId}/endpoints/`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Новый ${ext}`, extension: ext, password: PASSWORD }) })
      if (r.status !== 201) throw new Error(`create ${ext}: ${r.status} ${await r.text()}`)
      latencies.push(performance.now() - s)
    }
  }))
  const createSeconds = (performance.now() - c0) / 1000
  latencies.sort((a, b) => a - b)
  process.stdout.write(`create 800 terminals, 10 concurrent clients: ${(800 / createSeconds).toFixed(0)} req/s, p50 ${latencies[400]!.toFixed(1)} ms, p99 ${latencies[791]!.toFixed(1)} ms\n`)

  await service.app.close()
  await database.close()
  rmSync(dir, { recursive: true, force: true })
}
