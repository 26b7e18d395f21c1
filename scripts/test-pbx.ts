// `npm run test:pbx`: the telephony suites (test/pbx/*.pbx.ts) against a real Asterisk 22.10.1 and
// pjsua phones, given ASTERISK_DIR (an installed build) and PJSUA; on the embedded database, then on
// PostgreSQL when TEST_DATABASE_URL names a server. Without an Asterisk the suites say what is
// missing and are skipped (CI has none: its AMI test peer replays what these suites recorded).
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pbxTools } from '../test/pbx/asterisk.js'
import { nodeArgs } from '../test/helpers/runnable.js'

const files = readdirSync('test/pbx').filter((f) => f.endsWith('.pbx.ts')).sort().map((f) => join('test/pbx', f))
const asked = process.argv.slice(2)
const tools = pbxTools()
if ('missing' in tools) process.stdout.write(`test:pbx: no Asterisk to test against (set ${tools.missing}); the suites are skipped\n`)

const { TEST_DATABASE_URL: postgres, ...rest } = process.env
// one suite at a time: each starts its own Asterisk, and every Asterisk's SIP is 5060
const serial = { ...rest, TEST_CONCURRENCY: '1' }
const runs = [{ name: 'embedded database', env: serial }, ...(postgres && !('missing' in tools) ? [{ name: 'PostgreSQL', env: { ...serial, TEST_DATABASE_URL: postgres } }] : [])]
let failed = false
for (const run of runs) {
  process.stdout.write(`== test:pbx on the ${run.name}\n`)
  const result = spawnSync(process.execPath, [...nodeArgs('scripts/run-tests.ts'), ...(asked.length > 0 ? asked : files)], { stdio: 'inherit', env: run.env })
  if (result.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
