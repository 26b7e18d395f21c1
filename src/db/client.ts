import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql, type SQL } from 'drizzle-orm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgDialect, PgQueryResultHKT, PgSession } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { backoffDelay } from '../lib/backoff.js'
import { lockDataDir } from './data-dir-lock.js'
import { prepareDataDir } from './fresh-image.js'
import { createKeyedTurns } from '../lib/keyed-turns.js'
import * as schema from './schema/index.js'
import { createTransactionGuard, createTurns, type PoolUse, type TransactionGuard } from './transaction-guard.js'

export type { PoolUse } from './transaction-guard.js'

/** One handle type for both drivers (and their transactions): repositories take this. */
export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>

/** The rows of a raw statement, on either driver (both answer `{ rows }`). */
export async function selectRows<T> (db: AppDb, statement: SQL): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows
}

/**
 * The rows of a raw statement as arrays of their columns, in the select list's order, on either
 * driver. For reads of 100,000 rows: the drivers make each row an object keyed by column name,
 * which costs more than the read itself.
 */
export async function selectTuples<T extends unknown[]> (db: AppDb, statement: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as { dialect: PgDialect, session: PgSession }
  // fields given (empty) and a mapper that keeps the rows: both drivers then answer in array mode
  const query = session.prepareQuery(dialect.sqlToQuery(statement), [], undefined, true, (rows) => rows)
  return await query.execute() as T[]
}

/**
 * A raw statement as a named prepared statement, its text built once: PostgreSQL parses and plans it
 * once per connection, and the service builds it once, not on every call (for a long statement run
 * hundreds of times a second, most of the cost on both sides). Its parameters are
 * `sql.placeholder(name)`s, given to each call. PGlite ignores the name.
 */
export function preparedStatement<T> (db: AppDb, name: string, statement: SQL): (values: Record<string, unknown>) => Promise<T[]> {
  const { dialect, session } = db as unknown as { dialect: PgDialect, session: PgSession }
  const prepared = session.prepareQuery(dialect.sqlToQuery(statement), undefined, name, false)
  return async (values) => ((await prepared.execute(values)) as { rows: T[] }).rows
}

declare const openTransaction: unique symbol
/** A handle bound to an open transaction. Only `transactional` hands one out. */
export type TxDb = AppDb & { readonly [openTransaction]: true }

/** Runs `work` in one transaction with a repository bound to it. */
export type Transactional<R> = <T>(work: (repo: R) => Promise<T>) => Promise<T>

/** the brand is given in this file only: to the handle drizzle opened a transaction on, and to queries typed `never` elsewhere */
const opened = (_handle: AppDb): _handle is TxDb => true

export function transactional<R> (db: AppDb, makeRepo: (tx: TxDb) => R): Transactional<R> {
  return async (work) => {
    let begun = false
    try {
      return await db.transaction((tx) => {
        begun = true
        const handle: AppDb = tx
        if (!opened(handle)) throw new Error('unreachable')
        return work(makeRepo(handle))
      })
    } catch (err) {
      // no connection for BEGIN: said as the failed statement it is, so that it answers 503, not 500
      if (!begun) throw Object.assign(new Error('the transaction could not begin', { cause: err }), { query: 'begin' })
      throw err
    }
  }
}

/**
 * A query that only means something inside a transaction (a row lock, a transaction-scoped advisory
 * lock): on a repository built over a plain connection its type is `never`, so calling it outside
 * `transactional` does not compile, where it would have locked nothing. The query receives the
 * handle typed as the transaction it is, so owners can export such queries taking a `TxDb`.
 */
export function inTransactionOnly<D extends AppDb, A extends unknown[], R> (db: D, query: (tx: TxDb, ...args: A) => R):
D extends TxDb ? (...args: A) => R : never {
  const handle: AppDb = db
  if (!opened(handle)) throw new Error('unreachable')
  const bound = (...args: A) => query(handle, ...args)
  return bound as D extends TxDb ? (...args: A) => R : never
}

export type Listener = (payload: string) => void

