import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from './helpers/app.js'

type Document = { paths: Record<string, Record<string, { operationId?: string }>>, components: { schemas: Record<string, unknown> } }

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

  it('matches the committed openapi.json (run `npm run openapi` after changing the API)', () => {
    const committed = JSON.parse(readFileSync('openapi.json', 'utf8'))
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), committed)
  })
})
