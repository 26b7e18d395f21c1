// Property-based fuzzing of every operation of the committed openapi.json through the running
// application: valid and invalid values from each operation's schemas, with an admin token, with
// none and with a forged one. Whatever is sent, the answer is below 500 and every error has a
// `detail`; the service is healthy afterwards.
//
// Seeded and reproducible: FUZZ_SEED=<seed printed below> replays a run; FUZZ_RUNS sets the
// requests per operation, FUZZ_SECONDS the time the whole run may take. Every operation gets
// FUZZ_MIN_RUNS requests whatever the time. The rest of the budget goes where the schema changed:
// to the operations whose schema (parameters, body and the components they use) differs from the
// one recorded when they were last fuzzed in full (fuzzed-operations.json, written by
// `npm run fuzz:record`), shared among those not yet run, so a slow machine fuzzes each less
// instead of skipping the last ones. FUZZ_ALL=1 spends it on every operation.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { seedReferenceData } from '../../src/db/seed/index.js'
import { referencedSchemas } from '../../src/lib/serializers.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeUser } from '../helpers/factories.js'
import { startLlmUpstream, type LlmUpstream } from '../helpers/llm-upstream.js'
import { bodyValue, deeplyNested, textValue, toJsonText, type Components, type JsonSchema } from './arbitraries.js'

const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'))
const components: Components = document.components.schemas
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647)
const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 300)
const deadline = Date.now() + Number(process.env.FUZZ_SECONDS ?? 180) * 1000
const minRunsPerOperation = Math.min(runsPerOperation, Number(process.env.FUZZ_MIN_RUNS ?? 40))
/** `npm run fuzz:record`: every operation fuzzed in full, with no time limit, and the record written when all pass */
const recording = process.env.FUZZ_RECORD === '1'
const RECORD = new URL('./fuzzed-operations.json', import.meta.url)
const recorded: Record<string, string> = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, 'utf8')) : {}

/** never answers by itself: an endless event stream */
const skipped = new Set(['GET /api/call-events/stream'])

interface Operation { method: string, path: string, parameters: JsonSchema[], body?: JsonSchema, key: string, schemaHash: string }

/** an operation's inputs as fuzzed: its parameters, its body and every component they name, however deep */
function schemaHash (inputs: unknown): string {
  const named = referencedSchemas(inputs, components, (ref) => ref.split('/').at(-1))
  return createHash('sha256').update(JSON.stringify([inputs, Object.entries(named).sort(([a], [b]) => a.localeCompare(b))])).digest('hex').slice(0, 16)
}

const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => {
    const inputs = { parameters: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema }
    return { method: method.toUpperCase(), path, ...inputs, key: `${method.toUpperCase()} ${path}`, schemaHash: schemaHash(inputs) }
  })).filter((op) => !skipped.has(op.key))
/** the operations the time budget goes to: changed or new since the record (every one when recording, or with FUZZ_ALL=1) */
const changed = operations.filter((op) => recording || process.env.FUZZ_ALL === '1' || recorded[op.key] !== op.schemaHash)

interface Request { auth: 'admin' | 'none' | 'forged', path: Record<string, string>, query: [string, string][], body: unknown, sendBody: boolean }

function requestArbitrary (op: Operation): fc.Arbitrary<Request> {
  const inPath = op.parameters.filter((p) => p.in === 'path')
  const inQuery = op.parameters.filter((p) => p.in === 'query')
  const pathRecord: Record<string, fc.Arbitrary<string>> = {}
  for (const p of inPath) pathRecord[p.name] = textValue(p.schema ?? {}, components)
  const queryPairs = inQuery.length === 0
    ? fc.constant([] as [string, string][])
    : fc.array(fc.tuple(fc.constantFrom(...inQuery.map((p) => p.name as string)), fc.constant(null)).chain(([name]) =>
      textValue(inQuery.find((p) => p.name === name)!.schema ?? {}, components).map((v) => [name, v] as [string, string])), { maxLength: 4 })
  return fc.record({
    auth: fc.constantFrom('admin', 'admin', 'admin', 'admin', 'none', 'forged'),
    path: fc.record(pathRecord),
    query: queryPairs,
    body: op.body ? bodyValue(op.body, components) : fc.constant(undefined),
    sendBody: fc.boolean(),
  })
}

