import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { setBounded } from './collections.js'
import { appendRouteHook } from './http.js'

/**
 * Reference data (regions, classifiers, the seeded lists, groups, the organizations list) changes a
 * few times a day and is read on every page. Each instance keeps the bytes of each answer, per topic
 * and query variant, and answers them with a strong ETag (304 on If-None-Match). A write drops the
 * topic's copies: the writing instance's before its answer leaves, every other instance's when the
 * tables' trigger notifies `reference_changed` with the commit (see migration 0017).
 */
export const REFERENCE_TOPICS = ['regions', 'classifiers', 'lists', 'groups', 'organizations'] as const
export type ReferenceTopic = typeof REFERENCE_TOPICS[number]
export const REFERENCE_CHANNEL = 'reference_changed'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a GET answered from this instance's copy of its bytes while the topic's tables do not change */
    cachedAs?: ReferenceTopic
    /** a successful write of this route changes these topics */
    changes?: readonly ReferenceTopic[]
  }
  interface FastifyInstance {
    /** gives a route the cache's hooks once its config says what it reads or changes */
    cacheReferenceRoute: (route: RouteOptions) => void
  }
  interface FastifyRequest {
    referenceMiss?: { topic: ReferenceTopic, key: string, generation: number, finish: () => void }
  }
}

export interface CachedAnswer { body: Buffer, etag: string }

