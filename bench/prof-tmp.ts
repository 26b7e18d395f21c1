import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchDatabase, startService } from './harness.js'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
const dir = mkdtempSync(join(tmpdir(), 'prof-'))
const database = await benchDatabase('telephony', { keep: true })
await createAdmin(database.db, 'prof@appeals.kz', 'Bench-password-1', false).catch(() => {})
const service = await startService(database, { PBX_CONFIG_DIR: dir, PBX_APPLY: 'off' })
const token = (await (await fetch(`${service.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'prof@appeals.kz', password: 'Bench-password-1' }) })).json() as { access_token: string }).access_token
const out: string[] = []
for (let i = 0; i < 5; i++) {
  const t0 = performance.now()
  const r = await (await fetch(`${service.url}/api/pbx/generate-configs`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json() as { success: boolean }
  out.push(`${(performance.now() - t0).toFixed(0)}${r.success ? '' : ' FAIL'}`)
}
console.log(out.join(' '))
await service.app.close(); await database.close()