/** What the service needs of its database, whichever driver serves it. */
export interface Database {
  /** the typed query builder the repositories use */
  db: AppDb
  kind: 'pglite' | 'postgres'
  /** raw SQL with positional parameters, for the few places that are not repositories (benchmarks, tests) */
  query: <T>(text: string, params?: unknown[]) => Promise<T[]>
  notify: (channel: string, payload: string) => Promise<void>
  /**
   * LISTEN on `channel` (PostgreSQL: a dedicated connection, reconnected with backoff); answers the
   * stop. `onState` hears when notifications start and stop arriving: what was missed in between is lost.
   */
  listen: (channel: string, listener: Listener, onState?: (listening: boolean) => void) => Promise<() => Promise<void>>
  /**
   * Leadership among the service's instances for the work only one of them may do (`key`: its
   * advisory lock). PostgreSQL: a dedicated connection holds a session advisory lock, the others
   * try every few seconds and one takes over when the holder's connection ends; the embedded
   * database's one process always leads. `onState` hears each change; answers the stop.
   */
  lead: (key: number, onState: (leading: boolean) => void) => Promise<() => Promise<void>>
  /**
   * `work` done while no other instance does work under the same `key` and `subkey` (a line's
   * switch: its history row and Asterisk's database changed together). PostgreSQL: a transaction
   * of its own connection holds the advisory lock while `work` runs its queries on the others; the
   * embedded database's one process takes turns in memory, holding no connection.
   */
  exclusively: <T>(key: number, subkey: number, work: () => Promise<T>) => Promise<T>
  /** applies the migrations of `folder` (PostgreSQL: under an advisory lock, for concurrent starts) */
  migrate: (folder: string) => Promise<void>
  /**
   * The embedded database's files as an image: a tarball of its data directory taken between
   * statements (a migrated template for tests; gzip'd, a backup). PostgreSQL has none.
   */
  image: (compression?: 'none' | 'gzip') => Promise<Blob>
  /** a round trip to the database */
  ping: () => Promise<void>
  /** the connections' use (the embedded database has one, taken in turns), for the metrics */
  poolUse: () => PoolUse
  close: () => Promise<void>
}

export interface DbOptions {
  databaseUrl?: string
  /** directory of the embedded database; undefined keeps it in memory */
  dataDir?: string
  /** an initial data directory image (tests load a migrated template) */
  loadDataDir?: Blob
  poolSize?: number
  /** embedded database: how long a caller waits for its turn before it fails as unavailable (503) */
  turnWaitMs?: number
}

export const pgliteExtensions = { pg_trgm }

/** how long a connection to the PostgreSQL server may take to open */
const CONNECT_TIMEOUT_MS = 5000
/** the longest statement the service runs (its heaviest are exports and generations: far below this) */
const STATEMENT_TIMEOUT_MS = 30_000
/** how long a caller waits for its turn at the embedded database before it answers 503 */
export const EMBEDDED_TURN_WAIT_MS = STATEMENT_TIMEOUT_MS
// Any constant works; it only has to be the same for every instance of the service.
const MIGRATION_LOCK = 7_351_001

export async function createDb (options: DbOptions): Promise<Database> {
  if (options.databaseUrl) return createPostgres(options.databaseUrl, options.poolSize ?? 10)
  const dataDir = options.dataDir === undefined ? undefined : join(options.dataDir, 'pgdata')
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const unlock = options.dataDir === undefined ? () => {} : lockDataDir(options.dataDir)
  const opened = async () => {
    if (dataDir && !options.loadDataDir) prepareDataDir(dataDir)
    return PGlite.create({ dataDir, loadDataDir: options.loadDataDir, extensions: pgliteExtensions })
  }
  const client = await opened().catch((err: unknown) => { unlock(); throw err })
  return createPglite(client, unlock, options.turnWaitMs ?? EMBEDDED_TURN_WAIT_MS)
}

/** the start of a statement, to name it in an error (never its parameters) */
const statementHead = (text: string) => text.length > 200 ? `${text.slice(0, 200)}...` : text

/**
 * Every transaction of `db` runs its work marked as inside it, and a transaction begun from inside
 * another's work (through the plain handle, not the transaction's) is refused.
 */
function guardTransactions (db: AppDb, guard: TransactionGuard): void {
  const session = (db as unknown as { session: { transaction: (work: (tx: AppDb) => Promise<unknown>, config?: unknown) => Promise<unknown> } }).session
  const begin = session.transaction.bind(session)
  session.transaction = async (work, config) => {
    guard.refuseInside('a transaction')
    return begin((tx) => guard.inside(() => work(tx)), config)
  }
}

