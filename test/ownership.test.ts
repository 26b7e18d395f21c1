// Each table has one owning module; others reach it through the queries the owner exports
// (`<owner>/queries.ts`), never through its columns, its repository or SQL text naming it.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { getTableName } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import * as schema from '../src/db/schema/index.js'
import { PROJECT_ROOT } from './helpers/runnable.js'

const OWNERS: Record<string, string[]> = {
  'modules/agents': ['agentChoices', 'breakReasons'],
  'modules/line-calls': ['lineCalls', 'lineCallIntervals', 'lineCallOperatorIntervals', 'lineEntryIntervals', 'lineEventLeader', 'memberStates', 'memberStatePeriods'],
  'modules/auth': ['authTokens', 'loginFailures', 'serviceSettings'],
  'modules/call-events': ['calls', 'callChunks', 'consolePresence'],
  'modules/call-routing': ['queues', 'queueMembers', 'menus', 'menuOptions', 'schedules', 'scheduleHours', 'inboundLines', 'prompts', 'promptRecordings'],
  'modules/classifiers': ['classifiers', 'appealTypes', 'categories', 'subcategories'],
  'modules/employees': ['users'],
  'modules/endpoints': ['psEndpoints', 'psAuths', 'psAors', 'sipTerminals'],
  'modules/groups': ['organizationGroups'],
  'modules/llm': ['llmCalls'],
  'modules/organizations': ['organizations', 'organizationCounters', 'organizationGroupLinks', 'notificationSettings', 'extSyncOutbox'],
  'modules/platform': ['platformTenants', 'platformAudit'],
  'modules/references': ['sources', 'responseMethods', 'persons'],
  'modules/regions': ['regions'],
  'modules/appeals': ['appeals', 'appealEvents', 'appealCounters'],
  'modules/calendar': ['calendarDays'],
  'integrations/mail': ['mailOutbox'],
  'modules/notifications': ['notifications'],
  'modules/audit': ['personalDataAccess', 'dataProtectionOfficers'],
  'modules/recordings': ['callRecordings', 'recordingBins'],
  'modules/trunks': ['trunks', 'outboundRoutes', 'outboundRouteTrunks'],
  'modules/line-switch': ['lineSwitches'],
  'modules/placed-calls': ['placedCalls', 'callbackRequests'],
  'modules/pbx': ['pbxVersions', 'pbxApplyState', 'pbxAsteriskRefusals'],
}

const tables = new Map((Object.entries(schema) as [string, unknown][]).filter((e): e is [string, PgTable] => e[1] instanceof PgTable))
const ownerOf = new Map(Object.entries(OWNERS).flatMap(([owner, names]) => names.map((name) => [name, owner] as const)))

const root = join(PROJECT_ROOT, 'src')
const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [])
// src/db/schema declares the tables; the rest of src/db (the driver, migrations, the seed's order,
// helpers such as the Kazakh names) owns none and is held to the same rules as any module
const files = sources(root).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))
  .filter((f) => !f.path.startsWith('db/schema/'))
const unitOf = (path: string) => path.split('/').slice(0, 2).join('/')

/** the value names a statement imports from the schema (type-only names left out) */
function schemaImports (text: string): string[] {
  return [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'[./]*\/db\/schema\/[\w-]*(?:\.js)?'/g)]
    .filter((m) => !m[1])
    .flatMap((m) => m[2]!.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')))
}

describe('table ownership', () => {
  it('every table has exactly one owner, and every owned name is a table', () => {
    for (const name of tables.keys()) assert.ok(ownerOf.has(name), `table ${name} has no owner`)
    for (const name of ownerOf.keys()) assert.ok(tables.has(name), `${name} (owned by ${ownerOf.get(name)}) is not a table`)
    assert.equal(ownerOf.size, Object.values(OWNERS).flat().length, 'a table is listed under two owners')
  })

  it('a module imports only its own tables from the schema', () => {
    const trespasses = files.flatMap((f) => schemaImports(f.text)
      .filter((name) => tables.has(name) && ownerOf.get(name) !== unitOf(f.path))
      .map((name) => `${f.path} imports ${name} (owned by ${ownerOf.get(name)})`))
    assert.deepEqual(trespasses, [])
  })

  it('no SQL text names another module\'s table', () => {
    const trespasses: string[] = []
    for (const f of files) {
      const templates = [...f.text.matchAll(/`[^`]*`/g)].map((m) => m[0]).join('\n')
      for (const [name, table] of tables) {
        if (ownerOf.get(name) === unitOf(f.path)) continue
        const pattern = new RegExp(`\\b(from|join|into|update|table)\\s+"?${getTableName(table)}"?\\b`, 'i')
        if (pattern.test(templates)) trespasses.push(`${f.path} names ${getTableName(table)} in SQL (owned by ${ownerOf.get(name)})`)
      }
    }
    assert.deepEqual(trespasses, [])
  })

  it('no module builds another module\'s repository, from its repo.ts or any other file of its folder', () => {
    const trespasses = files.flatMap((f) => [...f.text.matchAll(/import\s+\{([^}]*)\}\s+from\s+'\.\.\/([\w-]+)\/[\w./-]+'/g)]
      .filter((m) => `modules/${m[2]}` !== unitOf(f.path) && /\bcreate\w*Repo\b/.test(m[1]!))
      .map((m) => `${f.path} imports ${m[1]!.trim()} from ${m[2]}`))
    assert.deepEqual(trespasses, [])
  })

  it('no module reaches into another module\'s repository', () => {
    const trespasses = files.flatMap((f) => [...f.text.matchAll(/from\s+'\.\.\/([\w-]+)\/repo(?:\.js)?'/g)]
      .filter((m) => `modules/${m[1]}` !== unitOf(f.path))
      .map((m) => `${f.path} imports ${m[1]}/repo`))
    assert.deepEqual(trespasses, [])
  })

  it('the checks see what they are looking for (a trespass would be found)', () => {
    assert.deepEqual(schemaImports("import { users, type Role } from '../../db/schema/index.js'"), ['users'])
    assert.deepEqual(schemaImports("import type { Role } from '../../db/schema/users.js'"), [])
    assert.ok(files.some((f) => f.path === 'modules/employees/queries.ts' && schemaImports(f.text).includes('users')))
    assert.ok(files.some((f) => f.path === 'db/seed/reference-seed.ts') && files.some((f) => f.path === 'db/kazakh-names.ts'), 'src/db is covered')
    assert.equal(unitOf('db/seed/reference-seed.ts'), 'db/seed', 'a part of src/db owns no table')
  })
})