/** strong: the same bytes have the same tag on every instance */
const etagOf = (body: Buffer | string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`

interface TopicCopies { generation: number, answers: Map<string, CachedAnswer> }

export function createReferenceCache (options: { maxVariants: number, isLive: () => boolean, looked?: (topic: ReferenceTopic, hit: boolean) => void }) {
  const topics = new Map<ReferenceTopic, TopicCopies>(REFERENCE_TOPICS.map((t) => [t, { generation: 0, answers: new Map() }]))
  const copiesOf = (topic: ReferenceTopic) => topics.get(topic)!
  const dropListeners: ((topic: ReferenceTopic) => void)[] = []
  return {
    /** hears every topic dropped, by a local write or a notification: for what depends on it elsewhere */
    onDrop: (listener: (topic: ReferenceTopic) => void) => { dropListeners.push(listener) },
    /** whether answers are kept now (on, and hearing changes) */
    live: (): boolean => options.isLive(),
    lookup: (topic: ReferenceTopic, key: string): CachedAnswer | undefined => (options.isLive() ? copiesOf(topic).answers.get(key) : undefined),
    /** a request answered from a kept copy (hit) or read from the database (miss): for the metrics */
    looked: (topic: ReferenceTopic, hit: boolean): void => { options.looked?.(topic, hit) },
    generation: (topic: ReferenceTopic) => copiesOf(topic).generation,
    /** keeps an answer unless its topic changed since it was read (or changes cannot be heard now) */
    store (topic: ReferenceTopic, key: string, generation: number, body: string): CachedAnswer | undefined {
      const copies = copiesOf(topic)
      if (copies.generation !== generation || !options.isLive()) return undefined
      const bytes = Buffer.from(body)
      const answer = { body: bytes, etag: etagOf(bytes) }
      setBounded(copies.answers, key, answer, options.maxVariants)
      return answer
    },
    drop (topic: string): void {
      const copies = topics.get(topic as ReferenceTopic)
      if (!copies) return
      copies.generation++
      copies.answers.clear()
      for (const listener of dropListeners) listener(topic as ReferenceTopic)
    },
    clear (): void { for (const topic of REFERENCE_TOPICS) this.drop(topic) },
  }
}

export type ReferenceCache = ReturnType<typeof createReferenceCache>

const methodsOf = (route: RouteOptions) => ([] as string[]).concat(route.method)
const isGet = (route: RouteOptions) => methodsOf(route).includes('GET')
/** GET and the HEAD that Fastify makes of it read; the HEAD is neither cached nor a write */
const isRead = (route: RouteOptions) => methodsOf(route).every((m) => m === 'GET' || m === 'HEAD')

/** an onRoute hook for a module of reference data: its GETs are cached under `topic`, its writes change it */
export const referenceRoutes = (topic: ReferenceTopic) => (route: RouteOptions) => {
  if (!isRead(route)) route.config = { changes: [topic], ...route.config }
  else if (isGet(route)) route.config = { cachedAs: topic, ...route.config }
}

/** an onRoute hook: the module's writes change these topics (it serves none of them) */
export const changesReferences = (...changes: ReferenceTopic[]) => (route: RouteOptions) => {
  if (!isRead(route)) route.config = { changes, ...route.config }
}

function matchesEtag (req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match']
  if (!header) return false
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

function answerCached (req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache')
  if (matchesEtag(req, answer.etag)) return reply.code(304).send()
  return reply.type('application/json; charset=utf-8').send(answer.body)
}

/**
 * Answers a cached GET from the last of its route's onRequest hooks: after authentication and the
 * route's own role checks, before parsing, validation, handler and serialisation. The key is the URL
 * as sent: a URL that once passed validation and answered 200 passes it again. A miss keeps its
 * serialised answer, and the same misses that come meanwhile wait for it instead of each reading the
 * database; a route that changes a topic drops it when it succeeds, before the answer leaves.
 */
export const referenceCachePlugin = fp<{ cache: ReferenceCache }>(async (app: FastifyInstance, { cache }) => {
  // one read of a missing answer at a time: the others wait for its bytes rather than all reading at once
  const filling = new Map<string, Promise<void>>()
  const startFill = (req: FastifyRequest, reply: FastifyReply, topic: ReferenceTopic) => {
    const key = `${topic}\u0000${req.url}`
    let release = () => {}
    const fill = new Promise<void>((resolve) => { release = resolve })
    filling.set(key, fill)
    const finish = () => {
      if (filling.get(key) === fill) filling.delete(key)
      release()
    }
    req.referenceMiss = { topic, key: req.url, generation: cache.generation(topic), finish }
    // a read that ended without its answer (the client went away) lets the waiting ones read for themselves
    reply.raw.once('close', finish)
  }
  const answerFromCopy = (topic: ReferenceTopic): onRequestHookHandler => (req, reply, done) => {
    // nothing is kept while the cache is off or deaf: no request waits for another's read then
    if (!cache.live()) { cache.looked(topic, false); done(); return }
    const hit = cache.lookup(topic, req.url)
    cache.looked(topic, hit !== undefined)
    if (hit) { answerCached(req, reply, hit); return }
    const pending = filling.get(`${topic}\u0000${req.url}`)
    if (!pending) { startFill(req, reply, topic); done(); return }
    void pending.then(() => {
      const filled = cache.lookup(topic, req.url)
      if (filled) { answerCached(req, reply, filled); return }
      // the read failed, or the topic changed meanwhile: this request reads for itself
      req.referenceMiss = { topic, key: req.url, generation: cache.generation(topic), finish: () => {} }
      done()
    })
  }
  const keepAnswer: onSendHookHandler = (req, reply, payload, done) => {
    const miss = req.referenceMiss
    if (reply.statusCode === 200 && typeof payload === 'string') {
      // an answer not kept (read while its topic changed, or the cache deaf) still has its bytes' tag
      const etag = (miss && cache.store(miss.topic, miss.key, miss.generation, payload)?.etag) ?? etagOf(payload)
      reply.header('etag', etag).header('cache-control', 'no-cache')
      if (matchesEtag(req, etag)) {
        miss?.finish()
        reply.code(304)
        done(null, '')
        return
      }
    }
    miss?.finish()
    done(null, payload)
  }
  const dropOnSuccess = (changes: readonly ReferenceTopic[]): onSendHookHandler => (_req, reply, payload, done) => {
    if (reply.statusCode < 400) for (const topic of changes) cache.drop(topic)
    done(null, payload)
  }

  // Route hooks, not global ones: a route that is neither cached nor a write of reference data runs
  // none of this. A route's topic is known only once its module's onRoute hooks ran (withReferences).
  const attached = new WeakSet<RouteOptions>()
  app.decorate('cacheReferenceRoute', (route: RouteOptions) => {
    const { cachedAs, changes } = route.config ?? {}
    if (attached.has(route) || (!cachedAs && !changes)) return
    attached.add(route)
    if (cachedAs && isGet(route)) {
      appendRouteHook(route, 'onRequest', answerFromCopy(cachedAs)) // last: after authentication and the route's role checks
      appendRouteHook(route, 'onSend', keepAnswer)
    }
    if (changes && !isRead(route)) appendRouteHook(route, 'onSend', dropOnSuccess(changes))
  })
  app.addHook('onRoute', (route) => { app.cacheReferenceRoute(route) })
}, { name: 'reference-cache' })

/** a scope of routes that the onRoute hook marks (a module's topic), so that the module need not know */
export const withReferences = (hook: (route: RouteOptions) => void, register: (scope: FastifyInstance) => Promise<void>) =>
  async (scope: FastifyInstance) => {
    scope.addHook('onRoute', (route) => { hook(route); scope.cacheReferenceRoute(route) })
    await register(scope)
  }