/**
 * The embedded database's entry points, guarded: a query from inside an open transaction's work is
 * refused at once (it would wait forever for that transaction), and every caller waits its turn at
 * most `turnWaitMs`. The transaction's own handle is PGlite's transaction object, not these.
 */
function guardPgliteClient (client: PGlite, guard: TransactionGuard, turnWaitMs: number): () => PoolUse {
  const turns = createTurns(turnWaitMs)
  const query = client.query.bind(client)
  const exec = client.exec.bind(client)
  const transaction = client.transaction.bind(client)
  Object.assign(client, {
    query: async (text: string, params?: unknown[], options?: object) => {
      guard.refuseInside(`the query "${statementHead(text)}"`)
      return turns.run(text, () => query(text, params, options))
    },
    exec: async (text: string, options?: object) => {
      guard.refuseInside(`the statement "${statementHead(text)}"`)
      return turns.run(text, () => exec(text, options))
    },
    transaction: async (work: Parameters<PGlite['transaction']>[0]) => {
      guard.refuseInside('a transaction')
      return turns.run('begin', () => transaction(work))
    },
  })
  return turns.use
}

function createPglite (client: PGlite, unlock: () => void, turnWaitMs: number): Database {
  const guard = createTransactionGuard()
  const poolUse = guardPgliteClient(client, guard, turnWaitMs)
  const db: AppDb = drizzlePglite({ client, schema })
  guardTransactions(db, guard)
  const turns = createKeyedTurns()
  return {
    db,
    kind: 'pglite',
    poolUse,
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
    notify: async (channel, payload) => { await client.query('select pg_notify($1, $2)', [channel, payload]) },
    listen: async (channel, listener, onState) => {
      const unlisten = await client.listen(channel, listener)
      onState?.(true)
      return async () => { if (!client.closed) await unlisten() }
    },
    lead: async (_key, onState) => {
      onState(true)
      return async () => {}
    },
    exclusively: (key, subkey, work) => turns.run(`${key}:${subkey}`, work),
    migrate: async (folder) => { await migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }) },
    image: (compression = 'none') => client.dumpDataDir(compression),
    ping: async () => { await client.query('select 1') },
    close: async () => {
      if (!client.closed) await client.close()
      unlock()
    },
  }
}

/**
 * The pool's acquisitions timed (the pool's queries take theirs through `connect` too): how long
 * callers waited for a connection, and how many gave up (CONNECT_TIMEOUT_MS).
 */
function timeConnections (pool: pg.Pool, max: number): () => PoolUse {
  const use = { acquired: 0, waitSeconds: 0, timeouts: 0 }
  const connect = pool.connect.bind(pool) as (callback?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => Promise<pg.PoolClient> | undefined
  const counted = (asked: number, err: unknown) => {
    if (err) { use.timeouts += /timeout/i.test(String((err as Error).message)) ? 1 : 0; return }
    use.acquired++
    use.waitSeconds += (performance.now() - asked) / 1000
  }
  pool.connect = ((callback?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => {
    const asked = performance.now()
    if (callback) return connect((err, client, done) => { counted(asked, err); callback(err, client, done) })
    return connect()!.then((client) => { counted(asked, undefined); return client }, (err: unknown) => { counted(asked, err); throw err })
  }) as typeof pool.connect
  return () => ({ max, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, ...use })
}

function createPostgres (connectionString: string, max: number): Database {
  // no query waits forever: a server that stops answering is given up on and the request answers 503
  const config: pg.PoolConfig = {
    connectionString,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5000,
    keepAlive: true,
  }
  const pool = new pg.Pool(config)
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const poolUse = timeConnections(pool, max)
  const guard = createTransactionGuard()
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
  // the plain handle's queries: refused from inside a transaction's work, as on the embedded database
  pool.query = (async (...args: unknown[]) => {
    const text = args[0]
    guard.refuseInside(`the query "${statementHead(typeof text === 'string' ? text : String((text as { text?: unknown })?.text))}"`)
    return poolQuery(...args)
  }) as typeof pool.query
  const db: AppDb = drizzlePg({ client: pool, schema })
  guardTransactions(db, guard)
  return {
    db,
    kind: 'postgres',
    poolUse,
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query<T & pg.QueryResultRow>(text, params)).rows,
    notify: async (channel, payload) => { await pool.query('select pg_notify($1, $2)', [channel, payload]) },
    listen: (channel, listener, onState) => listenPostgres(config, channel, listener, onState),
    lead: (key, onState) => leadPostgres(config, key, onState),
    async exclusively (key, subkey, work) {
      const client = await pool.connect()
      try {
        await client.query('begin')
        await client.query('select pg_advisory_xact_lock($1, $2)', [key, subkey])
        return await work()
      } finally {
        await client.query('commit').catch(() => {})
        client.release()
      }
    },
    migrate: async (folder) => {
      const client = await pool.connect()
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
        await migratePg(drizzlePg({ client }), { migrationsFolder: folder })
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
        client.release()
      }
    },
    image: () => Promise.reject(new Error('a PostgreSQL database has no data directory image')),
    ping: async () => { await db.execute(sql`select 1`) },
    close: async () => { await pool.end() },
  }
}