describe('fuzzing every operation of openapi.json', () => {
  let t: TestApp
  let upstream: LlmUpstream
  let configDir: string
  let adminHeader: Record<string, string>
  let requests = 0
  const statuses = new Map<number, number>()
  /** the operations whose fuzzing passed (a record is written only when every one did) */
  const passed = new Set<string>()
  const started = Date.now()

  before(async () => {
    upstream = await startLlmUpstream()
    configDir = mkdtempSync(join(tmpdir(), 'fuzz-pbx-'))
    t = await buildTestApp({
      env: {
        LLM_PROVIDERS: JSON.stringify([{ name: 'local', base_url: upstream.url, model: 'm1', external: false, timeout: '5s' }]),
        LLM_MAX_RETRIES: '0',
        PBX_CONFIG_DIR: configDir,
      },
    })
    await seedReferenceData(t.database.db)
    adminHeader = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    // some rows for the small ids the generators try, so that updates and deletes reach the database
    await t.app.inject({ method: 'POST', url: '/api/organizations/', headers: adminHeader, payload: { org_name: 'Fuzz org', org_prefix: '555', max_operators: 5 } })
    await t.app.inject({ method: 'POST', url: '/api/organizations/1/endpoints/', headers: adminHeader, payload: { name: 'Fuzz', extension: '001', password: 'Abcdefghij0123456789' } })
    await t.app.inject({ method: 'POST', url: '/api/classifiers', headers: adminHeader, payload: { name: 'Fuzz', code: 'FUZZ' } })
    await t.app.inject({ method: 'POST', url: '/api/references/persons', payload: { full_name: 'Фаззер Тест', iin: '061211600012', phone: '+77012345678' } })
    await t.app.inject({ method: 'POST', url: '/api/call-events/answered', payload: { call_id: 'fuzz-1', caller_phone: '+77012345678', operator_num: '555001' } })
    await t.app.inject({ method: 'POST', url: '/platform/tenants', payload: { tenant_id: '1', name: 'Fuzz tenant' } })
    process.stdout.write(`# fuzz seed ${seed} (replay: FUZZ_SEED=${seed}), ${operations.length} operations: ${minRunsPerOperation} runs each, up to ${runsPerOperation} for the ${changed.length} whose schema changed since fuzzed-operations.json\n`)
  })

  after(async () => {
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([code, n]) => `${code}: ${n}`).join(', ')
    process.stdout.write(`# fuzz: ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed}); ${byStatus}\n`)
    if (recording && passed.size === operations.length) {
      writeFileSync(RECORD, `${JSON.stringify(Object.fromEntries(operations.map((op) => [op.key, op.schemaHash]).sort(([a], [b]) => a!.localeCompare(b!))), null, 2)}\n`)
      process.stdout.write(`# fuzz: every operation fuzzed in full; ${RECORD.pathname} written\n`)
    }
    await t.close()
    await upstream.close()
    rmSync(configDir, { recursive: true, force: true })
  })

  /** a fresh admin after an operation may have deactivated or re-passworded the last one */
  async function adminToken (): Promise<Record<string, string>> {
    const probe = await t.app.inject({ url: '/api/auth/profile', headers: adminHeader })
    if (probe.statusCode !== 200) adminHeader = await login(t.app, await makeUser(t.database.db, { role: 'admin' }))
    return adminHeader
  }

  it('the fuzzer itself writes its nested values out in full (it once sent a short marker instead)', () => {
    for (const nested of fc.sample(deeplyNested, { seed, numRuns: 20 })) {
      const text = toJsonText({ name: [nested] })
      assert.ok(!text.includes('nested'), `a marker was left in ${text.slice(0, 80)}`)
      let depth = 0
      let deepest = 0
      for (const c of text) { depth += c === '[' || c === '{' ? 1 : c === ']' || c === '}' ? -1 : 0; deepest = Math.max(deepest, depth) }
      assert.ok(deepest >= nested.depth, `${String(nested)} nests ${deepest} levels`)
    }
  })

  for (const op of operations) {
    it(op.key, async () => {
      await adminToken()
      const property = fc.asyncProperty(requestArbitrary(op), async (r) => {
        const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => r.path[name] ?? '1')
        const query = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')
        const headers: Record<string, string> = {}
        if (r.auth === 'admin') Object.assign(headers, adminHeader)
        if (r.auth === 'forged') headers.authorization = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged'
        const withBody = op.body !== undefined || r.sendBody
        if (withBody) headers['content-type'] = 'application/json'
        requests++
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: query ? `${path}?${query}` : path,
          headers,
          ...(withBody ? { payload: op.body !== undefined && r.body !== undefined ? toJsonText(r.body) : '' } : {}),
        })
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        // the request may have deactivated the fuzzing admin itself: the next one gets a new admin
        if (r.auth === 'admin' && res.statusCode === 401) await adminToken()
        // the service fuzzed has no Asterisk: what only Asterisk can do (a line opened at its switch, a
        // call placed) answers 503 with why, as documented; any other 5xx is a fault
        const withoutAsterisk = res.statusCode === 503 && /^Asterisk Manager Interface is not configured/.test(String(res.json<{ detail?: unknown }>().detail))
        assert.ok(res.statusCode < 500 || withoutAsterisk, `${op.method} ${path}?${query} -> ${res.statusCode} ${res.body.slice(0, 300)}\nbody: ${toJsonText(r.body)?.slice(0, 300)}`)
        if (res.statusCode >= 400) {
          const body = res.json()
          assert.ok('detail' in body, `no detail in ${res.statusCode}: ${res.body.slice(0, 200)}`)
          if (res.statusCode === 422) assert.ok(Array.isArray(body.detail) && body.detail.every((d: { loc?: unknown }) => Array.isArray(d.loc)), res.body.slice(0, 300))
        }
      })
      const options = { endOnFailure: true, includeErrorInReport: true }
      await fc.assert(property, { ...options, seed, numRuns: minRunsPerOperation })
      // a changed operation's share of the time left, among the changed ones not yet run
      const rank = changed.indexOf(op)
      const share = (deadline - Date.now()) / (changed.length - rank)
      if (rank >= 0 && runsPerOperation > minRunsPerOperation && (share > 0 || recording)) {
        await fc.assert(property, { ...options, seed: seed + 1, numRuns: runsPerOperation - minRunsPerOperation, ...(recording ? {} : { interruptAfterTimeLimit: Math.max(1, Math.floor(share)) }) })
      }
      passed.add(op.key)
    })
  }

  it('the service is healthy after the run', async () => {
    const res = await t.app.inject({ url: '/health' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal((await t.app.inject({ url: '/api/classifiers', headers: await adminToken() })).statusCode, 200)
  })
})
