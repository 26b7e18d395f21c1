import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/client.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { createTestDatabase } from '../helpers/database.js'
import { answers, eventually, startHttpTarget, type Behaviour } from '../helpers/http-target.js'

// short waits between attempts, but a request's own timeout a loaded machine's answer fits in
const fastSync = { EXT_SYNC_TOKEN: 'ext-token-123', EXT_SYNC_INTERVAL: '30ms', EXT_SYNC_BACKOFF: '40ms', EXT_SYNC_TIMEOUT: '2s', EXT_SYNC_MAX_ATTEMPTS: '3' }
/** how long a test waits for what the sync does in the background: generous, it returns as soon as it is so */
const BOUND_MS = 30_000

describe('ext sync against a real HTTP target', () => {
  let target: Awaited<ReturnType<typeof startHttpTarget>>
  let database: Database
  let t: TestApp
  let prefixSeq = 500

  before(async () => {
    target = await startHttpTarget()
    database = await createTestDatabase()
    t = await buildTestApp({ database, env: { ...fastSync, EXT_SYNC_URL: target.url } })
  })
  after(async () => {
    await t.app.close()
    await database.close()
    await target.close()
  })

  const create = async (app = t.app) => {
    const res = await app.inject({ method: 'POST', url: '/api/organizations', payload: { name: 'Синхронная', region_id: await region(app), prefix: String(++prefixSeq), modules: ['appeals'] } })
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { id: number, prefix: string, ext_sync_status: string }
  }
  let regionId: number | undefined
  const region = async (app = t.app) => {
    regionId ??= (await app.inject({ method: 'POST', url: '/api/regions', payload: { name: 'Синхрон-регион', phone_code: '7172' } })).json().id
    return regionId!
  }
  const state = async (id: number, app = t.app) => (await app.inject({ url: `/api/shared/organizations/${id}` })).json() as { ext_sync_status: string, ext_sync_error: string | null, ext_synced_at: string | null }
  const sentFor = (id: number) => target.received.filter((r) => JSON.parse(r.body).organization.id === id)

  it('a change is posted with the token and an idempotency key, then marked synced', async () => {
    const o = await create()
    assert.equal(o.ext_sync_status, 'pending')
    const synced = await eventually(async () => { const s = await state(o.id); return s.ext_sync_status === 'synced' && s }, BOUND_MS, 'synced')
    assert.ok(synced.ext_synced_at)
    const [sent] = sentFor(o.id)
    assert.equal(sent!.method, 'POST')
    assert.equal(sent!.headers.authorization, 'Bearer ext-token-123')
    assert.equal(sent!.headers['idempotency-key'], `organization-${o.id}-v1`)
    const body = JSON.parse(sent!.body)
    assert.equal(body.event, 'organization.upserted')
    assert.equal(body.organization.name, 'Синхронная')
    assert.deepEqual(body.organization.modules, ['appeals'])
    assert.ok(body.changed_at)
    const del = await t.app.inject({ method: 'DELETE', url: `/api/shared/organizations/${o.id}` })
    assert.equal(del.statusCode, 200)
    await eventually(async () => sentFor(o.id).find((r) => JSON.parse(r.body).event === 'organization.deleted'), BOUND_MS, 'delete posted')
  })

  it('a 500 is retried with backoff until it succeeds', async () => {
    target.answerNext(answers.status(500), answers.status(503))
    const o = await create()
    await eventually(async () => (await state(o.id)).ext_sync_status === 'synced', BOUND_MS, 'synced after retries')
    assert.equal(sentFor(o.id).length, 3)
  })

  it('a target that never answers times out; after the last attempt the state is failed; retry routes queue it again', async () => {
    target.setDefault(answers.silent)
    const o = await create()
    const failed = await eventually(async () => { const s = await state(o.id); return s.ext_sync_status === 'failed' && s }, BOUND_MS, 'failed')
    assert.match(failed.ext_sync_error!, /no answer within 2000 ms/)
    assert.equal(sentFor(o.id).length, 3)
    target.setDefault(answers.ok)
    const retried = await t.app.inject({ method: 'POST', url: '/api/organizations/retry-all-failed-ext' })
    assert.ok(retried.json().queued >= 1)
    await eventually(async () => (await state(o.id)).ext_sync_status === 'synced', BOUND_MS, 'synced after retry')
    const one = await t.app.inject({ method: 'POST', url: `/api/shared/organizations/${o.id}/retry-ext-sync` })
    assert.equal(one.json().queued, 1)
    await eventually(async () => sentFor(o.id).length === 5, BOUND_MS, 'sent again on request')
  })

  it('two instances keep one organization\'s versions in order: a newer change waits for the send in flight', async () => {
    const second = await buildTestApp({ database, env: { ...fastSync, EXT_SYNC_URL: target.url } })
    try {
      let inFlight = 0
      let overlapped = false
      const slow: Behaviour = (req, res) => {
        inFlight++
        if (inFlight > 1) overlapped = true
        setTimeout(() => { inFlight--; answers.ok(req, res) }, 150)
      }
      target.setDefault(slow)
      const o = await create()
      await eventually(async () => sentFor(o.id).length >= 1, BOUND_MS, 'first send in flight')
      for (const [i, app] of [t.app, second.app, t.app].entries()) {
        const res = await app.inject({ method: 'PUT', url: `/api/shared/organizations/${o.id}`, payload: { name: `Синхронная ${i + 2}`, region_id: await region(), prefix: o.prefix, modules: ['appeals'] } })
        assert.equal(res.statusCode, 200, res.body)
      }
      await eventually(async () => { const s = await state(o.id); return s.ext_sync_status === 'synced' && sentFor(o.id).at(-1)!.headers['idempotency-key'] === `organization-${o.id}-v4` }, BOUND_MS, 'the last version synced')
      const versions = sentFor(o.id).map((r) => Number(/v(\d+)$/.exec(String(r.headers['idempotency-key']))![1]))
      assert.deepEqual(versions, [...versions].sort((a, b) => a - b), `versions arrived in order: ${versions.join(', ')}`)
      assert.equal(overlapped, false, 'never two sends of one organization at once')
      assert.equal(JSON.parse(sentFor(o.id).at(-1)!.body).organization.name, 'Синхронная 4')
    } finally {
      target.setDefault(answers.ok)
      await second.app.close()
    }
  })

  it('restart in the middle: nothing is lost, and nothing is sent again once synced', async () => {
    // attempts enough that the change is still pending, not failed, whenever the service stops
    await t.app.close()
    t = await buildTestApp({ database, env: { ...fastSync, EXT_SYNC_URL: target.url, EXT_SYNC_MAX_ATTEMPTS: '100' } })
    target.setDefault(answers.status(500))
    const o = await create()
    await eventually(async () => sentFor(o.id).length >= 1, BOUND_MS, 'first attempt')
    await t.app.close() // the service stops with the change still unsent
    target.setDefault(answers.ok)
    t = await buildTestApp({ database, env: { ...fastSync, EXT_SYNC_URL: target.url } })
    await eventually(async () => (await state(o.id)).ext_sync_status === 'synced', BOUND_MS, 'synced after restart')
    const sent = sentFor(o.id).length
    await t.app.close()
    t = await buildTestApp({ database, env: { ...fastSync, EXT_SYNC_URL: target.url } })
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(sentFor(o.id).length, sent, 'a synced organization is not posted again')
  })
})
