// Runs before `npm start` and `npm test` with plain Node (no dependencies needed):
// installs the locked dependencies when node_modules is missing or older than package-lock.json,
// builds the console (web/) when its build is missing or older than its sources, and compiles the
// service's TypeScript when it changed (scripts/build.mjs: dist/current).
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

// after the install: esbuild is one of the dependencies
const { compiled } = await import('./build.mjs')
const build = await compiled()
// a new embedded database's first files, made once for this install (src/db/fresh-image.ts)
const { FRESH_IMAGE, prepareFreshImage } = await import(join(build, 'src/db/fresh-image.js'))
if (!existsSync(FRESH_IMAGE)) {
  console.error('Preparing the embedded database\'s first files (once per install)...')
  // without them (node_modules not writable here) a new embedded database runs initdb as before
  await prepareFreshImage().catch((err) => console.error(`Not prepared (${err.message}): a new embedded database will be made by initdb`))
}
