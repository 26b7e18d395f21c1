import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchDatabase, rawQuery } from '../harness.js'
import { seedTelephony } from '../telephony.js'
import { createPbxRepo } from '../../src/modules/pbx/repo.js'
import { loadPbxModel } from '../../src/modules/pbx/model.js'
import { sipConfig, queuesConfig, extensionsConfig, validateModel, defaultPbxOptions } from '../../src/modules/pbx/generators.js'
import { writeConfigSet } from '../../src/integrations/asterisk-files/index.js'
import { wholeText } from '../../src/modules/pbx/config-text.js'

const database = await benchDatabase('prof', { keep: !!process.env.KEEP })
const sql = rawQuery(database)
if (!process.env.KEEP) await seedTelephony(sql)
const repo = createPbxRepo(database.db)
for (let i = 0; i < 3; i++) {
  let t = performance.now()
  const lap = (what: string) => { const n = performance.now(); process.stdout.write(`${what} ${(n - t).toFixed(0)} ms; `); t = n }
  const orgs = await repo.activeOrganizations(); lap('orgs')
  const terms = await repo.terminalsOf(orgs.map((o) => o.id)); lap('terminals')
  const routing = await repo.routingOf(orgs.map((o) => o.id)); lap('routing')
  const model = await loadPbxModel(repo); lap('model(all)')
  validateModel(model.organizations, model.trunks); lap('validate')
  const o = { ...defaultPbxOptions, trunks: model.trunks, recordingsDir: '/rec' }
  const s = wholeText(sipConfig(model.organizations, o)); lap('sip')
  const q = wholeText(queuesConfig(model.organizations)); lap('queues')
  const e = wholeText(extensionsConfig(model.organizations, o)); lap('ext')
  const dir = mkdtempSync(join(tmpdir(), 'prof-'))
  await writeConfigSet(dir, { 'pjsip.conf': [s], 'queues.conf': [q], 'extensions.conf': [e] }, new Date()); lap('write')
  process.stdout.write(`sizes ${s.length} ${q.length} ${e.length} terms ${terms.length} ${routing.size}\n`)
}
await database.close()