/**
 * A connection made while its owner was being stopped (a reconnection in flight): ended at once, or
 * its open socket would keep the stopped process alive.
 */
function endStray (c: pg.Client): void {
  c.end().catch(() => {})
}

/**
 * A dedicated connection (LISTEN holds it), reconnected with backoff when it is lost; the backoff
 * starts again after a connection that worked, and a client whose LISTEN failed is closed.
 */
async function listenPostgres (config: pg.ClientConfig, channel: string, listener: Listener, onState?: (listening: boolean) => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined
  const connect = async (attempt: number): Promise<void> => {
    const c = new pg.Client(config)
    let listening = false
    let gaveUp = false
    const reconnect = () => {
      if (gaveUp || closed) return
      gaveUp = true
      if (listening) onState?.(false)
      if (client === c) client = undefined
      c.end().catch(() => {})
      const next = listening ? 0 : attempt + 1
      retry = setTimeout(() => { void connect(next) }, backoffDelay(next, { baseMs: 100, maxMs: 10_000 }))
    }
    c.on('notification', (n) => { if (n.channel === channel && n.payload !== undefined) listener(n.payload) })
    c.on('error', reconnect)
    try {
      await c.connect()
      await c.query(`listen "${channel.replace(/"/g, '""')}"`)
      if (closed) return endStray(c)
      listening = true
      client = c
      onState?.(true)
    } catch {
      reconnect()
    }
  }
  await connect(0)
  return async () => { closed = true; clearTimeout(retry); await client?.end().catch(() => {}) }
}

/** how often an instance that does not lead tries the lock, and the leader checks its connection */
export const LEADERSHIP_CHECK_MS = 3000

/**
 * A dedicated connection that holds the session advisory lock `key` while this instance leads. It
 * tries the lock every LEADERSHIP_CHECK_MS; the leader checks its connection as often, so a leader
 * cut off from the database stops leading about when the server lets the lock go. A lost connection
 * is reconnected with backoff.
 */
async function leadPostgres (config: pg.ClientConfig, key: number, onState: (leading: boolean) => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let closed = false
  let timer: NodeJS.Timeout | undefined
  let leading = false
  const setLeading = (now: boolean) => { if (leading !== now) { leading = now; onState(now) } }
  const connect = async (attempt: number): Promise<void> => {
    const c = new pg.Client({ ...config, query_timeout: LEADERSHIP_CHECK_MS })
    let gaveUp = false
    const reconnect = () => {
      if (gaveUp || closed) return
      gaveUp = true
      setLeading(false)
      clearTimeout(timer)
      if (client === c) client = undefined
      c.end().catch(() => {})
      timer = setTimeout(() => { void connect(attempt + 1) }, backoffDelay(attempt, { baseMs: 100, maxMs: 10_000 }))
    }
    const check = async () => {
      try {
        if (leading) await c.query('select 1')
        else {
          const { locked } = (await c.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key])).rows[0]!
          // stopped meanwhile: its end lets the lock go; it never begins to lead
          if (closed) return
          setLeading(locked)
        }
        attempt = 0
        if (!closed) timer = setTimeout(() => { void check() }, LEADERSHIP_CHECK_MS)
      } catch {
        reconnect()
      }
    }
    c.on('error', reconnect)
    try {
      await c.connect()
      if (closed) return endStray(c)
      client = c
      await check()
    } catch {
      reconnect()
    }
  }
  await connect(0)
  return async () => {
    closed = true
    clearTimeout(timer)
    setLeading(false)
    await client?.end().catch(() => {}) // the lock goes with the session
  }
}
