// Runs before `npm start` and `npm test` with plain Node (no dependencies needed):
// installs the locked dependencies when node_modules is missing or older than package-lock.json.
import { execSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'

const marker = 'node_modules/.package-lock.json'
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs
if (stale) {
  console.error('Installing dependencies (npm ci)...')
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' })
}
