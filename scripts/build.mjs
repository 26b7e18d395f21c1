// The service, its CLI, its scripts and its tests as JavaScript, compiled once by esbuild and kept in
// dist/<fingerprint>/ (dist/current names the newest): a process then loads plain JavaScript instead
// of compiling its TypeScript again (tsx) each time it starts, 2 s of CPU less a process. Plain Node
// with no TypeScript, so that it runs before anything is compiled: `npm start`, `npm test` and the
// CLI call it through scripts/ensure-deps.mjs, and `node scripts/build.mjs` prints the folder.
//
// The folder mirrors the project: dist/<fingerprint>/src/main.js beside dist/<fingerprint>/drizzle,
// package.json, web/dist and the tests' fixtures (links to the originals), so that a file found from
// its own place (import.meta.url) is found as it is from the sources. Source maps point back at the
// TypeScript lines (run with --enable-source-maps). A changed source makes another fingerprint: the
// next run compiles it (in about a second) into a folder of its own, renamed into place whole, so a
// process started from an older build goes on reading its own files.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
export const DIST = join(ROOT, 'dist')
/** compiled for the server (every .ts but type declarations) */
const SOURCES = ['src', 'test', 'scripts', 'bench']
/** the console's modules the tests import (web/src/*.ts: bundled one by one, as they import without extensions) */
const CONSOLE_MODULES = 'web/src'
/** found from the compiled files as from the sources */
const LINKED = ['package.json', 'drizzle', 'web/dist', 'openapi.json', 'eslint-rules']
/** how many builds are kept besides the current one (a process started from one goes on reading it) */
const KEPT_BUILDS = 3
/** a change to how the build is made changes every fingerprint */
const BUILD_FORMAT = 2

function filesUnder (dir) {
  if (!existsSync(join(ROOT, dir))) return []
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

const isCompiled = (path) => path.endsWith('.ts') && !path.endsWith('.d.ts')

function fingerprint (files, esbuildVersion) {
  const hash = createHash('sha256').update(`${BUILD_FORMAT} ${esbuildVersion}\n`)
  for (const file of files) {
    const { size, mtimeMs } = statSync(join(ROOT, file))
    hash.update(`${file} ${size} ${mtimeMs}\n`)
  }
  return hash.digest('hex').slice(0, 16)
}

function link (target, at) {
  mkdirSync(dirname(at), { recursive: true })
  symlinkSync(relative(dirname(at), target), at)
}

/** the builds other than `keep`, oldest first */
function olderBuilds (keep) {
  if (!existsSync(DIST)) return []
  return readdirSync(DIST)
    .filter((name) => /^[0-9a-f]{16}$/.test(name) && name !== keep)
    .map((name) => ({ name, at: statSync(join(DIST, name)).mtimeMs }))
    .sort((a, b) => a.at - b.at)
}

/** the compiled project's folder, compiled now when the sources changed since the last build */
export async function compiled () {
  const esbuild = await import('esbuild')
  const server = SOURCES.flatMap(filesUnder).sort()
  const consoleModules = filesUnder(CONSOLE_MODULES).filter((f) => /\.tsx?$/.test(f)).sort()
  const name = fingerprint([...server, ...consoleModules], esbuild.version)
  const out = join(DIST, name)
  if (!existsSync(out)) {
    const building = join(DIST, `.building-${process.pid}-${Date.now()}`)
    try {
      const common = { outdir: building, outbase: ROOT, absWorkingDir: ROOT, platform: 'node', format: 'esm', target: 'node20', sourcemap: 'linked', logLevel: 'error' }
      await esbuild.build({ ...common, entryPoints: server.filter(isCompiled) })
      await esbuild.build({ ...common, entryPoints: consoleModules.filter(isCompiled), bundle: true, packages: 'external', jsx: 'automatic' })
      for (const file of server.filter((f) => !f.endsWith('.ts'))) link(join(ROOT, file), join(building, file))
      for (const path of LINKED) if (existsSync(join(ROOT, path))) link(join(ROOT, path), join(building, path))
      try {
        renameSync(building, out)
      } catch (err) {
        // another process built the same sources first: theirs is as good
        if (!existsSync(out)) throw err
      }
    } finally {
      rmSync(building, { recursive: true, force: true })
    }
  }
  const current = join(DIST, 'current')
  const pointing = `${current}.${process.pid}`
  rmSync(pointing, { force: true })
  symlinkSync(name, pointing)
  renameSync(pointing, current)
  for (const old of olderBuilds(name).slice(0, -KEPT_BUILDS)) rmSync(join(DIST, old.name), { recursive: true, force: true })
  return out
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  process.stdout.write(`${await compiled()}\n`)
}
