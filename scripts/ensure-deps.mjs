// Runs before `npm start` and `npm test` with plain Node (no dependencies needed):
// installs the locked dependencies when node_modules is missing or older than package-lock.json,
// and builds the console (web/) when its build is missing or older than its sources.
import { execSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const marker = 'node_modules/.package-lock.json'
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs
if (stale) {
  console.error('Installing dependencies (npm ci)...')
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' })
}

/** the newest modification time under `path` (a file or a folder, recursively) */
function newest (path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs)
}

const built = 'web/dist/index.html'
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'package-lock.json']
if (!existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newest))) {
  console.error('Building the console (web/)...')
  execSync('npm run build --workspace web', { stdio: 'inherit' })
}
