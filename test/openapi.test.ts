import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from './helpers/app.js'

interface Schema { $ref?: string, type?: string | string[], enum?: unknown[], const?: unknown, format?: string, maxLength?: number, minimum?: number, maximum?: number, properties?: Record<string, Schema>, items?: Schema, anyOf?: Schema[] }
interface Operation { operationId?: string, parameters?: { in: string, name: string, schema?: Schema }[], requestBody?: { content?: Record<string, { schema?: Schema }> } }
type Document = { paths: Record<string, Record<string, Operation>>, components: { schemas: Record<string, unknown> } }

describe('OpenAPI document', () => {
  let t: TestApp
  let doc: Document
  before(async () => {
    t = await buildTestApp()
    doc = t.app.swagger() as unknown as Document
  })
  after(() => t.close())

  it('describes every route the application serves', () => {
    const served = t.app.registeredRoutes.filter((r) => !r.hidden && r.method !== 'HEAD')
    assert.ok(served.length > 0)
    for (const route of served) {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      assert.ok(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path} is not in the document`)
    }
  })

  it('names component schemas as the interface does, and gives every operation a unique id', () => {
    for (const name of ['GroupResponse', 'GroupCreate', 'MessageResponse']) assert.ok(doc.components.schemas[name], name)
    assert.ok(!Object.keys(doc.components.schemas).some((n) => n.startsWith('def-')), 'unnamed component schema')
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId))
    assert.ok(ids.every(Boolean), 'operation without operationId')
    assert.equal(new Set(ids).size, ids.length, 'duplicate operationId')
  })

  it('declares the limits of every input: strings a maximum length, numbers a range', () => {
    const components = doc.components.schemas as Record<string, Schema>
    const unbounded = new Set<string>()
    const walk = (schema: Schema | undefined, where: string, seen: Set<string>): void => {
      if (!schema) return
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.split('/').pop()!.replace(/#$/, '')
        if (!seen.has(name)) walk(components[name], `${where}>${name}`, new Set([...seen, name]))
        return
      }
      const types = ([] as string[]).concat(schema.type ?? [])
      const closed = schema.enum !== undefined || schema.const !== undefined || ['date-time', 'date', 'uuid'].includes(schema.format ?? '')
      if (types.includes('string') && !closed && schema.maxLength === undefined) unbounded.add(`${where}: string without maxLength`)
      if ((types.includes('integer') || types.includes('number')) && (schema.minimum === undefined || schema.maximum === undefined)) unbounded.add(`${where}: number without a range`)
      for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, `${where}.${key}`, seen)
      walk(schema.items, `${where}[]`, seen)
      for (const branch of schema.anyOf ?? []) walk(branch, where, seen)
    }
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops) as [string, Operation][]) {
        for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.in}.${p.name}`, new Set())
        walk(op.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`, new Set())
      }
    }
    assert.deepEqual([...unbounded], [])
  })

  it('matches the committed openapi.json (run `npm run openapi` after changing the API)', () => {
    const committed = JSON.parse(readFileSync('openapi.json', 'utf8'))
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), committed)
  })

  it('the console\'s typed client matches the committed openapi.json (run `npm run console:api` after `npm run openapi`)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-api-'))
    try {
      const out = join(dir, 'schema.d.ts')
      await new Promise<void>((resolve, reject) => execFile(process.execPath, ['node_modules/openapi-typescript/bin/cli.js', 'openapi.json', '--default-non-nullable', 'false', '-o', out], (err) => err ? reject(err) : resolve()))
      assert.ok(readFileSync(out, 'utf8') === readFileSync('web/src/api/schema.d.ts', 'utf8'), 'web/src/api/schema.d.ts drifted from openapi.json')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
