// `npm test`: prepares one migrated database template for the run, then runs every test file with
// node's test runner. Each file clones the template (DESIGN: no multi-second set-up per file).
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { adminQuery, databaseName, databaseUrlNamed, dropDatabase } from '../src/db/admin.js'
import { createDb } from '../src/db/client.js'
import { runMigrations } from '../src/db/migrate.js'

function testFiles (dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return testFiles(path)
    return path.endsWith('.test.ts') ? [path] : []
  }).sort()
}

async function preparePglite (workDir: string): Promise<Record<string, string>> {
  const database = await createDb({})
  await runMigrations(database)
  const image = await database.image()
  const file = join(workDir, 'template.tar')
  writeFileSync(file, Buffer.from(await image.arrayBuffer()))
  await database.close()
  return { TEST_PGLITE_TEMPLATE: file }
}

async function preparePostgres (url: string): Promise<Record<string, string>> {
  const template = `${databaseName(url)}_tpl`
  await dropDatabase(url, template)
  await adminQuery(url, `create database "${template}"`)
  const database = await createDb({ databaseUrl: databaseUrlNamed(url, template), poolSize: 1 })
  await runMigrations(database)
  await database.close()
  return { TEST_PG_TEMPLATE: template }
}

async function main (): Promise<number> {
  const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : testFiles('test')
  if (files.length === 0) {
    process.stderr.write('no test files found under test/\n')
    return 1
  }
  const workDir = mkdtempSync(join(tmpdir(), 'appeals-test-'))
  try {
    const url = process.env.TEST_DATABASE_URL
    // the embedded template always: the embedded driver's own tests run on it on a PostgreSQL run too
    const env = { ...await preparePglite(workDir), ...(url ? await preparePostgres(url) : {}) }
    process.stdout.write(`database: ${url ? 'PostgreSQL server' : 'embedded PGlite'}, ${files.length} test files\n`)
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=240000', ...files], {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    })
    return await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)))
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
